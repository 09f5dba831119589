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
    .option('--host <name>', "this host's live sessions instead of this machine's (over ssh; repeatable)", (v: string, p: string[] | undefined) => [...(p ?? []), v])
    .option('--all-hosts', 'the live sessions of this machine and of every host of the config file', false)
    .action(async function (this: Command, options: { json: boolean; host?: string[]; allHosts?: boolean }) {
      const { renderLs } = await import('./ls-table.js');
      // --host NAME / --all-hosts (#35): the hosts' own `ls --json`, each state tagged with its host (app/hosts).
      const across = options.allHosts || options.host?.length ? await (await import('../../app/hosts/live-across.js')).liveAcrossHosts(options, process.env, process.cwd()) : undefined;
      if (across && 'error' in across) {
        process.stderr.write(`recapwrap: ${across.error}\n`);
        setExitCode(this, 2);
        return;
      }
      // What SIGKILLed wrappers left behind goes first (#19 point 9).
      const warn = (m: string) => process.stderr.write(`recapwrap: warning: ${m}\n`);
      await pruneStaleEntries(getStateDir(), [getRuntimeDir(), join(getStateDir(), 'sockets')], { warn });
      let states = !across || across.local ? readLiveStates(getStateDir(), { prune: true, warn }) : [];
      if (across) {
        process.stderr.write(across.err);
        const all = [...states, ...across.remote];
        states = options.json ? all : (await import('../../app/hosts/live-across.js')).forTable(all);
      }
      process.stdout.write((options.json ? stringifyJsonSafely(states, 2) : renderLs(states, process.stdout.isTTY ? process.stdout.columns || 80 : Number.POSITIVE_INFINITY, Date.now())) + '\n');
      setExitCode(this, 0);
    });
}
