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
    .action(async function (this: Command, options: { from?: string; print: boolean }) {
      const { runNext } = await import('../../app/next.js');
      const result = await runNext({ from: options.from, print: options.print, width: Math.min(process.stdout.columns || 100, 120) });
      if (result.out) process.stdout.write(result.out);
      if (result.err) process.stderr.write(result.err);
      setExitCode(this, result.code);
    });
}
