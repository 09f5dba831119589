/** The `recapwrap ls` table (loaded when the command runs: text width pulls in Unicode tables). */
import { homedir } from 'node:os';
import type { LiveState } from '../../display/state-file.js';
import { attentionLabel } from '../../display/attention-order.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { truncateToWidth } from '../../util/text-width.js';
import { formatSince, shortenDir } from '../../util/age.js';

export function renderLs(states: readonly LiveState[], cols: number, now: number, home = homedir()): string {
  if (states.length === 0) return 'no live sessions: start one with `recapwrap <agent>` (e.g. `recapwrap claude`), or try `recapwrap demo`';
  const rows = states.map((s) => [
    s.agent ?? s.command,
    shortenDir(s.cwd, home),
    `${s.state} ${formatSince(s.stateSince, now)}${attentionLabel(s) ? ` ${attentionLabel(s)}` : ''}`,
    formatSince(s.lastFocusAt, now),
    s.tmuxPane ?? '-',
    sanitizeLine(s.lastRecap?.line ?? ''),
  ]);
  const header = ['AGENT', 'DIR', 'STATE', 'LOOKED', 'PANE', 'RECAP'];
  const widths = header.slice(0, 5).map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => {
    const fixed = cells.slice(0, 5).map((c, i) => c.padEnd(widths[i] as number)).join('  ');
    const room = cols - fixed.length - 2;
    return room > 8 ? `${fixed}  ${truncateToWidth(cells[5] as string, room)}`.trimEnd() : fixed.trimEnd();
  };
  return [line(header), ...rows.map(line)].join('\n');
}
