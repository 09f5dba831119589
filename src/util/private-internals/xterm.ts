/**
 * @xterm/headless's private `_core`, the half of private-internals the screen copy needs (loaded with
 * it, after the agent started; never node-pty's): the scroll region, the saved cursor and the current
 * attributes, which the public API does not expose. Each function says what it falls back to when
 * `_core` is missing or changed; index.ts's self-check reports which work.
 */
import type { IBufferCell, Terminal as HeadlessTerminal } from '@xterm/headless';
import { createRequire } from 'node:module';

/** Cell attribute accessors shared by IBufferCell and xterm's internal AttributeData. */
export type CellAttributes = Pick<IBufferCell, 'isBold' | 'isDim' | 'isItalic' | 'isUnderline' | 'isBlink' | 'isInverse' | 'isInvisible' | 'isStrikethrough' | 'isFgRGB' | 'isFgPalette' | 'getFgColor' | 'isBgRGB' | 'isBgPalette' | 'getBgColor'> & { isOverline?: () => number };

interface XtermCore {
  _core?: {
    buffers?: { active?: { savedX?: unknown; savedY?: unknown; savedCurAttrData?: unknown; scrollTop?: unknown; scrollBottom?: unknown } };
    _inputHandler?: { _curAttrData?: unknown };
  };
}

let Terminal: typeof HeadlessTerminal | undefined;
// @xterm/headless is CommonJS without named ESM exports; its typings declare named ones. Loaded on
// first use (the screen copy, once the agent runs): loading xterm cost ~16 ms of the main thread
// before the agent started, and its memory for nothing.
export function loadXtermTerminal(): typeof HeadlessTerminal {
  return (Terminal ??= (createRequire(import.meta.url)('@xterm/headless') as { Terminal: typeof HeadlessTerminal }).Terminal);
}

const coreOf = (term: HeadlessTerminal) => (term as unknown as XtermCore)._core;
const isAttributes = (value: unknown): value is CellAttributes =>
  typeof value === 'object' && value !== null && typeof (value as CellAttributes).isBold === 'function' && typeof (value as CellAttributes).getFgColor === 'function';

/**
 * The active buffer's scroll region top (DECSTBM), which the public API does not expose.
 * Fallback: undefined; callers count from row 0, which places the cursor wrong only while the agent
 * has origin mode on with a scroll region that does not start at the top.
 */
export function readXtermScrollTop(term: HeadlessTerminal): number | undefined {
  const top = coreOf(term)?.buffers?.active?.scrollTop;
  return typeof top === 'number' ? top : undefined;
}

/**
 * The active buffer's scroll region (DECSTBM), 0-based rows. Fallback: undefined; the picker then
 * restores its rows in place instead of as fresh lines (the same on screen; tmux's capture-pane -e may
 * then show reset codes after the last cell of a row).
 */
export function readXtermScrollRegion(term: HeadlessTerminal): { top: number; bottom: number } | undefined {
  const active = coreOf(term)?.buffers?.active;
  if (!active || typeof active.scrollTop !== 'number' || typeof active.scrollBottom !== 'number') return undefined;
  return { top: active.scrollTop, bottom: active.scrollBottom };
}

/** The cursor slot DECSC / SCOSC saved: position (0-based, screen rows) and attributes. */
export interface SavedCursor {
  x: number;
  y: number;
  attributes: CellAttributes;
}

/**
 * The saved-cursor slot of the active buffer. Fallback: undefined; the slot is not rebuilt after our
 * own DECSC/DECRC, so an agent's later DECRC returns to where the cursor was when the bar was drawn
 * (usually where the agent left it) with the attributes in force then.
 */
export function readXtermSavedCursor(term: HeadlessTerminal): SavedCursor | undefined {
  const active = coreOf(term)?.buffers?.active;
  if (!active || typeof active.savedX !== 'number' || typeof active.savedY !== 'number' || !isAttributes(active.savedCurAttrData)) return undefined;
  return { x: active.savedX, y: active.savedY, attributes: active.savedCurAttrData };
}

/**
 * The attributes the agent's next text will be written with (the parser's current SGR state).
 * Fallback: undefined; callers then leave the terminal's SGR as their own drawing left it, so the
 * agent's next unstyled text may take the last rebuilt cell's attributes until its next SGR.
 */
export function readXtermCurrentAttributes(term: HeadlessTerminal): CellAttributes | undefined {
  const current = coreOf(term)?._inputHandler?._curAttrData;
  return isAttributes(current) ? current : undefined;
}
