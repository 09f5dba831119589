/**
 * Pure: what the overlay bar says and how it is laid out: the recap composed for the cells the bar
 * has (the first row after the `✦ recap: ` label, then up to `barRows - 1` further rows), wrapped at
 * word boundaries, and the bytes of each row (an accent label, then dimmed text, sanitized and never
 * wider than the row; CJK and emoji counted right). Where and how rows are drawn is screen-mirror.ts's job.
 */
import { sanitizeLine } from '../util/sanitize.js';
import { displayWidth, graphemes, truncateToWidth } from '../util/text-width.js';

export type BarPosition = 'top' | 'bottom';

/**
 * Fits the recap's text (without label) into a number of cells, by priority (app passes the recap
 * layer's composer: display never imports recap).
 */
export type ComposeText = (cells: number) => string;

/** Accent (bold cyan) label, then dim text; both end with SGR 0 so nothing leaks into the row. */
const LABEL = '✦ recap:';
/** The label and the space after it: the first row's text starts after these cells. */
export const LABEL_CELLS = 9;
const LABEL_SGR = '\x1b[0;1;36m';
const TEXT_SGR = '\x1b[0;2m';
const RESET = '\x1b[0m';
/** Composing for "everything": no recap line is this long (the JSON line is ≤ 220). */
const UNLIMITED_CELLS = 10_000;
/** Recompositions for fewer cells, by what did not fit, before a binary search. */
const RECOMPOSE_TRIES = 3;

export interface RenderedBar {
  /** Bytes to write at column 0 of the bar row (no cursor movement, no newline). */
  bytes: string;
  /** Cells the bar covers (≤ cols). */
  width: number;
}

// The recap text may start with its own `recap:`; the label already says it.
function stripLabel(text: string): string {
  return text.replace(/^\s*(✦\s*)?recap:\s*/i, '');
}

// Text from a composer, made safe and one line (the composer is the recap layer's; trust nothing).
function cleanText(text: string): string {
  return stripLabel(sanitizeLine(text));
}

/** A composer for plain text (no recap at hand): the text cut to the cells, with an ellipsis. */
export function composePlainText(text: string): ComposeText {
  return (cells) => truncateToWidth(cleanText(text), cells);
}

/** The first bar row: the label, then the text cut to what is left of `cols`. */
export function renderOverlayBar(text: string, cols: number): RenderedBar {
  if (cols <= 0) return { bytes: '', width: 0 };
  const label = truncateToWidth(LABEL, cols, '');
  const labelWidth = displayWidth(label);
  const room = cols - labelWidth - 1;
  const body = room > 0 ? truncateToWidth(cleanText(text), room) : '';
  const bytes = `${LABEL_SGR}${label}${body ? `${TEXT_SGR} ${body}` : ''}${RESET}`;
  return { bytes, width: labelWidth + (body ? 1 + displayWidth(body) : 0) };
}

/** A further bar row: dimmed text only, from column 0. */
export function renderOverlayContinuation(text: string, cols: number): RenderedBar {
  if (cols <= 0) return { bytes: '', width: 0 };
  const body = truncateToWidth(sanitizeLine(text), cols);
  return body ? { bytes: `${TEXT_SGR}${body}${RESET}`, width: displayWidth(body) } : { bytes: '', width: 0 };
}

/** The bytes of every bar row: the label on the first, text only on the rest. */
export function renderOverlayRows(lines: readonly string[], cols: number): RenderedBar[] {
  return lines.map((line, i) => (i === 0 ? renderOverlayBar(line, cols) : renderOverlayContinuation(line, cols)));
}

/**
 * Wrap text into rows of the given widths at word boundaries (a word wider than a whole row is split
 * between graphemes, as CJK text with no spaces is). Returns the rows, or how many cells did not fit.
 */
