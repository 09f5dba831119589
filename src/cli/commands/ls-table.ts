/** The `recapwrap ls` table (loaded when the command runs: text width pulls in Unicode tables). */
import { homedir } from 'node:os';
import { fitRecapCell, liveRow, orderLiveStates } from '../../app/live/live-listing.js';
import { columnsThatFit } from '../../display/live-columns.js';
import type { LiveState } from '../../display/state-file.js';
import { displayWidth, padToWidth, truncateToWidth } from '../../util/text-width.js';

/** The smallest recap column worth printing; narrower, the recap is left out. */
const MIN_RECAP_CELLS = 12;

/**
 * One row per live wrapper, newest first (as `board`). `cols` is the terminal's width; Infinity (output
 * to a pipe or file) prints whole lines, since nothing would cut them there.
 */
export function renderLs(states: readonly LiveState[], cols: number, now: number, home = homedir()): string {
  if (states.length === 0) return 'no live sessions: start one with `recapwrap <agent>` (e.g. `recapwrap claude`), or try `recapwrap demo`';
  const rows = orderLiveStates(states).map((s) => {
    const r = liveRow(s, now, home);
    return [r.agent, r.dir, r.state, r.looked, r.pane, r.recap];
  });
  const header = ['AGENT', 'DIR', 'STATE', 'LOOKED', 'PANE', 'RECAP'];
  const widths = header.slice(0, 5).map((h, i) => Math.max(h.length, ...rows.map((r) => displayWidth(r[i] as string))));
  // A narrow terminal: the columns least needed give way until the recap has room; a row never wraps.
  const kept = columnsThatFit(widths, cols);
  const line = (cells: string[], isHeader = false) => {
    const fixed = kept.map((i) => padToWidth(cells[i] as string, widths[i] as number)).join('  ');
    const room = cols - displayWidth(fixed) - 2;
    if (room < MIN_RECAP_CELLS) return Number.isFinite(cols) ? truncateToWidth(fixed.trimEnd(), cols) : fixed.trimEnd();
    const recap = isHeader ? (cells[5] as string) : fitRecapCell(cells[5] as string, room);
    return `${fixed}  ${recap}`.trimEnd();
  };
  return [line(header, true), ...rows.map((r) => line(r))].join('\n');
}
