/**
 * The overlay bar over the agent's screen (outside tmux): the only code that writes overlay bytes.
 * The bar takes one row, or up to `barRows` when the recap needs them (composed for the width here, in
 * this thread: the composer is a function). A copy of the agent's screen (screen-mirror.ts) tells what
 * lies under the bar, so removing it repaints every covered row exactly; after a resize with the bar up,
 * the whole screen is repainted from the copy once the resize settles, then the bar is composed anew.
 * The copy runs in this thread (a worker thread cost ~9 MB: see app/wrap/overlay-setup.ts), and the
 * agent's output is forwarded before the copy sees it. The bar is taken off before any agent output,
 * redrawn at most every 40 ms while the agent paints, never drawn while the copy lags, mid-frame
 * (?2026h), inside an escape sequence or UTF-8 character the agent has not finished writing, or over
 * rows with older output.
 */
import type { DebugLog } from '../util/debug-log.js';
import type { BarPosition, ComposeText } from './overlay.js';
import type { RecapView } from './recap-view.js';
import type { FrameResult, MirrorInit, RepaintResult, ScreenMirror } from './screen-mirror.js';
import { unfinishedTailStart } from './stream-boundary.js';

/** Redraw the bar at most this often while the agent keeps painting (a throttle: spinners never stop). */
export const REDRAW_THROTTLE_MS = 40;
/** While the agent is mid-frame (?2026h), look again after this long. */
const SYNC_RETRY_MS = 20;
/**
 * After a resize, repaint once no resize came for this long: terminals send a burst of them while a
 * window is dragged, and the agent repaints itself on each (SIGWINCH).
 */
export const RESIZE_SETTLE_MS = 150;
/** A bar taken off less than this long before a resize may have been restored after the terminal resized. */
const RESIZE_RACE_MS = 1000;
/** Rows the bar may take by default (the options table's `barRows`). */
export const DEFAULT_BAR_ROWS = 2;
/**
 * More output than this within FLOOD_WINDOW_MS is a flood (`cat` of a big file; agents paint far less):
 * the copy is not fed until it ends, and catches up at the next full redraw. Keeps a core free.
 */
export const FLOOD_BYTES = 512 * 1024;
export const FLOOD_WINDOW_MS = 100;
/** An unfinished sequence longer than this (a runaway OSC string) is let go: memory stays bounded. */
const MAX_UNFINISHED_BYTES = 64 * 1024;

/** The screen copy. */
interface MirrorHost {
  feed(chunk: Uint8Array): void;
  lose(): void;
  resize(cols: number, rows: number): void;
  /** Resolve once every chunk fed before the call is parsed. */
  frame(lines: string[], position: BarPosition): Promise<FrameResult>;
  cover(rows: string[], widths?: number[]): Promise<FrameResult>;
  repaint(): Promise<RepaintResult>;
  dispose(): void;
}

// The copy, in this thread. Its module (xterm's screen model, the bar's
// text widths: ~35 ms to load) is loaded once the screen exists, after the agent was spawned, so it
// never delays the agent's start; calls made while it loads wait their turn.
function inlineHost(init: MirrorInit): MirrorHost {
  let mirror: ScreenMirror | undefined;
  let failed = false;
  const waiting: Array<(mirror: ScreenMirror) => void> = [];
  const ready = import('./screen-mirror.js').then(
    ({ ScreenMirror }) => {
      mirror = new ScreenMirror(init);
      for (const call of waiting.splice(0)) call(mirror);
      return mirror;
    },
    () => {
      failed = true;
      waiting.length = 0;
      return undefined;
    },
  );
  const run = (call: (mirror: ScreenMirror) => void): void => {
    if (mirror) call(mirror);
    else if (!failed) waiting.push(call);
  };
  return {
    feed: (chunk) => run((m) => m.feed(chunk)),
    lose: () => run((m) => m.lose()),
    resize: (cols, rows) => run((m) => m.resize(cols, rows)),
    frame: (lines, position) =>
      ready.then((m) => (m ? new Promise<FrameResult>((resolve) => m.whenCaughtUp(() => resolve(m.frame(lines, position)))) : { skip: 'unknown' as const })),
    cover: (rows, widths) =>
      ready.then((m) => (m ? new Promise<FrameResult>((resolve) => m.whenCaughtUp(() => resolve(m.cover(rows, widths)))) : { skip: 'unknown' as const })),
    repaint: () => ready.then((m) => (m ? new Promise<RepaintResult>((resolve) => m.whenCaughtUp(() => resolve(m.repaint()))) : { skip: 'unknown' as const })),
    dispose: () => run((m) => m.dispose()),
  };
}

