/**
 * `recapwrap board`: a live full-screen view of every wrapped session (blessed, loaded only here).
 */
import type { Command } from 'commander';
import { setExitCode } from '../exit-code.js';

export function registerBoard(program: Command): void {
  program
    .command('board')
    .description('live full-screen view of all wrapped sessions: Enter jumps to a tmux pane, r asks for a fresh recap, q quits')
    .action(async function (this: Command) {
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        process.stderr.write('recapwrap: board needs a terminal; for scripts use `recapwrap ls --json`\n');
        setExitCode(this, 2);
        return;
      }
      const [{ runBoard }, { createBoardView }] = await Promise.all([import('../../app/board.js'), import('../../display/board-view.js')]);
      setExitCode(this, await runBoard({ env: process.env, createView: createBoardView }));
    });
}
