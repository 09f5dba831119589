/**
 * Start-up fast path for the session-memory commands run most (`index`, `sessions`, `search`) in their
 * plain forms: no options but `--json`, `--limit N` and `--all-words`. They go straight to memory-run.ts,
 * loading none of commander or the other subcommands (~20 ms of CPU of each such command, a quarter of
 * what a no-change `index` adds to starting node). Anything else (another option, `--`, a missing value,
 * an extra argument) returns undefined and goes through the full CLI, which also prints every usage error.
 */
import type { MemoryCliOptions, MemoryVerb } from './commands/memory-options.js';

export interface FastMemory { verb: MemoryVerb; args: string[]; options: MemoryCliOptions }

// The flags each verb takes here: `true` for a flag with a value.
const FLAGS: Partial<Record<MemoryVerb, Record<string, boolean>>> = {
  index: { '--json': false },
  sessions: { '--json': false, '--limit': true },
  search: { '--json': false, '--limit': true, '--all-words': false },
};

// The options commander gives the command when none is typed (memory.ts).
function defaults(verb: MemoryVerb): MemoryCliOptions {
  if (verb === 'index') return { rebuild: false, json: false, summarize: false, llm: true, allHosts: false, pull: false };
  return verb === 'search' ? { here: false, json: false, allHosts: false, allWords: false } : { here: false, json: false, allHosts: false };
}

/** argv as a plain memory command, or undefined when the full CLI must read it. */
export function parseFastMemory(argv: readonly string[]): FastMemory | undefined {
  const verb = argv[0] as MemoryVerb;
  const flags = FLAGS[verb];
  if (!flags || !Object.hasOwn(FLAGS, verb)) return undefined;
  const options = defaults(verb);
  const words: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('-')) {
      words.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (!Object.hasOwn(flags, flag)) return undefined;
    if (flags[flag]) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || value === '' || value.startsWith('-')) return undefined;
      options.limit = value;
    } else {
      if (eq > 0) return undefined;
      if (flag === '--json') options.json = true;
      else options.allWords = true;
    }
  }
  if (verb === 'search') return words.length > 0 ? { verb, args: [words.join(' ')], options } : undefined;
  return words.length === 0 ? { verb, args: [], options } : undefined;
}

/** Runs argv when it is a plain memory command: its exit code, or undefined (the full CLI runs it). */
export async function runFastMemory(argv: readonly string[]): Promise<number | undefined> {
  const plan = parseFastMemory(argv);
  if (!plan) return undefined;
  const [{ runMemoryCommand }, { processMemoryDeps }, { warnAboutProjectFile }] = await Promise.all([import('./commands/memory-run.js'), import('./commands/memory-deps.js'), import('./project-notice.js')]);
  const deps = processMemoryDeps();
  warnAboutProjectFile(deps.env, deps.cwd);
  const { out, err, code } = await runMemoryCommand(plan.verb, plan.args, plan.options, deps);
  process.stdout.write(out);
  process.stderr.write(err);
  return code;
}
