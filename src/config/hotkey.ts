/**
 * Hotkey syntax (`ctrl-]`, `ctrl-g`, `f12`, `none`) and the byte sequences a terminal may send for it:
 * the legacy byte, the kitty keyboard protocol form and the xterm modifyOtherKeys form (agents turn the
 * latter two on, and the terminal then encodes keys that way).
 */

export interface Hotkey {
  spec: string;
  /** Every input sequence that means this key. */
  sequences: string[];
}

const CTRL_SYMBOLS: Record<string, number> = { '[': 0x1b, '\\': 0x1c, ']': 0x1d, '^': 0x1e, _: 0x1f, '@': 0x00 };
// xterm/VT220 function-key sequences, F1–F12.
const FUNCTION_KEYS: Record<number, string[]> = {
  1: ['\x1bOP', '\x1b[11~'], 2: ['\x1bOQ', '\x1b[12~'], 3: ['\x1bOR', '\x1b[13~'], 4: ['\x1bOS', '\x1b[14~'],
  5: ['\x1b[15~'], 6: ['\x1b[17~'], 7: ['\x1b[18~'], 8: ['\x1b[19~'], 9: ['\x1b[20~'], 10: ['\x1b[21~'], 11: ['\x1b[23~'], 12: ['\x1b[24~'],
};

/** What a hotkey may be, for messages. */
export const HOTKEY_SYNTAX = 'ctrl-<letter>, ctrl-] (or ctrl-\\ ctrl-^ ctrl-_), f1–f12 or none';

// Ctrl-^, Ctrl-_ and Ctrl-@ are typed with Shift (on a US layout: Shift-6, Shift--, Shift-2). The kitty
// keyboard protocol reports such a key as its unshifted key with Ctrl+Shift (`CSI 54;6u`, and with the
// alternate-keys flag pi turns on `CSI 54:94;6u`), and as the same byte, the unshifted key with Ctrl alone
// (Ctrl-6 sends 0x1e too): all of them are this key, or it would do nothing in such an agent.
const SHIFTED_BASE: Record<string, string> = { '^': '6', _: '-', '@': '2' };
function shiftedForms(code: number, base: number): string[] {
  return [`\x1b[${base};6u`, `\x1b[${base}:${code};6u`, `\x1b[${base};5u`, `\x1b[27;6;${code}~`, `\x1b[27;6;${base}~`, `\x1b[27;5;${base}~`];
}

// Keys a terminal sends as the same byte as a key the agent needs.
const TAKEN: Record<string, string> = { '[': 'Esc', m: 'Enter', j: 'Enter', i: 'Tab', h: 'Backspace', c: 'Ctrl-C', d: 'Ctrl-D', z: 'Ctrl-Z' };

// Parse a hotkey spec; a string error says what was expected (it completes "Expected … to be <error>").
export function parseHotkey(spec: string): Hotkey | null | string {
  const s = spec.trim().toLowerCase();
  if (s === 'none' || s === '') return null;
  const ctrl = /^(?:ctrl|c)[-+](.)$/.exec(s);
  if (ctrl) {
    const key = ctrl[1] as string;
    let byte: number | undefined;
    if (key >= 'a' && key <= 'z') byte = key.charCodeAt(0) - 0x60;
    else byte = CTRL_SYMBOLS[key];
    if (byte === undefined) return HOTKEY_SYNTAX;
    const taken = TAKEN[key];
    if (taken) return `a key the agent does not need (the terminal sends ctrl-${key} as ${taken})`;
    const code = key.charCodeAt(0);
    const sequences = [
      String.fromCharCode(byte),
      `\x1b[${code};5u`, // kitty keyboard protocol: CSI code ; ctrl u
      `\x1b[27;5;${code}~`, // xterm modifyOtherKeys
    ];
    const base = SHIFTED_BASE[key];
    if (base !== undefined) sequences.push(...shiftedForms(code, base.charCodeAt(0)));
    return { spec: s, sequences };
  }
  const fn = /^f([1-9]|1[0-2])$/.exec(s);
  if (fn) return { spec: s, sequences: FUNCTION_KEYS[Number(fn[1])] as string[] };
  return HOTKEY_SYNTAX;
}

/** Where the hotkey occurs in an input chunk (-1 if not), and its length. */
export function findHotkey(hotkey: Hotkey, data: string): { index: number; length: number } {
  for (const seq of hotkey.sequences) {
    const index = data.indexOf(seq);
    if (index >= 0) return { index, length: seq.length };
  }
  return { index: -1, length: 0 };
}
