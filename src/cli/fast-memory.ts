/**
 * Start-up fast path for the session-memory commands run most (`index`, `sessions`, `search`) in their
 * plain forms: no options but `--json`, `--limit N` and `--all-words`. They go straight to memory-run.ts,
 * loading none of commander or the other subcommands (~20 ms of CPU of each such command, a quarter of
 * what a no-change `index` adds to starting node). Anything else (another option, `--`, a missing value,
 * an extra argument) returns undefined and goes through the full CLI, which also prints every usage error.
 */
import { writeSync } from 'node:fs';
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

/** Whether argv is a plain memory command (runFastMemory runs it). */
export function isFastMemory(argv: readonly string[]): boolean {
  return parseFastMemory(argv) !== undefined;
}

/**
 * Writes text to fd 1 or 2: directly when it is a file, a pipe or a socket (plainOutput), so the command
 * makes no process.stdout/stderr (~3-7 ms: Node's stream modules, and net for a pipe); else, or from the
 * first write that fails (a pipe closed early: EPIPE; one left non-blocking: EAGAIN), the rest through the
 * stream as before, `guard` called first (bin/recapwrap.js: a closed pipe ends the command quietly).
 */
function writeOutput(fd: 1 | 2, text: string, plain: boolean, guard?: () => void): void {
  if (!text) return;
  const stream = () => {
    if (fd === 1) guard?.();
    return fd === 1 ? process.stdout : process.stderr;
  };
  if (!plain) {
    stream().write(text);
    return;
  }
  const bytes = Buffer.from(text);
  let at = 0;
  try {
    while (at < bytes.length) at += writeSync(fd, bytes, at);
  } catch {
    stream().write(bytes.subarray(at));
  }
}

/**
 * Runs argv when it is a plain memory command: its exit code, or undefined (the full CLI runs it).
 * `guardStdout`: called before process.stdout is first used (bin/recapwrap.js sets what a closed pipe does).
 */
export async function runFastMemory(argv: readonly string[], guardStdout?: () => void): Promise<number | undefined> {
  const plan = parseFastMemory(argv);
  if (!plan) return undefined;
  const [{ runMemoryCommand }, { plainOutput, processMemoryDeps }, { warnAboutProjectFile }] = await Promise.all([import('./commands/memory-run.js'), import('./commands/memory-deps.js'), import('./project-notice.js')]);
  const deps = processMemoryDeps();
  warnAboutProjectFile(deps.env, deps.cwd);
  const { out, err, code } = await runMemoryCommand(plan.verb, plan.args, plan.options, deps);
  writeOutput(1, out, plainOutput(1), guardStdout);
  writeOutput(2, err, plainOutput(2));
  return code;
}
