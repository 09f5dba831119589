/**
 * Display width of text in terminal cells (CJK and emoji count 2, combining marks 0), and cutting
 * text to a width on grapheme boundaries. Pure: no terminal, no process.
 */
import stringWidth from 'string-width';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
export const ELLIPSIS = '…';

export function displayWidth(text: string): number {
  return stringWidth(text, { countAnsiEscapeCodes: false });
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
  if (maxWidth <= 0) return '';
  if (displayWidth(text) <= maxWidth) return text;
  const ellipsisWidth = displayWidth(ellipsis);
  if (maxWidth < ellipsisWidth) return '';
  const budget = maxWidth - ellipsisWidth;
  let used = 0;
  let out = '';
  for (const g of graphemes(text)) {
    if (used + g.width > budget) break;
    out += g.text;
    used += g.width;
  }
  return out.trimEnd() + ellipsis;
}

/** Pad with spaces on the right to exactly width cells (text must already fit). */
export function padToWidth(text: string, width: number): string {
  const w = displayWidth(text);
  return w >= width ? text : text + ' '.repeat(width - w);
}
