/**
 * Start-up fast path for the common case, `recapwrap <command> [args…]` with no recapwrap options:
 * wrap at once without loading commander or any subcommand module (they cost ~40 ms of start-up on
 * a small box). Anything else (options, subcommands, `--`, no command) goes through the full CLI.
 */
import { suggestCommand } from './suggest.js';

/** Every word the full CLI treats as a subcommand; fast-wrap.test.ts checks it against the program. */
export const SUBCOMMAND_NAMES: readonly string[] = ['recap', 'transcript', 'status', 'ls', 'board', 'resume', 'config', 'doctor', 'demo', 'help', 'next', 'completion',
  // session memory (#25)
  'index', 'sessions', 'search', 'show', 'name', 'forget',
  // MCP server (#26)
  'mcp',
  // the picker in a tmux popup (hidden; run by a wrapper's pick key)
  'pick-popup'];

// Whether argv is a plain wrap that needs no option parsing.
export function isPlainWrap(argv: readonly string[]): boolean {
  const command = argv[0];
  return command !== undefined && command !== '' && !command.startsWith('-') && !SUBCOMMAND_NAMES.includes(command);
}

/** A command not found that is close to a subcommand (`doctr`): which one. */
export function suggestSubcommand(command: string): string | undefined {
  return suggestCommand(command, SUBCOMMAND_NAMES);
}

// Run a plain wrap and resolve to the exit code, or resolve to undefined when the full CLI must handle argv.
export async function runFastWrap(argv: readonly string[]): Promise<number | undefined> {
  if (!isPlainWrap(argv)) return undefined;
  const { runWrap } = await import('../app/wrap/run-wrap.js');
  // No flags given; env and config files are resolved inside runWrap.
  return runWrap({ command: argv[0] as string, args: argv.slice(1), suggest: suggestSubcommand });
}
