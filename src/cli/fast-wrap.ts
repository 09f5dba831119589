/**
 * Start-up fast path for a wrap, `recapwrap [wrap options] <command> [args…]`: the options table's flags,
 * `--agent` and `--` are read here, so a wrap loads none of commander or the subcommands (~40 ms of
 * start-up and ~9 MB of memory on a small box). Anything else (a subcommand, help, version, an unknown
 * or malformed option, no command) goes through the full CLI, which also prints every usage error.
 */
import { OPTIONS, type OptionName, type OptionSpec } from '../config/options-table.js';
import { isAgentId } from '../transcripts/agent-ids.js';
import type { AgentId } from '../transcripts/types.js';

/** Every word the full CLI treats as a subcommand; fast-wrap.test.ts checks it against the program. */
export const SUBCOMMAND_NAMES: readonly string[] = ['recap', 'transcript', 'status', 'ls', 'board', 'resume', 'config', 'doctor', 'demo', 'help', 'next', 'completion',
  // session memory (#25)
  'index', 'sessions', 'search', 'show', 'read', 'name', 'forget', 'note',
  // MCP server (#26)
  'mcp',
  // the picker in a tmux popup (hidden; run by a wrapper's pick key)
  'pick-popup'];

/** A wrap as the fast path reads it: the command, its arguments untouched, and the flags given before it. */
export interface FastWrap {
  command: string;
  args: string[];
  flags: Partial<Record<OptionName, unknown>>;
  agent?: AgentId;
}

// `--flag` → [option name, value it sets (undefined: takes the next word)], as the full CLI declares them.
let flagTable: Map<string, { name: OptionName; value?: boolean }> | undefined;
function flagsOf(): Map<string, { name: OptionName; value?: boolean }> {
  if (flagTable) return flagTable;
  flagTable = new Map();
  for (const spec of OPTIONS as readonly OptionSpec[]) {
    if (!('flag' in spec) || !spec.flag) continue;
    const name = spec.name as OptionName;
    if (spec.type === 'boolean') flagTable.set(spec.default ? `--no-${spec.flag}` : `--${spec.flag}`, { name, value: !spec.default });
    else flagTable.set(`--${spec.flag}`, { name });
  }
  return flagTable;
}

// Whether argv is a plain wrap that needs no option parsing.
export function isPlainWrap(argv: readonly string[]): boolean {
  const command = argv[0];
  return command !== undefined && command !== '' && !command.startsWith('-') && !SUBCOMMAND_NAMES.includes(command);
}

/** A command not found that is close to a subcommand (`doctr`): which one. Loaded only then, off the start path. */
export async function suggestSubcommand(command: string): Promise<string | undefined> {
  return (await import('./suggest.js')).suggestCommand(command, SUBCOMMAND_NAMES);
}

/**
 * Read argv as a wrap the fast path can run, or undefined when the full CLI must handle it. Mirrors
 * the full CLI: options end at the command (or `--`, after which the next word is the command even if
 * it names a subcommand); `--x value` and `--x=value`; the last of a repeated flag wins. Values are
 * checked by runWrap (resolveConfig), exactly as for the full CLI.
 */
export function parseFastWrap(argv: readonly string[]): FastWrap | undefined {
  const flags: Partial<Record<OptionName, unknown>> = {};
  let agent: string | undefined;
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      i++;
      const command = argv[i];
      return command ? finish(command, i) : undefined;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const flag = name === '--agent' ? { name: 'agent' as const } : flagsOf().get(name);
    if (!flag) return undefined; // unknown, -h, --help, -V: the full CLI's
    let value: string | boolean | undefined = eq === -1 ? undefined : arg.slice(eq + 1);
    if ('value' in flag && flag.value !== undefined) {
      if (value !== undefined) return undefined; // `--no-focus=x`
      value = flag.value;
    } else if (value === undefined) {
      value = argv[++i];
      // A missing value, or one that looks like an option: the full CLI says what is wrong.
      if (value === undefined || value.startsWith('-')) return undefined;
    }
    if (flag.name === 'agent') agent = String(value);
    else flags[flag.name] = value;
  }
  const command = argv[i];
  if (command === undefined || command === '' || SUBCOMMAND_NAMES.includes(command)) return undefined;
  return finish(command, i);

  function finish(command: string, at: number): FastWrap | undefined {
    if (agent !== undefined && !isAgentId(agent)) return undefined;
    return { command, args: argv.slice(at + 1), flags, ...(agent ? { agent: agent as AgentId } : {}) };
  }
}

// Run a wrap and resolve to the exit code, or resolve to undefined when the full CLI must handle argv.
export async function runFastWrap(argv: readonly string[]): Promise<number | undefined> {
  const wrap = isPlainWrap(argv) ? { command: argv[0] as string, args: argv.slice(1), flags: {} } : parseFastWrap(argv);
  if (!wrap) return undefined;
  const { runWrap } = await import('../app/wrap/run-wrap.js');
  // Env and config files are resolved inside runWrap.
  return runWrap({ ...wrap, suggest: suggestSubcommand });
}

// `recapwrap index|sessions|search` in their plain forms: straight to the memory commands (fast-memory.ts).
export { isFastMemory, runFastMemory } from './fast-memory.js';
