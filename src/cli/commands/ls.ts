/**
 * `recapwrap ls [--json]`: every live wrapped session on this machine, from the state files (dead
 * ones pruned): agent, folder, state and for how long, when you last looked, tmux pane, recap.
 */
import type { Command } from 'commander';
import { join } from 'node:path';
import { getRuntimeDir, getStateDir } from '../../config/paths.js';
import { readLiveStates } from '../../display/state-file.js';
import { pruneStaleEntries } from '../../display/stale-state.js';
import { stringifyJsonSafely } from '../../util/sanitize.js';
import { setExitCode } from '../exit-code.js';

export function registerLs(program: Command): void {
  program
    .command('ls')
    .description('all live wrapped sessions: agent, folder, state, when you last looked, tmux pane, recap')
    .option('--json', 'print an array with every field', false)
    .action(async function (this: Command, options: { json: boolean }) {
      const { renderLs } = await import('./ls-table.js');
      // What SIGKILLed wrappers left behind goes first (#19 point 9).
      const warn = (m: string) => process.stderr.write(`recapwrap: warning: ${m}\n`);
      await pruneStaleEntries(getStateDir(), [getRuntimeDir(), join(getStateDir(), 'sockets')], { warn });
      const states = readLiveStates(getStateDir(), { prune: true, warn });
      process.stdout.write((options.json ? stringifyJsonSafely(states, 2) : renderLs(states, process.stdout.isTTY ? process.stdout.columns || 80 : Number.POSITIVE_INFINITY, Date.now())) + '\n');
      setExitCode(this, 0);
    });
}
