/**
 * The headless copy of the agent's screen (@xterm/headless) and everything computed from it: the
 * bytes that draw the bar and the bytes that repaint the row under it (terminal.md §3, technique b):
 * framed draws (DECSC/DECRC, origin/insert/autowrap), the agent's own DECSC slot rebuilt after ours,
 * pending-wrap re-entered (tmux 3.3a's DECRC drops it). It knows which rows hold output from before
 * the agent started. Writes nothing: overlay's screen.ts drives it.
 * What the public API lacks (scroll region, saved cursor, current SGR) comes from util/private-internals/xterm.ts.
 */
import type { IMarker, Terminal as HeadlessTerminal } from '@xterm/headless';
import {
  ASCII_CHARSET, AUTOWRAP_OFF, AUTOWRAP_ON, ERASE_TO_EOL, INSERT_MODE_OFF, INSERT_MODE_ON, ORIGIN_MODE_OFF,
  RESTORE_CURSOR, SAVE_CURSOR, SET_WHOLE_SCROLL_REGION, SGR_RESET, SYNC_BEGIN, SYNC_END, cursorForward, cursorTo, deleteLines, eraseChars,
  setScrollRegion,
} from './ansi.js';
import { barTopRow, renderOverlayRows, type BarPosition } from './overlay.js';
import {
  loadXtermTerminal, readXtermCurrentAttributes, readXtermSavedCursor, readXtermScrollRegion, readXtermScrollTop, type CellAttributes,
} from '../util/private-internals/xterm.js';

/**
 * Past this much unparsed output the copy gives up (a flood: `cat` of a big file) rather than burn a
 * core catching up: it is "lost" and only scans for a point where the screen is redrawn from scratch.
 */
export const MAX_PENDING_BYTES = 1024 * 1024;
/**
 * Lines the copy keeps above its screen. A terminal that grows pulls rows back from its own history and
 * reflows wrapped lines at a new width; the copy must be able to do the same, or its rows no longer match
 * the terminal's and a repaint after a resize writes the wrong rows (#28 point 3: a 20×5 pane grown to
 * 60×12 lost the agent's last lines). ~1 MB at 200 columns when full.
 */
export const MIRROR_SCROLLBACK_LINES = 500;
/** Sequences after which the whole screen is known again (once the cursor is placed absolutely). */
const RESYNC_SEQUENCES = ['\x1b[2J', '\x1b[3J', '\x1b[?1049h', '\x1b[?1047h', '\x1b[?47h', '\x1bc'].map((s) => Buffer.from(s, 'latin1'));

export type FrameResult =
  | { draw: string; restore: string }
  /** pending: output not parsed yet; sync: the agent is mid-frame (?2026h). */
  | { skip: 'pending' | 'sync' }
  /** The rows hold older output (or the copy is lost); `knownRows` of them at the bar's edge could be drawn over. */
  | { skip: 'unknown'; knownRows?: number };

/** The bytes that repaint every known row of the screen from the copy (after a resize), if possible now. */
export type RepaintResult = { repaint: string } | { skip: 'pending' | 'sync' | 'unknown' };

export interface MirrorInit {
  cols: number;
  rows: number;
  /** Where the cursor was when the agent started (rows above hold older output we cannot repaint). */
  cursorAtStart?: { row: number; col: number };
}

// SGR that reproduces a cell's attributes (after a reset).
export function sgrOf(c: CellAttributes): string {
  const p = ['0'];
  if (c.isBold()) p.push('1');
  if (c.isDim()) p.push('2');
  if (c.isItalic()) p.push('3');
  if (c.isUnderline()) p.push('4');
  if (c.isBlink()) p.push('5');
  if (c.isInverse()) p.push('7');
  if (c.isInvisible()) p.push('8');
  if (c.isStrikethrough()) p.push('9');
  if (c.isOverline?.()) p.push('53');
  const color = (rgb: boolean, palette: boolean, v: number, base: number) => {
    if (rgb) p.push(`${base + 8};2;${(v >> 16) & 255};${(v >> 8) & 255};${v & 255}`);
    else if (palette) p.push(v < 8 ? String(base + v) : v < 16 ? String(base + 60 + v - 8) : `${base + 8};5;${v}`);
  };
  color(Boolean(c.isFgRGB()), Boolean(c.isFgPalette()), c.getFgColor(), 30);
  color(Boolean(c.isBgRGB()), Boolean(c.isBgPalette()), c.getBgColor(), 40);
  return `\x1b[${p.join(';')}m`;
}

