/**
 * Pure: the reference picker's keys and state. Splits what the user typed while the picker is open into
 * keys (legacy bytes, CSI/SS3 cursor keys, the kitty keyboard protocol and xterm modifyOtherKeys forms,
 * bracketed paste) and applies them to the query and the selection. Searching, drawing and pasting are
 * the caller's (app/picker); this file only says what should happen next.
 */
import { sanitizeLine } from '../util/sanitize.js';
import { graphemes } from '../util/text-width.js';

/** One session as the picker lists it (plain strings; the caller maps its index rows to these). */
export interface PickerItem {
  id: string;
  name: string;
  agent: string;
  folder: string;
  /** How long ago, already short ("3d"). */
  age: string;
  headline: string;
}

export interface PickerState {
  query: string;
  items: PickerItem[];
  selected: number;
}

export type PickerKey =
  | { type: 'text'; text: string }
  | { type: 'backspace' }
  | { type: 'clear' }
  | { type: 'up' }
  | { type: 'down' }
  | { type: 'page-up' }
  | { type: 'page-down' }
  | { type: 'enter' }
  | { type: 'escape' };

export type PickerAction = { type: 'none' } | { type: 'search'; query: string } | { type: 'pick'; item: PickerItem } | { type: 'cancel' };

/** Rows a page key moves the selection by. */
export const PICKER_PAGE = 5;
/** The query is cut here: a paste into the picker cannot grow it without bound. */
export const MAX_QUERY_CHARS = 200;

