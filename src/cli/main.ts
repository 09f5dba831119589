/**
 * CLI entry: commander setup only. Each subcommand lives in commands/<verb>.ts as a thin layer over
 * run<Verb>(options, deps); anything that is not a subcommand is a command to wrap.
 */
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { registerSubcommands } from './commands/index.js';
import { getExitCode } from './exit-code.js';
import { markForcedWrap } from './commands/wrap.js';
import { suggestCommand } from './suggest.js';

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Subcommands that print no project-file warning of their own (see the preAction hook). */
const QUIET_COMMANDS = new Set(['config', 'completion', 'status', 'pick-popup', 'help']);

export function createProgram(): Command {
  const program = new Command('recapwrap');
  program
    .description('Run a coding agent under a transparent pty; come back to a pane and read one line that says where the work stands.')
    .version(readVersion(), '-V, --version')
    .usage('[options] <agent> [agent-args...]\n       recapwrap <command> [options]   (commands below)')
    .showSuggestionAfterError(false)
    .enablePositionalOptions()
    .passThroughOptions()
    // Set before the subcommands are added: commander copies both into each subcommand as it is created,
    // so `status --bogus` is a usage error (exit 2) like `--bogus claude`, not a process.exit(1).
    .exitOverride()
    .configureOutput({ outputError: (message, write) => write(formatCommanderError(message)) });
  registerSubcommands(program);
  // Wrap options typed before a subcommand (`recapwrap --pick-key foo sessions`) would be ignored: refuse them.
  program.hook('preSubcommand', (root, sub) => {
    const given = root.options.filter((o) => root.getOptionValueSource(o.attributeName()) === 'cli');
    if (given.length === 0) return;
    const flags = given.map((o) => `\`${o.long ?? o.short}\``).join(', ');
    root.error(`${flags} ${given.length === 1 ? 'is an option' : 'are options'} for wrapping an agent (\`recapwrap [options] <agent>\`); \`${sub.name()}\` does not take ${given.length === 1 ? 'it' : 'them'} there (\`recapwrap help ${sub.name()}\` lists its own)`, { exitCode: 2, code: 'recapwrap.wrapOptionBeforeCommand' });
  });
  // The project file's one warning line (#40 item 1), before any subcommand's action. Not for `config`
  // (its output says it), nor for what runs inside a tmux status line or over an agent's screen. The
  // wrap (the program's own action) says it in run-wrap.ts, before the agent starts.
  program.hook('preAction', async (_root, action) => {
    let top = action;
    while (top.parent && top.parent !== program) top = top.parent;
    if (top === program || QUIET_COMMANDS.has(top.name())) return;
    (await import('./project-notice.js')).warnAboutProjectFile(process.env, process.cwd());
  });
  // `recapwrap help [command]`: commander adds none by itself to a program with a default action.
  program.helpCommand('help [command]', 'show help for recapwrap or for one command');
  return program;
}

/** Commander's "error: unknown option '--x'" in recapwrap's one style: "recapwrap: unknown option '--x'". */
export function formatCommanderError(message: string): string {
  return `recapwrap: ${message.replace(/^error:\s*/, '').trimEnd()}\n`;
}

// `--json` given (before any `--`) to a command that has that flag.
function jsonAsked(program: Command, argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const args = end < 0 ? argv : argv.slice(0, end);
  const command = program.commands.find((c) => c.name() === args[0]);
  return Boolean(command?.options.some((o) => o.long === '--json')) && args.includes('--json');
}

/** Run the CLI with argv (without node and script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = createProgram();
  let exitCode = 0;
  program.hook('postAction', (_thisCommand, actionCommand) => {
    const code = getExitCode(actionCommand);
    if (typeof code === 'number') exitCode = code;
  });
  // `help WORD` for a word that is no command: commander would print the general help and exit 0.
  if (argv[0] === 'help' && argv[1] !== undefined && !program.commands.some((c) => c.name() === argv[1]) && argv[1] !== 'help') {
    const names = [...program.commands.map((c) => c.name()), 'help'];
    const typo = suggestCommand(argv[1], names);
    process.stderr.write(`recapwrap: no command \`${argv[1]}\`${typo ? `; did you mean \`${typo}\`?` : ''} (\`recapwrap help\` lists them)\n`);
    return 2;
  }
  // `help mcp install`: the help of that subcommand (commander would print `mcp`'s).
  if (argv[0] === 'help' && argv.length > 2) {
    const parent = program.commands.find((c) => c.name() === argv[1]);
    const sub = parent?.commands.find((c) => c.name() === argv[2]);
    if (parent && parent.commands.length > 0 && !sub) {
      process.stderr.write(`recapwrap: no command \`${argv[1]} ${argv[2]}\` (\`recapwrap help ${argv[1]}\` lists them)\n`);
      return 2;
    }
    if (sub) {
      sub.outputHelp();
      return 0;
    }
  }
  try {
    await program.parseAsync(markForcedWrap(program, argv), { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
      // Every usage error exits 2 (commander says 1).
      const code = error.exitCode === 1 ? 2 : error.exitCode;
      // A command asked for --json prints JSON on stdout even for a usage error (scripts parse stdout).
      if (jsonAsked(program, argv)) process.stdout.write(JSON.stringify({ error: formatCommanderError(error.message).replace(/^recapwrap: /, '').trim(), code }, null, 2) + '\n');
      return code;
    }
    throw error;
  }
  return exitCode;
}

export { setExitCode } from './exit-code.js';
