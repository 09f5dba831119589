/** Escape sequences the overlay writes, one named constant each (xterm ctlseqs; DEC STD 070). */

export const ESC = '\x1b';
/** DECSC: save cursor position, SGR, charsets and origin mode. */
export const SAVE_CURSOR = '\x1b7';
/** DECRC: restore what DECSC saved. */
export const RESTORE_CURSOR = '\x1b8';
/** Begin/end synchronized output (?2026): terminals that support it paint the frame at once. */
export const SYNC_BEGIN = '\x1b[?2026h';
export const SYNC_END = '\x1b[?2026l';
/** DECOM off: cursor addressing relative to the whole screen, not the scroll region. */
export const ORIGIN_MODE_OFF = '\x1b[?6l';
/** IRM off/on: replace mode (insert mode would shift the agent's cells right). */
export const INSERT_MODE_OFF = '\x1b[4l';
export const INSERT_MODE_ON = '\x1b[4h';
/** DECAWM off/on: no wrap when writing the last column. */
export const AUTOWRAP_OFF = '\x1b[?7l';
export const AUTOWRAP_ON = '\x1b[?7h';
/** Designate US-ASCII as G0 and shift in (SI) so line-drawing charsets cannot garble our text. */
export const ASCII_CHARSET = '\x1b(B\x0f';
/** SGR 0: all attributes off. */
export const SGR_RESET = '\x1b[0m';
/** EL 0: erase from the cursor to the end of the line (cleared cells, not spaces). */
export const ERASE_TO_EOL = '\x1b[K';

/** CUP: move to a 0-based row and column. */
export function cursorTo(row: number, col: number): string {
  return `\x1b[${row + 1};${col + 1}H`;
}

/** CUF: move right n columns (stops at the right margin). */
export function cursorForward(n: number): string {
  return `\x1b[${n}C`;
}

/** ECH: erase n cells from the cursor on, with the current background; the cursor stays. */
export function eraseChars(n: number): string {
  return `\x1b[${n}X`;
}

/** DECSTBM with no parameters: the scroll region is the whole screen again (the cursor goes home). */
export const SET_WHOLE_SCROLL_REGION = '\x1b[r';

/** DECSTBM: scroll region from a 0-based top row to a 0-based bottom row (the cursor goes home). */
export function setScrollRegion(top: number, bottom: number): string {
  return `\x1b[${top + 1};${bottom + 1}r`;
}

/** DL: delete n lines at the cursor's row; blank lines come in at the bottom of the scroll region. */
export function deleteLines(n: number): string {
  return `\x1b[${n}M`;
}