export class ScreenMirror {
  private term: HeadlessTerminal;
  private cols: number;
  private rows: number;
  private pendingBytes = 0;
  private pendingWrites = 0;
  private readonly whenParsed: Array<() => void> = [];
  /**
   * Where the agent's output begins in the normal buffer (the lines above hold what was there before
   * it started): a marker xterm keeps on its line through scrolling and reflow; `below` is 1 when it
   * marks the last row of an unknown screen (the output begins under it).
   */
  private start: { marker: IMarker; below: number } | undefined;
  /** Every row is known (a full clear, a reset, the start scrolled out of the copy). */
  private allKnown = false;
  private childSavedCursor = false;
  /** Set when the copy fell behind and was rebuilt (the owner drops a pending bar). */
  rebuilt = false;
  /** After a flood: nothing is known until a full redraw (RESYNC_SEQUENCES) and an absolute cursor move. */
  private lost = false;
  private resyncing = false;

  constructor(init: MirrorInit) {
    this.cols = init.cols;
    this.rows = init.rows;
    this.term = this.createTerminal();
    // The cursor is at the top left until the write below is parsed: the marker is placed relative to it.
    const startRow = init.cursorAtStart ? Math.min(init.cursorAtStart.row, this.rows - 1) : this.rows - 1;
    const marker = this.term.registerMarker(startRow);
    if (marker) this.start = { marker, below: init.cursorAtStart ? 0 : 1 };
    if (init.cursorAtStart) this.term.write(cursorTo(init.cursorAtStart.row, init.cursorAtStart.col));
  }

  /** Rows above this one (normal screen) hold output from before the agent started. */
  private get knownFromRow(): number {
    if (this.lost) return this.rows;
    if (this.allKnown) return 0;
    const start = this.start;
    if (!start) return this.rows;
    if (start.marker.isDisposed || start.marker.line < 0) {
      this.markAllKnown(); // the older output has scrolled out of the copy altogether
      return 0;
    }
    return Math.max(0, Math.min(this.rows, start.marker.line + start.below - this.term.buffer.normal.baseY));
  }

  private markAllKnown(): void {
    this.allKnown = true;
    this.start?.marker.dispose();
    this.start = undefined;
  }

  private createTerminal(): HeadlessTerminal {
    // reflowCursorLine: the line the cursor is on reflows too, as tmux and most terminals reflow it (xterm.js
    // leaves it as it was by default: the copy then held other rows than the terminal after a resize).
    const term = new (loadXtermTerminal())({ cols: this.cols, rows: this.rows, scrollback: MIRROR_SCROLLBACK_LINES, allowProposedApi: true, reflowCursorLine: true });
    // The agent saved its cursor (DECSC / SCOSC): our own DECSC shares that slot, so rebuild it after drawing.
    term.parser.registerEscHandler({ final: '7' }, () => ((this.childSavedCursor = true), false));
    term.parser.registerCsiHandler({ final: 's' }, (params) => {
      if (params.length === 0 || params[0] === 0) this.childSavedCursor = true;
      return false;
    });
    // A full clear makes every row known.
    term.parser.registerCsiHandler({ final: 'J' }, (params) => {
      if (params[0] === 2 || params[0] === 3) this.markAllKnown();
      return false;
    });
    term.parser.registerEscHandler({ final: 'c' }, () => (this.markAllKnown(), false));
    // After a flood, the first absolute cursor move following a full redraw puts the copy back in step.
    const anchor = () => {
      if (this.resyncing) {
        this.resyncing = false;
        this.lost = false;
        this.markAllKnown();
      }
      return false;
    };
    term.parser.registerCsiHandler({ final: 'H' }, anchor);
    term.parser.registerCsiHandler({ final: 'f' }, anchor);
    return term;
  }

  /** Output is being skipped (a flood): forget the screen until a full redraw, as after falling behind. */
  lose(): void {
    this.term.dispose();
    this.term = this.createTerminal();
    this.pendingBytes = 0;
    this.pendingWrites = 0;
    this.start = undefined; // went with the old copy
    this.allKnown = false;
    this.lost = true;
    this.resyncing = false;
    for (const fn of this.whenParsed.splice(0)) fn();
  }

