/**
 * Display width of text in terminal cells (CJK and emoji count 2, combining marks 0), and cutting
 * text to a width on grapheme boundaries. Pure: no terminal, no process. Printable ASCII is measured
 * here; string-width and the grapheme segmenter are loaded when first needed (string-width-load.ts).
 */
import { loadStringWidth } from './string-width-load.js';

// Made on first use: creating a segmenter loads ICU's break rules, 15-35 ms (more than all the rest of a
// `recapwrap sessions` start), for text that is almost always measured without one.
let segmenter: Intl.Segmenter | undefined;
const segmentsOf = (text: string) => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text);
const stringWidth = (text: string, options?: { countAnsiEscapeCodes?: boolean }) => loadStringWidth()(text, options);

// One grapheme's width: a printable ASCII character is one cell, without string-width.
function segmentWidth(segment: string): number {
  const code = segment.length === 1 ? segment.charCodeAt(0) : 0;
  return code >= 0x20 && code <= 0x7e ? 1 : stringWidth(segment);
}
export const ELLIPSIS = '…';

// Characters string-width measures as one cell that never join the character before or after them
// into one cluster (no combining marks, joiners, variation selectors, surrogates, invisible controls):
// Latin-1 and Latin Extended letters, Greek, Cyrillic, general punctuation (… — ’ •), currency, letter-
// like symbols, arrows, math operators, box drawing, check and cross marks. Text of ASCII and these (a
// recap with an ellipsis, test output with ✓) is measured and cut without loading string-width (~20-35
// ms the first time) or the grapheme segmenter; text-width.test.ts checks each against string-width.
export const NARROW_CHARS = '\u00a0-\u00ac\u00ae-\u02ff\u0370-\u0482\u048a-\u04ff\u2010-\u2029\u202f-\u205e\u20a0-\u20c0\u2100-\u214f\u2190-\u22ff\u2500-\u25fc\u2713\u2714\u2716-\u2718';
const NARROW_RUN = new RegExp(`^[\\x20-\\x7e]?[${NARROW_CHARS}]+$`);
const ONE_CELL_EACH = new RegExp(`^[\\x20-\\x7e${NARROW_CHARS}]*$`);

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
    width += (last >= 0x20 && last <= 0x7e) || NARROW_RUN.test(run) ? run.length : stringWidth(run, { countAnsiEscapeCodes: false });
  }
  return width;
}

/** Grapheme clusters of text, each with its width in cells. */
export function graphemes(text: string): Array<{ text: string; width: number }> {
  if (ONE_CELL_EACH.test(text)) return Array.from(text, (c) => ({ text: c, width: 1 }));
  const out: Array<{ text: string; width: number }> = [];
  for (const { segment } of segmentsOf(text)) out.push({ text: segment, width: segmentWidth(segment) });
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
  const ellipsisWidth = ellipsis === ELLIPSIS ? 1 : displayWidth(ellipsis); // `…`: one cell, known without string-width
  if (maxWidth < ellipsisWidth) return '';
  const budget = maxWidth - ellipsisWidth;
  if (ONE_CELL_EACH.test(text)) return text.slice(0, budget).trimEnd() + ellipsis;
  // Only as far as the budget: cutting a long text (a whole prompt to a recap's few words) segmented
  // all of it first, ~5 ms a session for the index's heuristic cards.
  let used = 0;
  let out = '';
  for (const { segment } of segmentsOf(text)) {
    const width = segmentWidth(segment);
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
