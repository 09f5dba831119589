/**
 * Non-TTY mode: when stdin or stdout is not a terminal (pipes, files, CI), run the child with the
 * inherited stdio and no pty, so `echo hi | recapwrap cat` and `recapwrap ls > out.txt` behave exactly as
 * without recapwrap. Same exit-code rules as the pty path: the child's code, or 128+N for signal N.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** Passed on to the child; SIGINT/SIGQUIT from the keyboard already reach it through the process group. */
const DIRECT_FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGHUP'];
const DIRECT_IGNORED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGQUIT'];

export interface DirectRunOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Called once the child is running (its pid). */
  onSpawn?(pid: number): void;
}

// Exit code of a child that ended with (code, signal), as a shell reports it.
export function exitCodeOf(code: number | null, signal: NodeJS.Signals | number | null | undefined): number {
  if (typeof signal === 'number' && signal > 0) return 128 + signal;
  if (typeof signal === 'string') return 128 + (constants.signals[signal] ?? 0);
  return code ?? 1;
}

// Run `command args` with inherited stdio; resolves to the exit code (127 if it could not start).
export function runDirect(command: string, args: readonly string[], options: DirectRunOptions): Promise<number> {
  return new Promise((resolve) => {
    const handlers = new Map<NodeJS.Signals, () => void>();
    const cleanup = (): void => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    };
    const child = spawn(command, [...args], { stdio: 'inherit', cwd: options.cwd, env: options.env });
    for (const signal of DIRECT_FORWARDED_SIGNALS) {
      const handler = (): void => {
        child.kill(signal);
      };
      handlers.set(signal, handler);
      process.on(signal, handler);
    }
    for (const signal of DIRECT_IGNORED_SIGNALS) {
      const handler = (): void => {};
      handlers.set(signal, handler);
      process.on(signal, handler);
    }
    child.once('spawn', () => {
      if (child.pid !== undefined) options.onSpawn?.(child.pid);
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      cleanup();
      process.stderr.write(`recapwrap: cannot run '${command}': ${error.code === 'ENOENT' ? 'command not found' : error.message}\n`);
      resolve(error.code === 'EACCES' ? 126 : 127);
    });
    child.once('exit', (code, signal) => {
      cleanup();
      resolve(exitCodeOf(code, signal));
    });
  });
}
