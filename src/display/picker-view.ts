/**
 * Pure: the reference picker's rows for a width: the query line, one line per session (the selected one
 * in reverse video) scrolled so the selection is in view, and a line of keys. Every row is exactly
 * `cols` cells (CJK and emoji counted as two) and ends with SGR 0; all text from the index is sanitized.
 * Where the rows go and how they come off is screen-mirror.ts's job.
 */
import { sanitizeLine } from '../util/sanitize.js';
import { displayWidth, padToWidth, truncateToWidth } from '../util/text-width.js';
import type { PickerState } from './picker.js';

/** The picker takes at most this many rows (the query, the sessions, the keys line). */
export const PICKER_MAX_ROWS = 12;
/** Fewer rows than this and it does not open (one session line would be too little to choose from). */
export const PICKER_MIN_ROWS = 4;

const HEAD_SGR = '\x1b[0;1;36m';
const QUERY_SGR = '\x1b[0;1m';
const DIM_SGR = '\x1b[0;2m';
const SELECTED_SGR = '\x1b[0;7m';
const PLAIN_SGR = '\x1b[0m';
const RESET = '\x1b[0m';
const LABEL = '✦ session: ';
const CURSOR = '▏';
const KEYS_LINE = '↑↓ choose · Enter paste its reference · Esc cancel';

export interface PickerViewInput {
  state: PickerState;
  cols: number;
  /** Rows the picker may take (it takes min(this, PICKER_MAX_ROWS)). */
  rows: number;
  /** A short note in place of the count ("searching…", "index unavailable: …"). */
  status?: string;
  /** The line of keys at the bottom, when Enter does something else than paste (`resume`'s picker). */
  keys?: string;
}

/** How many rows the picker takes on a screen of `rows` rows (0 = too small to open). */
export function pickerHeight(rows: number): number {
  const h = Math.min(PICKER_MAX_ROWS, rows);
  return h >= PICKER_MIN_ROWS ? h : 0;
}

function fit(text: string, cols: number): string {
  return padToWidth(truncateToWidth(text, cols), cols);
}

/** A name always gets this many cells; more where the width leaves the headline HEADLINE_MIN_CELLS. */
const NAME_MIN_CELLS = 28;
const HEADLINE_MIN_CELLS = 24;

// One session on one line: name, agent, folder, age, then the headline in what is left. The name gets
// what the width allows (#43.6: cut at 28 cells, a session and its fork looked the same at 120 columns).
function itemLine(item: PickerState['items'][number], cols: number): string {
  const rest = `  ${sanitizeLine(item.agent)} · ${truncateToWidth(sanitizeLine(item.folder), 20)} · ${sanitizeLine(item.age)}  `;
  const nameRoom = Math.max(NAME_MIN_CELLS, cols - 1 - displayWidth(rest) - HEADLINE_MIN_CELLS);
  const name = truncateToWidth(sanitizeLine(item.name) || sanitizeLine(item.id).slice(0, 8), nameRoom);
  const head = ` ${name}${rest}`;
  const room = cols - displayWidth(head);
  return fit(head + (room > 0 ? truncateToWidth(sanitizeLine(item.headline), room) : ''), cols);
}

/** The picker's rows, top to bottom: bytes to write at column 0 of each row, each exactly `cols` cells. */
export function renderPicker(input: PickerViewInput): string[] {
  const { state, cols } = input;
  const height = pickerHeight(input.rows);
  if (height === 0 || cols <= 0) return [];
  const listRows = height - 2;
  const count = input.status ?? (state.items.length === 0 ? (state.query ? 'no session matches' : 'no sessions yet') : `${state.items.length} session${state.items.length === 1 ? '' : 's'}`);
  // The query line: label, the query (its end kept when long: that is where you type), the count at the right.
  const note = ` ${sanitizeLine(count)} `;
  const labelWidth = displayWidth(LABEL);
  const noteFits = labelWidth + 8 + displayWidth(note) <= cols;
  const queryRoom = Math.max(0, cols - labelWidth - displayWidth(CURSOR) - (noteFits ? displayWidth(note) : 0));
  const query = sanitizeLine(state.query);
  const shownQuery = displayWidth(query) <= queryRoom ? query : '…' + tailToWidth(query, queryRoom - 1);
  const left = truncateToWidth(LABEL, cols, '');
  const used = displayWidth(left) + displayWidth(shownQuery) + displayWidth(CURSOR);
  let headLine = `${HEAD_SGR}${left}${QUERY_SGR}${shownQuery}${CURSOR}`;
  if (used <= cols) {
    const gap = cols - used - (noteFits ? displayWidth(note) : 0);
    headLine += `${PLAIN_SGR}${' '.repeat(Math.max(0, gap))}${noteFits ? `${DIM_SGR}${note}` : ''}`;
  } else {
    headLine = `${HEAD_SGR}${fit(LABEL, cols)}`;
  }
  const rows = [headLine + RESET];
  // Nothing to list and something to say (the index cannot be opened: memory off, say): said in the list
  // rows, whole, where a narrow pane has room for it (the head line's note would be cut away).
  const said = state.items.length === 0 && input.status ? wrapToWidth(sanitizeLine(input.status), cols - 2).slice(0, listRows) : [];
  // The list, scrolled so the selection is visible.
  const first = Math.max(0, Math.min(state.selected - listRows + 1, state.items.length - listRows));
  for (let r = 0; r < listRows; r++) {
    const index = Math.max(0, first) + r;
    const item = state.items[index];
    if (!item) {
      const line = said[r];
      rows.push(line === undefined ? `${PLAIN_SGR}${' '.repeat(cols)}${RESET}` : `${PLAIN_SGR}${fit(` ${line}`, cols)}${RESET}`);
      continue;
    }
    rows.push(`${index === state.selected ? SELECTED_SGR : PLAIN_SGR}${itemLine(item, cols)}${RESET}`);
  }
  rows.push(`${DIM_SGR}${fit(input.keys ?? KEYS_LINE, cols)}${RESET}`);
  return rows;
}

// Words wrapped to lines of at most width cells (a word longer than a line is cut).
function wrapToWidth(text: string, width: number): string[] {
  if (width <= 0) return [];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (displayWidth(next) <= width) line = next;
    else {
      if (line) lines.push(line);
      line = truncateToWidth(word, width);
    }
  }
  if (line) lines.push(line);
  return lines;
}

// The end of text that fits in width cells (the start is dropped).
function tailToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  const chars = Array.from(text);
  let out = '';
  for (let i = chars.length - 1; i >= 0; i--) {
    const next = (chars[i] as string) + out;
    if (displayWidth(next) > width) break;
    out = next;
  }
  return out;
}