  /** Mirror agent output (UTF-8 bytes, or text). */
  feed(input: Uint8Array | string): void {
    let chunk = typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input.buffer, input.byteOffset, input.length);
    if (chunk.length === 0) return;
    if (this.pendingBytes > MAX_PENDING_BYTES) {
      // The copy cannot keep up: drop it, and only scan for a full redraw from now on.
      this.lose();
      this.rebuilt = true;
    }
    if (this.lost && !this.resyncing) {
      // Cheap scan while lost: feed the copy again from the last full redraw in this chunk, if any.
      let at = -1;
      for (const seq of RESYNC_SEQUENCES) at = Math.max(at, chunk.lastIndexOf(seq));
      if (at < 0) return;
      chunk = chunk.slice(at);
      this.resyncing = true;
    }
    this.pendingBytes += chunk.length;
    this.pendingWrites++;
    const term = this.term;
    term.write(chunk, () => {
      if (term !== this.term) return;
      this.pendingBytes -= chunk.length;
      this.pendingWrites--;
      if (this.pendingWrites === 0) for (const fn of this.whenParsed.splice(0)) fn();
    });
  }

  /** Run fn once everything fed so far is parsed. */
  whenCaughtUp(fn: () => void): void {
    if (this.pendingWrites === 0) fn();
    else this.whenParsed.push(fn);
  }

  resize(cols: number, rows: number): void {
    this.cols = cols;
    this.rows = rows;
    // xterm reflows and pulls rows back from scrollback as the terminal does; the start marker moves along.
    this.term.resize(cols, rows);
  }

  /**
   * The bytes that draw the bar's rows now (one string of text per row, from layoutBar) and the bytes
   * that take them off again, if it can be drawn now.
   */
  frame(lines: readonly string[], position: BarPosition): FrameResult {
    if (this.pendingWrites > 0) return { skip: 'pending' };
    if (this.lost) return { skip: 'unknown' };
    if (this.term.modes.synchronizedOutputMode) return { skip: 'sync' };
    const count = Math.max(1, Math.min(lines.length, this.rows));
    const top = barTopRow(position, this.rows, count);
    if (this.term.buffer.active.type === 'normal' && top < this.knownFromRow) {
      const knownRows = position === 'top' ? 0 : Math.max(0, this.rows - this.knownFromRow);
      return { skip: 'unknown', knownRows };
    }
    const bars = renderOverlayRows(lines.length > 0 ? lines.slice(0, count) : [''], this.cols);
    let draw = '';
    let restore = '';
    bars.forEach((bar, i) => {
      // No erase after a full row: with autowrap off the cursor sits on the last cell, which EL would erase.
      draw += cursorTo(top + i, 0) + bar.bytes + (bar.width < this.cols ? ERASE_TO_EOL : '');
    });
    for (let i = 0; i < count; i++) restore += this.writeRow(top + i);
    restore += this.wrapMark(top + count);
    return { draw: this.framed(draw), restore: this.framed(restore) };
  }

  /**
   * The bytes that draw ready-made rows (the picker's: each exactly `cols` cells, ending with SGR 0) over
   * the bottom of the screen, and the bytes that take them off again, if they can be drawn now.
   */
  cover(rows: readonly string[], widths?: readonly number[]): FrameResult {
    if (this.pendingWrites > 0) return { skip: 'pending' };
    if (this.lost) return { skip: 'unknown' };
    if (this.term.modes.synchronizedOutputMode) return { skip: 'sync' };
    const count = Math.max(1, Math.min(rows.length, this.rows));
    const top = this.rows - count;
    if (this.term.buffer.active.type === 'normal' && top < this.knownFromRow) {
      return { skip: 'unknown', knownRows: Math.max(0, this.rows - this.knownFromRow) };
    }
    let draw = '';
    let rowsBack = '';
    for (let i = 0; i < count; i++) {
      draw += cursorTo(top + i, 0) + (rows[i] ?? '');
      rowsBack += this.writeRow(top + i) + this.lineTail(top + i, widths?.[i]);
    }
    return { draw: this.framed(draw), restore: this.framed(this.freshLines(top, count) + rowsBack) };
  }

  // The bottom rows from `top` down deleted (DL), so blank lines come in: the rows are then rewritten on
  // lines as fresh as the agent's were. Full-width picker rows would otherwise leave tmux's lines longer
  // than the agent wrote them (the same on screen, but not in capture-pane -e). DL works inside the
  // scroll region only: the region is widened to the whole screen for it, then put back.
  private freshLines(top: number, count: number): string {
    const region = readXtermScrollRegion(this.term);
    if (!region) return '';
    const whole = region.top === 0 && region.bottom === this.rows - 1;
    return SGR_RESET + (whole ? '' : SET_WHOLE_SCROLL_REGION) + cursorTo(top, 0) + deleteLines(count) + (whole ? '' : setScrollRegion(region.top, region.bottom));
  }

  /** Every row the copy knows, repainted as it has them (the screen after a resize left bar text behind). */
  repaint(): RepaintResult {
    if (this.pendingWrites > 0) return { skip: 'pending' };
    if (this.lost) return { skip: 'unknown' };
    if (this.term.modes.synchronizedOutputMode) return { skip: 'sync' };
    const from = this.term.buffer.active.type === 'normal' ? this.knownFromRow : 0;
    if (from >= this.rows) return { skip: 'unknown' };
    let body = '';
    for (let row = from; row < this.rows; row++) body += this.writeRow(row, row > from);
    return { repaint: this.framed(body, true) };
  }

  dispose(): void {
    this.term.dispose();
  }

  // Frame our bytes so the agent's cursor, attributes, charsets and modes are as before afterwards.
  // placeCursor: put the cursor where the copy has it, not where the terminal had it (after a resize
  // the terminal's reflow may have moved it elsewhere than the copy's did).
  private framed(body: string, placeCursor = false): string {
    const m = this.term.modes;
    let s = SYNC_BEGIN + SAVE_CURSOR;
    if (m.originMode) s += ORIGIN_MODE_OFF;
    if (m.insertMode) s += INSERT_MODE_OFF;
    s += AUTOWRAP_OFF + ASCII_CHARSET + body + SGR_RESET + RESTORE_CURSOR;
    if (m.wraparoundMode) s += AUTOWRAP_ON;
    const buffer = this.term.buffer.active;
    if (placeCursor) {
      // DECRC brought origin mode back: CUP then counts from the scroll region's top.
      const top = m.originMode ? (readXtermScrollTop(this.term) ?? 0) : 0;
      s += cursorTo(Math.max(0, buffer.cursorY - top), Math.min(buffer.cursorX, this.cols - 1));
    }
    const fixSlot = this.childSavedCursor;
    const pendingWrap = m.wraparoundMode && buffer.cursorX >= this.cols;
    if (fixSlot) s += this.rebuildSavedSlot();
    if (pendingWrap) s += this.reenterPendingWrap();
    if (fixSlot || pendingWrap) {
      const cur = readXtermCurrentAttributes(this.term);
      if (cur) s += sgrOf(cur);
    }
    if (m.insertMode) s += INSERT_MODE_ON;
    return s + SYNC_END;
  }

  // Our DECSC overwrote the agent's saved cursor: put its position and attributes back in the slot.
  private rebuildSavedSlot(): string {
    const saved = readXtermSavedCursor(this.term);
    if (!saved) return '';
    const buffer = this.term.buffer.active;
    const cx = Math.min(buffer.cursorX, this.cols - 1);
    return cursorTo(saved.y, saved.x) + sgrOf(saved.attributes) + SAVE_CURSOR + cursorTo(buffer.cursorY, cx);
  }

  // The cursor sat past the last column (pending wrap): rewrite the last cell so the terminal is there too.
  private reenterPendingWrap(): string {
    const buffer = this.term.buffer.active;
    const line = buffer.getLine(buffer.viewportY + buffer.cursorY);
    const cell = buffer.getNullCell();
    if (!line) return '';
    let x = this.cols - 1;
    line.getCell(x, cell);
    if (cell.getWidth() === 0 && x > 0) {
      x--;
      line.getCell(x, cell);
    }
    return cursorTo(buffer.cursorY, x) + sgrOf(cell) + (cell.getChars() || ' ');
  }

  /**
   * One row written back from the copy, with the soft-wrap mark between it and the row above as the copy
   * has it (`aboveKnown`: that row is the agent's; default: the copy knows it). A terminal marks a line as
   * wrapped only when the cursor wraps off its end (tmux's `capture-pane -J` joins such lines), and a resize
   * with the bar up, or an erase of a whole line, can leave the mark wrong: so a row that continues the
   * one above is entered by writing that row's last cell again with autowrap on, and the row's first cell
   * wraps onto it; any other row gets a line feed from the row above, which clears the mark.
   */
  private writeRow(row: number, aboveKnown = row > 0 && row - 1 >= this.knownFromRow): string {
    const lead = aboveKnown ? this.wrapMark(row) : '';
    if (lead.endsWith(AUTOWRAP_OFF)) return lead + this.serializeRow(row, this.leadWidth(row));
    return lead + cursorTo(row, 0) + this.serializeRow(row);
  }

  // The mark between `row` - 1 and `row`: '' when it cannot be set here (no such row, the row above is the
  // scroll region's bottom, where a wrap or a line feed would scroll). For a continuation, the bytes end
  // with the row's first cell written (the cursor after it) and autowrap off again.
  private wrapMark(row: number): string {
    if (row <= 0 || row >= this.rows) return '';
    const region = readXtermScrollRegion(this.term);
    if (!region || row - 1 === region.bottom) return '';
    const buffer = this.term.buffer.active;
    const line = buffer.getLine(buffer.viewportY + row);
    const above = buffer.getLine(buffer.viewportY + row - 1);
    if (!line || !above) return '';
    if (!line.isWrapped) return cursorTo(row - 1, 0) + '\n';
    const cell = buffer.getNullCell();
    let x = this.cols - 1;
    above.getCell(x, cell);
    if (cell.getWidth() === 0 && cell.getChars() === '' && x > 0) {
      x--; // the right half of a wide character: the character is written from its left half
      above.getCell(x, cell);
    }
    let s = cursorTo(row - 1, x) + AUTOWRAP_ON + sgrOf(cell) + (cell.getChars() || ' ');
    line.getCell(0, cell);
    s += sgrOf(cell) + (cell.getChars() || ' ');
    return s + AUTOWRAP_OFF;
  }

  // Cells the first character of a row takes (written by wrapMark).
  private leadWidth(row: number): number {
    const buffer = this.term.buffer.active;
    const cell = buffer.getNullCell();
    buffer.getLine(buffer.viewportY + row)?.getCell(0, cell);
    return Math.max(1, cell.getWidth());
  }

  // The agent's line in tmux held `width` cells (see readRowWidths in tmux.ts); the fresh line holds only
  // the cells written back. A blank written as its last cell, with the attributes the copy has for it
  // (an erased cell and a space look the same), makes it run on as the agent's did.
  private lineTail(row: number, width: number | undefined): string {
    if (!width) return '';
    const x = Math.min(width, this.cols) - 1;
    const buffer = this.term.buffer.active;
    const line = buffer.getLine(buffer.viewportY + row);
    if (!line) return '';
    const cell = buffer.getNullCell();
    line.getCell(x, cell);
    if (cell.getChars() !== '' || cell.getWidth() === 0) return ''; // written back already
    // tmux skips a write that leaves a cell as it is (a blank over a blank), so the cell is first made
    // different, inside the same synchronized frame, then blanked.
    return cursorTo(row, x) + SGR_RESET + '.' + cursorTo(row, x) + sgrOf(cell) + ' ';
  }

  // Cells up to the last one that is written or has attributes (the rest of the row is blank).
  private rowEnd(row: number): number {
    const buffer = this.term.buffer.active;
    const line = buffer.getLine(buffer.viewportY + row);
    if (!line) return 0;
    const cell = buffer.getNullCell();
    let end = this.cols;
    while (end > 0) {
      line.getCell(end - 1, cell);
      if (cell.getChars() !== '' || !cell.isAttributeDefault()) break;
      end--;
    }
    return end;
  }

  // The row as the copy has it: written cells with their attributes; erased (never written) cells
  // erased again with their background (ECH), not written as spaces; then a clear to the end.
  // `start`: the cells before it are written already (the cursor is there).
  private serializeRow(row: number, start = 0): string {
    const buffer = this.term.buffer.active;
    const line = buffer.getLine(buffer.viewportY + row);
    if (!line) return SGR_RESET + ERASE_TO_EOL;
    const cell = buffer.getNullCell();
    const end = this.rowEnd(row);
    let s = '';
    let prev = '';
    for (let x = start; x < end; x++) {
      line.getCell(x, cell);
      const chars = cell.getChars();
      if (cell.getWidth() === 0 && chars === '') continue; // right half of a wide character
      const sgr = sgrOf(cell);
      if (sgr !== prev) {
        s += sgr;
        prev = sgr;
      }
      if (chars !== '') {
        // A zero-width character alone in its cell (qwen's U+200B after an SGR): written, it would not
        // move the cursor, so the next cell is addressed explicitly.
        s += cell.getWidth() === 0 ? chars + cursorTo(row, x + 1) : chars;
        continue;
      }
      let n = 1;
      while (x + n < end && line.getCell(x + n, cell) && cell.getChars() === '' && cell.getWidth() === 1 && sgrOf(cell) === sgr) n++;
      s += eraseChars(n) + (x + n < this.cols ? cursorForward(n) : '');
      x += n - 1;
    }
    return s + (Math.max(end, start) < this.cols ? SGR_RESET + ERASE_TO_EOL : '');
  }
}
