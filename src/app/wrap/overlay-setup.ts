/**
 * The wrap flow's overlay bar (steps 1 and 2 of run-wrap.ts): asks the terminal where the cursor is
 * before the agent starts, then mirrors the agent's screen through the output gate from its first byte
 * and keeps the mirror's size in step with the terminal.
 */
import type { BarPosition } from '../../display/overlay.js';
import { queryCursorPosition } from '../../display/cursor-query.js';
import { OverlayScreen } from '../../display/screen.js';
import { debugLog } from '../../util/debug-log.js';
import type { WrapRun } from './wrap-run.js';

export interface OverlaySetup {
  /** The bar's row and how many rows it may take (the resolved `position` and `barRows` options). */
  attach(run: WrapRun, bar: { position: string; barRows: number }): OverlayScreen;
}

export async function prepareOverlay(): Promise<OverlaySetup> {
  const cursorAtStart = await queryCursorPosition(process.stdin, process.stdout);
  debugLog('overlay', 'cursor at start', { known: cursorAtStart !== undefined });
  return {
    attach(run, bar) {
      const screen = new OverlayScreen({
        cols: run.cols,
        rows: run.rows,
        position: bar.position as BarPosition,
        barRows: bar.barRows,
        write: (data) => run.writeToTerminal(data),
        cursorAtStart,
        // The copy runs in this thread: a worker thread was a second V8 heap and Node environment, ~9 MB
        // of the wrapper's RSS (idle with the overlay: 66.8 -> 57.7 MB), and parsing is cheap for an
        // agent's output (~20 ms of CPU per MB, done after each chunk was forwarded; floods skip it).
        log: debugLog,
      });
      run.setOutputGate(screen);
      run.onResize(({ cols, rows }) => screen.resize(cols, rows));
      return screen;
    },
  };
}
