/**
 * The default action: `recapwrap [options] <command> [args…]` wraps anything that is not a subcommand.
 * The child's own flags are never parsed by us (options end at the command name), and `--` forces
 * wrapping a command that shares its name with a subcommand (`recapwrap -- ls`).
 */
import type { Command } from 'commander';
import { addOptionFlags, flagValuesFromCommand, formatExpected } from '../../config/load.js';
import { AGENT_IDS, formatAgentIds, isAgentId } from '../../transcripts/agent-ids.js';
import { setExitCode } from '../exit-code.js';
import { suggestCommand } from '../suggest.js';

/**
 * Stands in for `--` so that commander treats the next word as a command to wrap rather than a
 * subcommand (commander drops `--` before it looks for subcommands). Never a valid command name.
 */
const FORCED_WRAP_MARKER = '\u0000recapwrap-wrap';

const WRAP_HELP = `
Wrapping:
  recapwrap claude --resume      run claude under recapwrap; everything after the command is claude's
  recapwrap -- ls                wrap a command whose name is also a recapwrap subcommand
  Options for recapwrap go before the command. recapwrap exits with the command's exit code
  (128+N if it died of signal N; 127 if it was not found). When stdin or stdout is not a terminal,
  the command runs directly, without a pty.`;

// Add the wrap options and the default action to the root program.
export function registerWrap(program: Command): void {
  program
    .argument('[agent]', `the agent to wrap (${formatAgentIds(',')}), or any command`)
    .argument('[agent-args...]', "the agent's own arguments, passed through untouched")
    .option('--agent <id>', `which agent this is, when the command name does not say (${formatAgentIds(',')})`)
    .addHelpText('after', WRAP_HELP);
  addOptionFlags(program);
  program
    .action(async function (this: Command, command: string | undefined, args: string[]) {
      if (command === FORCED_WRAP_MARKER) command = args.shift();
      if (!command) {
        this.outputHelp({ error: true });
        setExitCode(this, 2);
        return;
      }
      const agent = this.opts<{ agent?: string }>().agent;
      if (agent !== undefined && !isAgentId(agent)) {
        process.stderr.write(`recapwrap: ${formatExpected('`--agent`', `one of ${AGENT_IDS.join(', ')}`, `\`${agent}\``)}\n`);
        setExitCode(this, 2);
        return;
      }
      const { runWrap } = await import('../../app/wrap/run-wrap.js');
      const names = [...this.commands.map((c) => c.name()), 'help'];
      const code = await runWrap({ command, args, flags: flagValuesFromCommand(this), agent, suggest: (word) => suggestCommand(word, names) });
      setExitCode(this, code);
    });
}

// Replace a `--` that comes before the command with a marker commander will not take for a
// subcommand; everything from the command on is left exactly as given.
export function markForcedWrap(program: Command, argv: readonly string[]): string[] {
  const valueOptions = new Set<string>();
  for (const option of program.options) {
    if (option.required || option.optional) {
      if (option.long) valueOptions.add(option.long);
      if (option.short) valueOptions.add(option.short);
    }
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') return [...argv.slice(0, i), '--', FORCED_WRAP_MARKER, ...argv.slice(i + 1)];
    if (!arg.startsWith('-') || arg === '-') break; // the command (or a subcommand) starts here
    if (valueOptions.has(arg)) i++; // `--opt value`: skip the value
  }
  return [...argv];
}