export function wrapWords(text: string, widths: readonly number[]): { rows: string[] } | { overflow: number } {
  const rows: string[] = [''];
  let used = 0;
  const room = () => widths[rows.length - 1] ?? 0;
  const newRow = (): boolean => {
    if (rows.length >= widths.length) return false;
    rows.push('');
    used = 0;
    return true;
  };
  const words = text.split(' ').filter(Boolean);
  for (let w = 0; w < words.length; w++) {
    const word = words[w] as string;
    const width = displayWidth(word);
    const gap = used > 0 ? 1 : 0;
    // A label (`Next:`) stays with the word after it: to the next row together when both fit there.
    const follower = word.endsWith(':') ? words[w + 1] : undefined;
    const together = follower === undefined ? width : width + 1 + displayWidth(follower);
    if (used > 0 && follower !== undefined && used + gap + together > room() && together <= (widths[rows.length] ?? 0)) {
      newRow();
      rows[rows.length - 1] = word;
      used = width;
      continue;
    }
    if (used + gap + width <= room()) {
      rows[rows.length - 1] += (gap ? ' ' : '') + word;
      used += gap + width;
      continue;
    }
    // On a fresh row if it fits one (even leaving this one empty: no word is cut that need not be);
    // else split it, filling this row first.
    const nextRoom = widths[rows.length] ?? 0;
    if (width <= nextRoom) {
      newRow();
      rows[rows.length - 1] = word;
      used = width;
      continue;
    }
    if (used > 0) {
      if (used + 1 < room()) {
        rows[rows.length - 1] += ' ';
        used += 1;
      } else if (!newRow()) {
        return { overflow: overflowFrom(words, w) };
      }
    }
    const parts = graphemes(word);
    for (let g = 0; g < parts.length; g++) {
      const part = parts[g] as { text: string; width: number };
      while (used + part.width > room()) {
        if (!newRow()) return { overflow: parts.slice(g).reduce((n, p) => n + p.width, 0) + overflowFrom(words, w + 1) };
      }
      rows[rows.length - 1] += part.text;
      used += part.width;
    }
  }
  return { rows: rows.map((r) => r.trimEnd()) };
}

// Cells of the words from index `from` on, with a space before each.
function overflowFrom(words: readonly string[], from: number): number {
  let n = 0;
  for (let i = from; i < words.length; i++) n += 1 + displayWidth(words[i] as string);
  return n;
}

/**
 * The text of each bar row for `cols` columns and at most `maxRows` rows: one row when the whole recap
 * fits there; else the recap composed for all the cells the rows have (`maxRows * cols - 9`), wrapped
 * at words. When wrapping needs more rows than allowed, it is composed again for as many fewer cells as
 * did not fit (a few times), then for the most cells a binary search finds: composing costs, and this
 * runs on the thread that forwards the agent's output.
 */
export function layoutBar(compose: ComposeText, cols: number, maxRows: number): string[] {
  const first = Math.max(0, cols - LABEL_CELLS);
  const oneRow = () => [truncateToWidth(cleanText(compose(first)), first)];
  if (first <= 0) return [''];
  if (maxRows <= 1) return oneRow();
  const whole = cleanText(compose(UNLIMITED_CELLS));
  if (displayWidth(whole) <= first) return [whole];
  const widths = [first, ...Array.from({ length: maxRows - 1 }, () => cols)];
  const attempt = (cells: number) => wrapWords(cleanText(compose(cells)), widths);
  let failed = maxRows * cols - LABEL_CELLS;
  let result = attempt(failed);
  for (let tries = 0; tries < RECOMPOSE_TRIES && 'overflow' in result; tries++) {
    const cells = Math.max(first, failed - Math.max(1, result.overflow));
    const next = attempt(cells);
    if ('rows' in next) return next.rows;
    if (cells === first) return oneRow();
    failed = cells;
    result = next;
  }
  if ('rows' in result) return result.rows;
  let best = oneRow();
  let lo = first;
  let hi = failed - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const rows = attempt(mid);
    if ('rows' in rows) {
      best = rows.rows;
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

/** The 0-based row of the bar's first row when it covers `count` rows. */
export function barTopRow(position: BarPosition, rows: number, count = 1): number {
  return position === 'top' ? 0 : Math.max(0, rows - count);
}

/** The 0-based row the one-row bar uses. */
export function barRow(position: BarPosition, rows: number): number {
  return barTopRow(position, rows, 1);
}

/** How many rows the bar may take on a terminal of `rows` rows: never the whole screen unless it has one row. */
export function maxBarRows(barRows: number, rows: number): number {
  return Math.max(1, Math.min(barRows, rows - 1));
}
