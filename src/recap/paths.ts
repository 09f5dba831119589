/**
 * Paths as a recap shows them: relative to the session's folder, `~` for a home folder, and no user
 * names, also of other people's homes quoted in a transcript (`/home/NAME/…`, `/Users/NAME/…`,
 * `C:\Users\NAME\…`, Claude's `-Users-NAME-…` folder names). Pure string work.
 */

const SEP = /[/\\]+$/;
// A home folder in a path: the user name is the segment after it (never shown).
const HOME_PATH = /(?<![\w.~-])(?:(?:[A-Za-z]:)?[/\\](?:Users|home)[/\\][^/\\\s"'`<>|:;,)]+|\/root(?=[/\\\s"'`),;:]|$))/gi;
// Claude's and Qwen's project folder names encode the path with dashes: `-Users-NAME-code`, `C--Users-NAME-…`.
const ENCODED_HOME = /(?<=^|[/\\\s"'`(])([A-Za-z]-)?-(?:Users|home)-[^-/\\\s"'`]+/gi;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The home folder a session's folder lies in (`/home/ana/app` → `/home/ana`), if it is in one. */
export function homeOf(cwd: string | undefined): string | undefined {
  if (!cwd) return undefined;
  const m = /^((?:[A-Za-z]:)?[/\\](?:Users|home)[/\\][^/\\]+|\/root)(?=[/\\]|$)/i.exec(cwd);
  return m?.[1];
}

/**
 * The text with every path shortened: the session's folder dropped (`/home/ana/app/src/x.ts` →
 * `src/x.ts`, the folder itself → `.`), any home folder as `~` (its user name gone).
 */
export function shortenPaths(text: string, cwd?: string): string {
  let out = text;
  const base = cwd?.replace(SEP, '');
  // Not for a folder that is a home or the root: `~` says it better than a path made relative to it.
  if (base && base.length > 1 && homeOf(base) !== base) {
    // Both slash styles: a Windows folder is often written with forward slashes too.
    for (const b of new Set([base, base.replace(/\\/g, '/'), base.replace(/\//g, '\\')])) {
      const re = new RegExp(`${escapeRe(b)}(?:[/\\\\]+(?=[^\\s])|(?=[\\s"'\`),;:]|$))`, 'g');
      out = out.replace(re, (m) => (/[/\\]$/.test(m) ? '' : '.'));
    }
  }
  out = out.replace(HOME_PATH, '~');
  out = out.replace(ENCODED_HOME, (_m, drive?: string) => `${drive ?? ''}-~`);
  return out;
}

/** A path that would show a home folder or another absolute place (after shortening, none should). */
export function showsHomePath(text: string): boolean {
  return /(?<![\w.~-])(?:[A-Za-z]:)?[/\\](?:Users|home)[/\\][^/\\\s]+|(?<![\w.~-])\/root\//i.test(text);
}
