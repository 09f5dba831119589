/** `recapwrap demo [--here]`: thin layer over src/app/demo.ts. */
import type { Command } from 'commander';
import { setExitCode } from '../exit-code.js';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('a self-contained demo: a scripted agent under recapwrap (no key, no network), in a throwaway project')
    .option('--here', 'run in this terminal or pane (inside tmux the demo otherwise opens a split pane)', false)
    .action(async function (this: Command, options: { here: boolean }) {
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        process.stderr.write('recapwrap: the demo needs a terminal (run it in a terminal or a tmux pane)\n');
        setExitCode(this, 2);
        return;
      }
      const { runDemo } = await import('../../app/demo/demo.js');
      setExitCode(this, await runDemo({ here: options.here }));
    });
}
