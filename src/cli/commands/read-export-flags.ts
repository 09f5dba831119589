/**
 * The flags of `read --md` and `read --html FILE` checked before any file is read. Apart from
 * read-export.ts so `read` loads the renderers (and markdown-it) only when it exports.
 */

export interface ExportFlags {
  md?: boolean;
  html?: string;
  outline?: boolean;
  turn?: string;
  at?: string;
}

/** A conflict among the export flags, said before any file is read; undefined when they fit. */
export function checkExportFlags(flags: ExportFlags): string | undefined {
  if (!flags.md && flags.html === undefined) return undefined;
  if (flags.md && flags.html !== undefined) return 'use --md or --html FILE, not both';
  if (flags.outline) return `--outline is a terminal form; drop it for ${flags.md ? '--md' : '--html'}`;
  if (flags.html !== undefined) {
    if (flags.html.trim() === '') return '`--html` needs a file to write (or - for stdout)';
    if (flags.turn !== undefined || flags.at !== undefined) return '--html writes the whole session; open the page at a message with its link (FILE#t12)';
  }
  return undefined;
}
