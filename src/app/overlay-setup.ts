/**
 * Sets up the overlay display around a wrap session: asks the terminal where the cursor is before the
 * agent starts, then mirrors the agent's screen through the output gate from its first byte and keeps
 * the mirror's size in step with the terminal.
 */
import type { BarPosition } from '../display/overlay.js';
import { queryCursorPosition } from '../display/cursor-query.js';
import { OverlayScreen } from '../display/screen.js';
import { debugLog } from '../util/debug-log.js';
import type { WrapSession } from './wrap-session.js';

export interface OverlaySetup {
  /** The bar's row and how many rows it may take (the resolved `position` and `barRows` options). */
  attach(session: WrapSession, bar: { position: string; barRows: number }): OverlayScreen;
}

export async function prepareOverlay(): Promise<OverlaySetup> {
  const cursorAtStart = await queryCursorPosition(process.stdin, process.stdout);
  debugLog('overlay', 'cursor at start', { known: cursorAtStart !== undefined });
  return {
    attach(session, bar) {
      const screen = new OverlayScreen({
        cols: session.cols,
        rows: session.rows,
        position: bar.position as BarPosition,
        barRows: bar.barRows,
        write: (data) => session.writeToTerminal(data),
        cursorAtStart,
        log: debugLog,
      });
      session.setOutputGate(screen);
      session.onResize(({ cols, rows }) => screen.resize(cols, rows));
      return screen;
    },
  };
}
