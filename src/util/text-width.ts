/**
 * Display width of text in terminal cells (CJK and emoji count 2, combining marks 0), and cutting
 * text to a width on grapheme boundaries. Pure: no terminal, no process.
 */
import stringWidth from 'string-width';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
export const ELLIPSIS = '…';

// A run of non-ASCII text with the ASCII character before it (a keycap `1️⃣` or `e` + combining accent
// is one cluster that starts with ASCII), or a run of printable ASCII.
const WIDTH_RUNS = /[\x20-\x7e]?[^\x20-\x7e]+|[\x20-\x7e]+(?![^\x20-\x7e])/g;

// Text of mostly ASCII with a few other characters (a recap with an em dash) is measured run by run:
// string-width segments a whole string into graphemes as soon as one character is not ASCII, ~2 us per
// character, and composing a recap measures its line many times. Printable ASCII is one cell a char.
export function displayWidth(text: string): number {
  if (text.includes('\x1b') || text.includes('\x9b')) return stringWidth(text, { countAnsiEscapeCodes: false });
  let width = 0;
  for (const [run] of text.matchAll(WIDTH_RUNS)) {
    const last = run.charCodeAt(run.length - 1);
    width += last >= 0x20 && last <= 0x7e ? run.length : stringWidth(run, { countAnsiEscapeCodes: false });
  }
  return width;
}

/** Grapheme clusters of text, each with its width in cells. */
export function graphemes(text: string): Array<{ text: string; width: number }> {
  const out: Array<{ text: string; width: number }> = [];
  for (const { segment } of segmenter.segment(text)) out.push({ text: segment, width: stringWidth(segment) });
  return out;
}

// Cut text so it fits in maxWidth cells; when something is cut, the result ends with an ellipsis
// and still fits (a wide character that would straddle the edge is dropped whole).
export function truncateToWidth(text: string, maxWidth: number, ellipsis: string = ELLIPSIS): string {
  // No limit (output that is not a terminal): nothing to measure. The first measure of non-ASCII text
  // compiles string-width's Unicode patterns, ~15 ms of a `recapwrap search | …`.
  if (maxWidth === Number.POSITIVE_INFINITY) return text;
  if (maxWidth <= 0) return '';
  if (displayWidth(text) <= maxWidth) return text;
  const ellipsisWidth = displayWidth(ellipsis);
  if (maxWidth < ellipsisWidth) return '';
  const budget = maxWidth - ellipsisWidth;
  // Only as far as the budget: cutting a long text (a whole prompt to a recap's few words) segmented
  // all of it first, ~5 ms a session for the index's heuristic cards.
  let used = 0;
  let out = '';
  for (const { segment } of segmenter.segment(text)) {
    const width = stringWidth(segment);
    if (used + width > budget) break;
    out += segment;
    used += width;
  }
  return out.trimEnd() + ellipsis;
}

/** Pad with spaces on the right to exactly width cells (text must already fit). */
export function padToWidth(text: string, width: number): string {
  const w = displayWidth(text);
  return w >= width ? text : text + ' '.repeat(width - w);
}