const PASTE_BEGIN = '\x1b[200~';
const PASTE_END = '\x1b[201~';
// CSI parameters/intermediates then a final byte; SS3 then one byte.
const CSI = /^\x1b\[([0-?]*)([ -/]*)([@-~])/;
const SS3 = /^\x1bO(.)/;
const INVISIBLE_IN_QUERY = /[\x80-\x9f]|\p{Cf}/u;

export function createPickerState(items: PickerItem[] = []): PickerState {
  return { query: '', items, selected: 0 };
}

/** New search results: the selection stays on the same session when it is still listed, else the first. */
export function withItems(state: PickerState, items: PickerItem[]): PickerState {
  const current = state.items[state.selected]?.id;
  const at = current === undefined ? -1 : items.findIndex((i) => i.id === current);
  return { ...state, items, selected: at >= 0 ? at : 0 };
}

// A key from a CSI `u` (kitty) or `27;mods;code~` (modifyOtherKeys) form: its code point and modifiers.
function keyFromCode(code: number, mods: number): PickerKey | undefined {
  const ctrl = mods > 1 && ((mods - 1) & 4) !== 0;
  if (code === 13) return { type: 'enter' };
  if (code === 27) return { type: 'escape' };
  if (code === 127 || code === 8) return { type: 'backspace' };
  if (ctrl) {
    if (code === 99 || code === 100 || code === 103) return { type: 'escape' }; // ctrl-c, ctrl-d, ctrl-g
    if (code === 117) return { type: 'clear' }; // ctrl-u
    if (code === 112) return { type: 'up' }; // ctrl-p
    if (code === 110) return { type: 'down' }; // ctrl-n
    return undefined;
  }
  if (code >= 0x20 && code <= 0x10ffff && mods <= 2) return { type: 'text', text: String.fromCodePoint(code) };
  return undefined;
}

function keyFromCsi(params: string, final: string): PickerKey | undefined {
  const nums = params.split(';').map((p) => Number(p.split(':')[0] || '1'));
  switch (final) {
    case 'A':
      return { type: 'up' };
    case 'B':
      return { type: 'down' };
    case 'u':
      return keyFromCode(nums[0] ?? 0, nums[1] ?? 1);
    case '~':
      if (nums[0] === 5) return { type: 'page-up' };
      if (nums[0] === 6) return { type: 'page-down' };
      if (nums[0] === 27 && nums.length >= 3) return keyFromCode(nums[2] ?? 0, nums[1] ?? 1);
      return undefined;
    default:
      return undefined;
  }
}

function keyFromControl(ch: string): PickerKey | undefined {
  switch (ch) {
    case '\r':
    case '\n':
      return { type: 'enter' };
    case '\x7f':
    case '\b':
      return { type: 'backspace' };
    case '\x03': // ctrl-c
    case '\x04': // ctrl-d
    case '\x07': // ctrl-g
      return { type: 'escape' };
    case '\x15': // ctrl-u
      return { type: 'clear' };
    case '\x10': // ctrl-p
      return { type: 'up' };
    case '\x0e': // ctrl-n
      return { type: 'down' };
    default:
      return undefined;
  }
}

/**
 * The keys in a piece of input (decoded text). A lone ESC at the end is the Esc key (the wrapper has
 * already waited for the rest of a sequence); ESC then a character is Alt+key and is ignored, as are
 * keys the picker has no use for.
 */
export function parsePickerKeys(data: string): PickerKey[] {
  const keys: PickerKey[] = [];
  let text = '';
  const flushText = () => {
    if (text) keys.push({ type: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < data.length) {
    const rest = data.slice(i);
    if (rest.startsWith(PASTE_BEGIN)) {
      const end = rest.indexOf(PASTE_END);
      const body = end === -1 ? rest.slice(PASTE_BEGIN.length) : rest.slice(PASTE_BEGIN.length, end);
      text += sanitizeLine(body);
      i += end === -1 ? rest.length : end + PASTE_END.length;
      continue;
    }
    const ch = rest[0] as string;
    if (ch === '\x1b') {
      flushText();
      const csi = CSI.exec(rest);
      if (csi) {
        const key = csi[2] === '' ? keyFromCsi(csi[1] as string, csi[3] as string) : undefined;
        if (key) keys.push(key);
        i += csi[0].length;
        continue;
      }
      const ss3 = SS3.exec(rest);
      if (ss3) {
        if (ss3[1] === 'A') keys.push({ type: 'up' });
        else if (ss3[1] === 'B') keys.push({ type: 'down' });
        i += ss3[0].length;
        continue;
      }
      if (rest.length === 1) keys.push({ type: 'escape' });
      i += Math.min(rest.length, 2); // ESC + one character: Alt+key, not for us
      continue;
    }
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) {
      flushText();
      const key = keyFromControl(ch);
      if (key) keys.push(key);
      i += 1;
      continue;
    }
    // C1 controls and format characters (bidi overrides…) never enter the query.
    if (!INVISIBLE_IN_QUERY.test(ch)) text += ch;
    i += 1;
  }
  flushText();
  return keys;
}

function dropLastGrapheme(text: string): string {
  const parts = graphemes(text);
  parts.pop();
  return parts.map((p) => p.text).join('');
}

function move(state: PickerState, by: number): PickerState {
  if (state.items.length === 0) return state;
  const selected = Math.max(0, Math.min(state.items.length - 1, state.selected + by));
  return { ...state, selected };
}

/** One key applied: the next state and what the caller should do (search again, paste, close). */
export function applyPickerKey(state: PickerState, key: PickerKey): { state: PickerState; action: PickerAction } {
  const none: PickerAction = { type: 'none' };
  switch (key.type) {
    case 'text': {
      const query = (state.query + key.text).slice(0, MAX_QUERY_CHARS);
      if (query === state.query) return { state, action: none };
      return { state: { ...state, query }, action: { type: 'search', query } };
    }
    case 'backspace': {
      if (state.query === '') return { state, action: none };
      const query = dropLastGrapheme(state.query);
      return { state: { ...state, query }, action: { type: 'search', query } };
    }
    case 'clear':
      if (state.query === '') return { state, action: none };
      return { state: { ...state, query: '' }, action: { type: 'search', query: '' } };
    case 'up':
      return { state: move(state, -1), action: none };
    case 'down':
      return { state: move(state, 1), action: none };
    case 'page-up':
      return { state: move(state, -PICKER_PAGE), action: none };
    case 'page-down':
      return { state: move(state, PICKER_PAGE), action: none };
    case 'enter': {
      const item = state.items[state.selected];
      return { state, action: item ? { type: 'pick', item } : none };
    }
    case 'escape':
      return { state, action: { type: 'cancel' } };
    default:
      return key satisfies never;
  }
}
