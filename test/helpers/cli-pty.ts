/**
 * Runs the BUILT CLI (`node bin/recapwrap.js …`) as the user's terminal would: under a real node-pty
 * that plays the outer terminal. Collects every byte it prints (latin1, one char per byte) and holds the
 * pty's slave side until the process is gone so the harness itself never loses the tail (node-pty #72).
 */
import { closeSync, constants, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import * as nodePty from 'node-pty';
import { REPO_DIR } from './shared.js';
import { pollUntil, type PollOptions } from './poll.js';

export const CLI_BIN = join(REPO_DIR, 'bin', 'recapwrap.js');
export const RECORD_INPUT_FIXTURE = join(REPO_DIR, 'test', 'fixtures', 'bin', 'record-input.mjs');

export interface CliPty {
  /** pid of the process started on the pty (recapwrap itself, for runCliInPty). */
  readonly pid: number;
  /** Everything printed so far, one char per byte. */
  output(): string;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  exit: Promise<{ exitCode: number; signal?: number }>;
  /** `exit`, bounded: fails after the timeout (default 10 s) with the output's tail instead of waiting on. */
  waitForExit(options?: PollOptions): Promise<{ exitCode: number; signal?: number }>;
  /** Wait until the output contains text (or matches a regexp), searching from `from`. */
  waitFor(what: string | RegExp, options?: PollOptions & { from?: number }): Promise<void>;
  kill(signal?: NodeJS.Signals): void;
  /** Close the terminal's side of the pty, as a terminal window that is closed does (the program's tty hangs up). */
  hangUp(): void;
}

// Fail early with a clear message when the CLI has not been built.
export function assertBuilt(): void {
  if (!existsSync(join(REPO_DIR, 'dist', 'cli', 'main.cjs'))) {
    throw new Error('Expected a built CLI in dist/ (run `npm run build` first), got no dist/cli/main.cjs');
  }
}

export interface PtyOptions {
  cols?: number;
  rows?: number;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

export function runCliInPty(args: string[], options: PtyOptions = {}): CliPty {
  assertBuilt();
  return spawnInPty(process.execPath, [CLI_BIN, ...args], options);
}

/** Any program under the outer pty (e.g. a shell that runs recapwrap and then inspects the terminal). */
export function spawnInPty(file: string, args: string[], options: PtyOptions = {}): CliPty {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, TERM: 'xterm-256color', ...options.env })) if (v !== undefined) env[k] = v;
  const term = nodePty.spawn(file, args, {
    name: env.TERM,
    cols: options.cols ?? 80,
    rows: options.rows ?? 24,
    cwd: options.cwd ?? REPO_DIR,
    env,
    encoding: null,
  } as nodePty.IPtyForkOptions);
  let slave = -1;
  try {
    slave = openSync((term as unknown as { ptsName: string }).ptsName, constants.O_RDWR | constants.O_NOCTTY);
  } catch {}
  const chunks: string[] = [];
  term.onData((data) => chunks.push((data as unknown as Buffer).toString('latin1')));
  let exited: { exitCode: number; signal?: number } | undefined;
  const exit = new Promise<{ exitCode: number; signal?: number }>((resolve) => {
    term.onExit(({ exitCode, signal }) => {
      if (slave >= 0) closeSync(slave);
      slave = -1;
      exited = signal ? { exitCode, signal } : { exitCode };
      resolve(exited);
    });
  });
  const output = (): string => {
    if (chunks.length > 1) chunks.splice(0, chunks.length, chunks.join(''));
    return chunks[0] ?? '';
  };
  return {
    pid: term.pid,
    output,
    write: (data) => term.write(data),
    resize: (cols, rows) => term.resize(cols, rows),
    exit,
    waitForExit: (opts = {}) =>
      pollUntil(
        () => {
          if (exited) return exited;
          throw new Error(`still running; output tail ${JSON.stringify(output().slice(-400))}`);
        },
        { timeoutMs: 10_000, ...opts, description: opts.description ?? `pid ${term.pid} to exit` },
      ),
    kill: (signal) => process.kill(term.pid, signal ?? 'SIGTERM'),
    hangUp() {
      if (slave >= 0) closeSync(slave);
      slave = -1;
      (term as unknown as { destroy(): void }).destroy(); // closes the master (IPty does not declare it)
    },
    async waitFor(what, opts = {}) {
      const from = opts.from ?? 0;
      await pollUntil(
        () => {
          const text = output().slice(from);
          if (typeof what === 'string' ? text.includes(what) : what.test(text)) return true;
          throw new Error(`output tail ${JSON.stringify(text.slice(-400))}`);
        },
        { timeoutMs: 10_000, ...opts, description: opts.description ?? `output to contain ${JSON.stringify(String(what))}` },
      );
    },
  };
}
