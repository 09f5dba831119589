/** `recapwrap completion bash|zsh|fish`: the shell completion script, generated from the registered commands. */
import type { Command } from 'commander';
import { formatExpected } from '../../config/load.js';
import { COMPLETION_SHELLS, describeProgram, renderCompletion, type CompletionShell } from '../completion.js';
import { setExitCode } from '../exit-code.js';

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print the shell completion script (shell/recapwrap.* load it on first Tab)')
    .argument('<shell>', COMPLETION_SHELLS.join(', '))
    .action(function (this: Command, shell: string) {
      if (!(COMPLETION_SHELLS as readonly string[]).includes(shell)) {
        process.stderr.write(`recapwrap: ${formatExpected('the shell', `one of ${COMPLETION_SHELLS.join(', ')}`, `\`${shell}\``)}\n`);
        setExitCode(this, 2);
        return;
      }
      process.stdout.write(renderCompletion(shell as CompletionShell, describeProgram(program)));
      setExitCode(this, 0);
    });
}
