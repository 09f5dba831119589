/**
 * `recapwrap board`: a live full-screen view of every wrapped session (blessed, loaded only here).
 */
import type { Command } from 'commander';
import { setExitCode } from '../exit-code.js';

export function registerBoard(program: Command): void {
  program
    .command('board')
    .description('live full-screen view of all wrapped sessions: Enter jumps to a tmux pane, r asks for a fresh recap, q quits')
.option('--host <name>', "this host's live sessions instead of this machine's (over ssh, every 10 s; repeatable)", (v: string, p: string[] | undefined) => [...(p ?? []), v])
    .option('--all-hosts', "this machine's live sessions and every host's", false)
    .action(async function (this: Command, options: { host?: string[]; allHosts?: boolean }) {
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        process.stderr.write('recapwrap: board needs a terminal; for scripts use `recapwrap ls --json`\n');
        setExitCode(this, 2);
        return;
      }
      const [{ runBoard }, { createBoardView }] = await Promise.all([import('../../app/live/board.js'), import('../../display/board-view.js')]);
      // --host NAME / --all-hosts (#35): the hosts' sessions join the rows (app/hosts).
      const across = options.allHosts || options.host?.length ? (await import('../../app/hosts/live-across.js')).boardRemote(options, process.env, process.cwd()) : undefined;
      if (across && 'error' in across) {
        process.stderr.write(`recapwrap: ${across.error}\n`);
        setExitCode(this, 2);
        return;
      }
      setExitCode(this, await runBoard({ env: process.env, createView: createBoardView, ...(across ? { remote: across.remote } : {}) }));
    });
}