export interface OverlayScreenOptions {
  cols: number;
  rows: number;
  position: BarPosition;
  /** Writes to the user's terminal, in order with the agent's output. */
  write: (data: string) => void;
  /** Where the cursor was when the agent started (rows above hold older output we cannot repaint). */
  cursorAtStart?: { row: number; col: number };
  /** Rows the bar may take when the recap does not fit one (default DEFAULT_BAR_ROWS; 1 = one row). */
  barRows?: number;
  /** Clock for flood detection (tests). */
  now?: () => number;
  log?: DebugLog;
}

/** What cover() did: drew the rows, or not (knownRows: how many bottom rows it could have drawn over). */
export type CoverResult = { drawn: true } | { drawn: false; knownRows?: number };
/** cover() tries this many times, SYNC_RETRY_MS apart, while the agent is mid-frame or mid-sequence. */
const COVER_TRIES = 50;

/** What show() takes: a recap view from app (composed here for the bar's cells), or fixed text. */
export type BarContent = RecapView | string;

export class OverlayScreen {
  private readonly mirror: MirrorHost;
  private readonly barRows: number;
  private cols: number;
  private rows: number;
  private content: BarContent = '';
  /** The bar should be up (shown, not yet dismissed). */
  private active = false;
  /** The bar is on the terminal now. */
  private visible = false;
  /** A request to the copy is out; its answer decides the next step (see kick). */
  private requesting = false;
  private restoreBytes = '';
  /** Counts agent output chunks: a frame computed before newer output is stale. */
  private outputSeq = 0;
  /** Counts resizes: a frame computed for the old size is stale. */
  private generation = 0;
  private redrawTimer: NodeJS.Timeout | undefined;
  private settleTimer: NodeJS.Timeout | undefined;
  /** A resize left bar text on the terminal: repaint the screen from the copy at repaintAt. */
  private repaintWanted = false;
  private repaintAt = 0;
  /** When the bar last came off the terminal (its rows were restored, in the geometry of that moment). */
  private barOffAt = Number.NEGATIVE_INFINITY;
  /** At most this many bar rows (fewer when the copy does not know the rows above the bottom one). */
  private rowCap = Infinity;
  private layout: { cols: number; maxRows: number; lines: string[] } | undefined;
  private layoutModule: typeof import('./overlay.js') | undefined;
  private disposed = false;
  private windowStart = 0;
  private windowBytes = 0;
  private flooding = false;
  /** The picker covers the bottom rows (or is about to): the bar waits. */
  private covering = false;
  /** The bytes that take the picker's rows off (set once it is drawn). */
  private coverRestore: string | undefined;
  /** The agent's last bytes that do not yet end an escape sequence or UTF-8 character ([] at a boundary). */
  private unfinished: Uint8Array = new Uint8Array(0);

  constructor(private readonly options: OverlayScreenOptions) {
    this.cols = options.cols;
    this.rows = options.rows;
    this.barRows = Math.max(1, Math.floor(options.barRows ?? DEFAULT_BAR_ROWS));
    const init = { cols: options.cols, rows: options.rows, cursorAtStart: options.cursorAtStart };
    this.mirror = inlineHost(init);
    options.log?.('overlay', 'screen copy in this thread');
  }

  /** The bar is on screen now. */
  get isVisible(): boolean {
    return this.visible;
  }

  /** Output gate, before an agent chunk is written: take the bar off first. */
  before(): string {
    this.outputSeq++;
    if (this.coverRestore !== undefined) {
      // Output while the picker is up (its owner holds output; this is the exit's last flush): rows first.
      const restore = this.coverRestore;
      this.coverRestore = undefined;
      return restore;
    }
    if (!this.visible) return '';
    this.visible = false;
    this.barOffAt = this.clock();
    return this.restoreBytes;
  }

