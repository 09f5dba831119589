/**
 * The room a recap has where the wrap flow shows it, in cells, so a model is told the real budget (it was
 * told the longest line, 213 cells, whatever the pane): the overlay bar's rows as it composes them (the
 * `barRows` it may take on this terminal, each the terminal's width, less the `✦ recap: ` label), or the
 * one line of a tmux message (the pane's width less `recap: `). Pure.
 */
import { LABEL_CELLS, maxBarRows } from '../../display/overlay.js';

/** tmux's message label, `recap: ` (display/tmux-display.ts). */
const TMUX_LABEL_CELLS = 7;

export function recapRoom(display: 'overlay' | 'tmux' | 'none', size: { cols: number; rows: number }, barRows: number): number | undefined {
  switch (display) {
    case 'overlay':
      return Math.max(1, maxBarRows(barRows, size.rows) * size.cols - LABEL_CELLS);
    case 'tmux':
      return Math.max(1, size.cols - TMUX_LABEL_CELLS);
    case 'none':
      return undefined;
    default:
      return display satisfies never;
  }
}
