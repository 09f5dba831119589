/**
 * `recapwrap ls [--json]`: every live wrapped session on this machine, from the state files (dead
 * ones pruned): agent, folder, state and for how long, when you last looked, tmux pane, recap.
 */
import { homedir } from 'node:os';
import type { Command } from 'commander';
import { getStateDir } from '../../config/paths.js';
import { readLiveStates, type LiveState } from '../../display/state-file.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { truncateToWidth } from '../../util/text-width.js';
import { setExitCode } from '../exit-code.js';
import { formatSince, shortenDir } from '../../util/age.js';

export { formatSince, shortenDir };

export function renderLs(states: readonly LiveState[], cols: number, now: number, home = homedir()): string {
  if (states.length === 0) return 'no live sessions: start one with `recapwrap <agent>` (e.g. `recapwrap claude`), or try `recapwrap demo`';
  const rows = states.map((s) => [
    s.agent ?? s.command,
    shortenDir(s.cwd, home),
    `${s.state} ${formatSince(s.stateSince, now)}`,
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

export function registerLs(program: Command): void {
  program
    .command('ls')
    .description('all live wrapped sessions: agent, folder, state, when you last looked, tmux pane, recap')
    .option('--json', 'print an array with every field', false)
    .action(function (this: Command, options: { json: boolean }) {
      const states = readLiveStates(getStateDir(), { prune: true, warn: (m) => process.stderr.write(`recapwrap: warning: ${m}\n`) });
      process.stdout.write((options.json ? JSON.stringify(states, null, 2) : renderLs(states, process.stdout.columns || 100, Date.now())) + '\n');
      setExitCode(this, 0);
    });
}
