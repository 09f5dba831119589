/**
 * Pure: how every transcript text enters the reader's document: cut to a bound first (with a margin, so
 * a secret at the edge is still whole when it is masked), stripped of escape sequences and invisible
 * characters, then masked for secrets with the index's rules, then cut to the bound. Renderers escape
 * again for their own medium.
 */
import { maskSecrets } from '../memory/secrets.js';
import { sanitizeLine, sanitizeText } from '../util/sanitize.js';

// Read past the cut before masking: a token that starts before the cut is whole when masked.
const MASK_MARGIN_CHARS = 2048;

/** Multi-line transcript text, cleaned and bounded; `cut` when the bound took some of it. */
export function cleanText(text: string, maxChars: number): { text: string; cut: boolean } {
  const over = text.length > maxChars;
  const head = over ? text.slice(0, maxChars + MASK_MARGIN_CHARS) : text;
  let clean = maskSecrets(sanitizeText(head));
  if (over || clean.length > maxChars) {
    clean = clean.slice(0, maxChars);
    // A cut never leaves half a surrogate pair.
    if (/[\ud800-\udbff]$/.test(clean)) clean = clean.slice(0, -1);
    return { text: clean, cut: true };
  }
  return { text: clean, cut: false };
}

/** One line of transcript text (a command, a path, a label), cleaned and bounded. */
export function cleanLine(text: string, maxChars = 2000): string {
  const head = text.length > maxChars + MASK_MARGIN_CHARS ? text.slice(0, maxChars + MASK_MARGIN_CHARS) : text;
  const line = maskSecrets(sanitizeLine(head));
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}

/** Lines in a text (a trailing newline does not start one more). */
export function countLines(text: string): number {
  if (!text) return 0;
  let n = 1;
  let at = text.indexOf('\n');
  while (at !== -1) {
    if (at < text.length - 1) n++;
    at = text.indexOf('\n', at + 1);
  }
  return n;
}
