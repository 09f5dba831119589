/**
 * `recapwrap next`: jump to the session that has waited longest for you (tmux), or print its card.
 */
import type { Command } from 'commander';
import { setExitCode } from '../exit-code.js';

export function registerNext(program: Command): void {
  program
    .command('next')
    .description('jump to the live session that has waited longest for you (tmux pane), or print its recap card; exit 1 when none waits')
    .option('--from <pane>', 'the tmux pane you are in, skipped (default: $TMUX_PANE)')
    .option('--print', 'print the card even inside tmux, do not jump', false)
    .option('--host <name>', "this host's live sessions instead of this machine's (repeatable)", (v: string, p: string[] | undefined) => [...(p ?? []), v])
    .option('--all-hosts', "this machine's live sessions and every host's; one waiting on a host is named with how to get there", false)
    .action(async function (this: Command, options: { from?: string; print: boolean; host?: string[]; allHosts?: boolean }) {
      const { runNext } = await import('../../app/live/next.js');
      // --host NAME / --all-hosts (#35): a session waiting on a host is named with the ssh line that gets there.
      if (options.allHosts || options.host?.length) {
        const { nextAcross } = await import('../../app/hosts/next-across.js');
        const r = await nextAcross(options, process.env, options.from ?? process.env.TMUX_PANE);
        process.stderr.write(r.err);
        process.stdout.write(r.out);
        if (r.code !== undefined) return setExitCode(this, r.code);
      }
      const result = await runNext({ from: options.from, print: options.print, width: Math.min(process.stdout.columns || 100, 120) });
      if (result.out) process.stdout.write(result.out);
      if (result.err) process.stderr.write(result.err);
      setExitCode(this, result.code);
    });
}
