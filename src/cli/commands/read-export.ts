/**
 * `read --md` and `read --html FILE` (#41): the whole session built as one document, then written as
 * markdown (stdout, never through the pager: it is for a file or another agent) or as one HTML page
 * (a file; `-` for stdout). `--turn`/`--at` start the markdown at that message; the page has a link
 * per message instead (`#t12`).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { buildDocument, type ReadOptions } from '../../reader/build.js';
import type { ReaderDocument, ReaderView } from '../../reader/document.js';
import { findAnchor } from '../../reader/find-anchor.js';
import { renderHtml } from '../../reader/html.js';
import { renderMarkdown } from '../../reader/markdown.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { ExportFlags } from './read-export-flags.js';

export { checkExportFlags, type ExportFlags } from './read-export-flags.js';

export interface ExportRun {
  file: string;
  readOptions: ReadOptions;
  view: ReaderView;
  thinking: boolean;
  /** Already checked: a prompt number from 1. */
  turn?: number;
  at?: string;
}

export interface ExportDeps {
  cwd: string;
  /** The home folder: paths under it are written `~/…` (a file made to be shared names no account). */
  home?: string;
  stdout: Writable;
  stderr: (text: string) => void;
}

// The header's folder and file as `~/…` when under the home folder, as the terminal's header shows them.
function underHome(doc: ReaderDocument, home: string | undefined): ReaderDocument {
  if (!home || home === '/') return doc;
  const tilde = (p: string | undefined) => (p !== undefined && (p === home || p.startsWith(`${home}/`)) ? `~${p.slice(home.length)}` : p);
  const cwd = tilde(doc.meta.cwd);
  return { ...doc, meta: { ...doc.meta, file: tilde(doc.meta.file) as string, ...(cwd === undefined ? {} : { cwd }) } };
}

// The blocks from prompt N, or from the first message holding the words.
function startAt(doc: ReaderDocument, run: ExportRun): ReaderDocument | string {
  let from = 0;
  if (run.turn !== undefined) {
    from = doc.blocks.findIndex((b) => b.kind === 'prompt' && !b.command && b.turn === run.turn);
    if (from === -1) return `no prompt ${run.turn}: the session has ${doc.meta.prompts} prompt${doc.meta.prompts === 1 ? '' : 's'}`;
  } else if (run.at !== undefined) {
    const hit = findAnchor(doc, run.at);
    if (!hit) return `no message of this session holds ${JSON.stringify(sanitizeLine(run.at))}`;
    from = doc.blocks.findIndex((b) => b.anchor === hit.anchor);
  }
  return from <= 0 ? doc : { meta: doc.meta, blocks: doc.blocks.slice(from) };
}

function writeOut(out: Writable, text: string): Promise<void> {
  return new Promise((done) => {
    out.on('error', () => done()); // the reader went away (`read --md | head`)
    out.write(text, () => done());
  });
}

/** Write the markdown or the page; resolves to the exit code (errors said on stderr, one line). */
export async function runReadExport(flags: ExportFlags, run: ExportRun, deps: ExportDeps): Promise<number> {
  const err = (text: string, code: number) => {
    deps.stderr(`recapwrap: ${text}\n`);
    return code;
  };
  let doc: ReaderDocument;
  try {
    // Outside the full view the page and the markdown show outputs' previews only (--at looks through whole outputs).
    const previewOnly = run.view !== 'full' && run.at === undefined;
    doc = underHome(await buildDocument(run.file, { ...run.readOptions, ...(previewOnly ? { previewOnly } : {}) }), deps.home);
  } catch (error) {
    return err((error as Error).message.split('\n')[0] as string, 1);
  }
  if (flags.md) {
    const from = startAt(doc, run);
    if (typeof from === 'string') return err(from, 1);
    await writeOut(deps.stdout, renderMarkdown(from, { view: run.view, thinking: run.thinking }));
    return 0;
  }
  const html = renderHtml(doc, { view: run.view, thinking: run.thinking });
  if (flags.html === '-') {
    await writeOut(deps.stdout, html);
    return 0;
  }
  const target = resolve(deps.cwd, flags.html as string);
  try {
    // Private by default, as the transcript it comes from; share it on purpose.
    writeFileSync(target, html, { mode: 0o600 });
  } catch (error) {
    return err(`cannot write ${sanitizeLine(target)}: ${sanitizeLine((error as Error).message)}`, 1);
  }
  const kb = Math.max(1, Math.round(Buffer.byteLength(html) / 1024));
  deps.stderr(`wrote ${sanitizeLine(target)} (${kb.toLocaleString('en-US')} KB, ${doc.meta.prompts} prompts): one file, no request leaves it; open it in a browser\n`);
  return 0;
}