  /** Output gate, after an agent chunk was written: mirror it, and put the bar back soon. */
  after(chunk: Uint8Array | string): void {
    if (typeof chunk === 'string') chunk = Buffer.from(chunk, 'utf8');
    if (this.disposed || chunk.length === 0) return;
    const now = (this.options.now ?? Date.now)();
    if (now - this.windowStart > FLOOD_WINDOW_MS) {
      // A new window: still a flood only if the last window was one and followed right on.
      this.flooding = this.windowBytes > FLOOD_BYTES && now - this.windowStart <= 2 * FLOOD_WINDOW_MS;
      this.windowStart = now;
      this.windowBytes = 0;
    }
    this.windowBytes += chunk.length;
    if (!this.flooding && this.windowBytes > FLOOD_BYTES) {
      this.flooding = true;
      this.mirror.lose();
    }
    if (!this.flooding) this.mirror.feed(chunk);
    this.trackBoundary(chunk);
    if ((this.active || this.repaintWanted) && !this.redrawTimer) {
      this.redrawTimer = setTimeout(() => {
        this.redrawTimer = undefined;
        this.kick();
      }, REDRAW_THROTTLE_MS);
      this.redrawTimer.unref?.();
    }
  }

  /** Put a recap up (composed for the bar's cells), replacing any shown. */
  show(content: BarContent): void {
    if (this.disposed) return;
    if (this.visible) this.options.write(this.restoreBytes);
    this.visible = false;
    this.content = content;
    this.layout = undefined;
    this.rowCap = Infinity;
    this.active = true;
    this.kick();
  }

  /** Take the bar off (a key was pressed, or a new turn began). */
  clear(): void {
    this.active = false;
    if (this.redrawTimer) clearTimeout(this.redrawTimer);
    this.redrawTimer = undefined;
    if (!this.visible) return;
    this.visible = false;
    this.barOffAt = this.clock();
    this.options.write(this.restoreBytes);
  }

  /**
   * The terminal was resized. With the bar on it, the terminal moved or reflowed the bar's text along
   * with the agent's rows, so the rows to repaint are not known: once resizes stop, repaint every known
   * row from the copy (resized alike), then put the bar back, composed for the new width.
   */
  resize(cols: number, rows: number): void {
    // The terminal resizes before we hear of it: a bar taken off just before (agent output, a key) was
    // restored for the old size over rows the terminal had already moved, so that counts too.
    if (this.visible || this.active || this.coverRestore !== undefined || this.clock() - this.barOffAt < RESIZE_RACE_MS) this.repaintWanted = true;
    this.coverRestore = undefined; // the terminal moved the picker's rows: repainted from the copy instead
    this.visible = false;
    this.generation++;
    this.cols = cols;
    this.rows = rows;
    this.layout = undefined;
    this.rowCap = Infinity;
    this.mirror.resize(cols, rows);
    if (!this.repaintWanted) {
      this.kick();
      return;
    }
    this.repaintAt = this.clock() + RESIZE_SETTLE_MS;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined;
      this.kick();
    }, RESIZE_SETTLE_MS);
    this.settleTimer.unref?.();
  }

  /**
   * Draw ready-made rows over the bottom of the screen (the picker; renderPicker's rows), waiting while
   * the agent is mid-frame or mid-sequence. `beforeDraw` runs right before the bytes are written: the
   * caller holds the agent's output there, so nothing moves under the rows until uncover(). Drawing
   * again while covered replaces the rows (same count). `widths` (inside tmux, from readRowWidths): how
   * many cells each row's line held in tmux, rebuilt as the rows come off.
   */
  async cover(rows: string[], beforeDraw?: () => void, widths?: number[]): Promise<CoverResult> {
    const wasCovered = this.coverRestore !== undefined;
    this.covering = true;
    for (let attempt = 0; attempt < COVER_TRIES && !this.disposed; attempt++) {
      if (this.unfinished.length === 0 && !this.repaintWanted) {
        if (this.visible) {
          this.visible = false;
          this.barOffAt = this.clock();
          this.options.write(this.restoreBytes);
        }
        const seq = this.outputSeq;
        const generation = this.generation;
        const result = await this.mirror.cover(rows, widths);
        if (this.disposed) break;
        if (seq === this.outputSeq && generation === this.generation && this.unfinished.length === 0 && !this.repaintWanted) {
          if ('draw' in result) {
            beforeDraw?.();
            this.coverRestore ??= result.restore;
            this.options.write(result.draw);
            return { drawn: true };
          }
          if (result.skip === 'unknown') {
            if (!wasCovered) this.endCover();
            return { drawn: false, knownRows: 'knownRows' in result ? result.knownRows : 0 };
          }
        }
      }
      await new Promise((resolve) => setTimeout(resolve, SYNC_RETRY_MS).unref?.());
    }
    if (!wasCovered) this.endCover();
    return { drawn: false };
  }

  /** Take the picker's rows off (repainted from the copy as they were); a recap waiting for the bar comes back. */
  uncover(): void {
    if (this.coverRestore !== undefined && !this.disposed) this.options.write(this.coverRestore);
    this.coverRestore = undefined;
    this.endCover();
  }

  private endCover(): void {
    this.covering = false;
    this.kick();
  }

  dispose(): void {
    this.clear();
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = undefined;
    this.repaintWanted = false;
    this.disposed = true;
    this.mirror.dispose();
  }

  private clock(): number {
    return (this.options.now ?? Date.now)();
  }

  private trackBoundary(chunk: Uint8Array): void {
    const data = this.unfinished.length > 0 ? Buffer.concat([this.unfinished, chunk]) : chunk;
    const start = unfinishedTailStart(data);
    this.unfinished = start < 0 || data.length - start > MAX_UNFINISHED_BYTES ? new Uint8Array(0) : Uint8Array.from(data.subarray(start));
  }

  // The next step, whenever something changed: a pending repaint first, then the bar. Never while a
  // request is out (its answer kicks again) or the agent is in the middle of a sequence (its next
  // chunk schedules a kick).
  private kick(): void {
    if (this.disposed || this.requesting || this.covering || this.unfinished.length > 0) return;
    if (this.repaintWanted) {
      if (!this.settleTimer && this.clock() >= this.repaintAt - 1) this.requestRepaint();
      return;
    }
    if (this.active && !this.visible) this.requestDraw();
  }

  // The text of each bar row for the current size (cached until the size or the content changes).
  private async barLines(): Promise<string[]> {
    const mod = (this.layoutModule ??= await import('./overlay.js'));
    const maxRows = Math.min(mod.maxBarRows(this.barRows, this.rows), this.rowCap);
    const cached = this.layout;
    if (cached && cached.cols === this.cols && cached.maxRows === maxRows) return cached.lines;
    const content = this.content;
    const compose: ComposeText = typeof content === 'string' ? mod.composePlainText(content) : (cells) => content.compose(cells);
    const lines = mod.layoutBar(compose, this.cols, maxRows);
    this.layout = { cols: this.cols, maxRows, lines };
    return lines;
  }

  // Ask the copy for the bar's bytes; draw them only if nothing moved on meanwhile.
  private requestDraw(): void {
    this.requesting = true;
    const seq = this.outputSeq;
    const generation = this.generation;
    let lines: string[] = [];
    void this.barLines()
      .then((l) => ((lines = l), this.mirror.frame(l, this.options.position)))
      .then(
        (result) => {
          this.requesting = false;
          if (this.disposed) return;
          if (seq !== this.outputSeq || generation !== this.generation || !this.active || this.visible || this.repaintWanted || this.covering) {
            this.kick(); // the screen moved on while the copy worked: ask again
            return;
          }
          if ('skip' in result) {
            if (result.skip === 'sync' || result.skip === 'pending') {
              setTimeout(() => this.kick(), SYNC_RETRY_MS).unref?.();
            } else if ('knownRows' in result && result.knownRows && result.knownRows < lines.length) {
              this.rowCap = result.knownRows; // fewer rows, over rows the agent drew
              this.kick();
            } else {
              this.options.log?.('overlay', 'bar row not known yet; not drawn');
              this.active = false;
            }
            return;
          }
          this.restoreBytes = result.restore;
          this.visible = true;
          this.options.write(result.draw);
        },
        (error: unknown) => {
          this.requesting = false;
          this.active = false;
          this.options.log?.('overlay', 'bar not drawn', { error: error instanceof Error ? error.message : String(error) });
        },
      );
  }

  // Repaint the screen from the copy after a resize left bar text behind; then the bar may come back.
  private requestRepaint(): void {
    this.requesting = true;
    const seq = this.outputSeq;
    const generation = this.generation;
    void this.mirror.repaint().then((result) => {
      this.requesting = false;
      if (this.disposed || !this.repaintWanted) return;
      if (seq !== this.outputSeq || generation !== this.generation) {
        this.kick();
        return;
      }
      if ('skip' in result) {
        if (result.skip === 'sync' || result.skip === 'pending') {
          setTimeout(() => this.kick(), SYNC_RETRY_MS).unref?.();
          return;
        }
        this.options.log?.('overlay', 'screen not known after a resize; not repainted');
      } else {
        this.options.write(result.repaint);
      }
      this.repaintWanted = false;
      this.kick();
    });
  }
}
