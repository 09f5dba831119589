/**
 * PtyProcess: a child program on a pseudo-terminal, in node-pty's IPty shape, and its node-pty
 * implementation with the exit-race fix from terminal.md (node-pty #72: output written just before
 * exit is lost). Output is delivered as raw Buffers so the bytes reach the terminal unchanged.
 * Also resolves a command on PATH, so a missing command is reported before anything is spawned.
 */
import { accessSync, closeSync, constants, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { IPty } from 'node-pty';

import type { Disposable } from '../types.js';
export type { Disposable };

export interface PtyExit {
  exitCode: number;
  /** Signal number when the child died of a signal. */
  signal?: number;
}

/** The child on a pty. Events return a Disposable; whoever registers a listener disposes it. */
export interface PtyProcess {
  readonly pid: number;
  readonly cols: number;
  readonly rows: number;
  onData(listener: (data: Buffer) => void): Disposable;
  /** Fires once, after every byte the child wrote has been delivered through onData. */
  onExit(listener: (exit: PtyExit) => void): Disposable;
  write(data: string | Buffer): void;
  resize(cols: number, rows: number): void;
  /**
   * Signal the child as its terminal would: the process group, not just the pid (a shell's children get
   * it too). SIGINT and SIGQUIT go to the pty's foreground group, where Ctrl-C and Ctrl-\ would send them.
   */
  kill(signal?: NodeJS.Signals): void;
  /** Stop reading the child's output (backpressure); the child blocks once the pty buffer is full. */
  pause(): void;
  resume(): void;
}

export interface SpawnPtyOptions {
  cols: number;
  rows: number;
  cwd: string;
  env: Record<string, string | undefined>;
}

/** Output quiet time after the child's exit before we let go of the slave side (measured: 15 ms). */
const EXIT_DRAIN_QUIET_MS = 15;
const EXIT_DRAIN_POLL_MS = 5;
/** After our slave fd is closed, how long to wait for EIO (a background job may still hold the pty). */
const EXIT_CLOSE_FALLBACK_MS = 200;
/**
 * The pty's input buffer was full (a big paste the child reads slowly, or a stopped child): try the
 * rest again after 1 ms, twice as long each time nothing went in, up to 64 ms.
 */
const INPUT_RETRY_MIN_MS = 1;
const INPUT_RETRY_MAX_MS = 64;

type NativeExitHook = (exitCode: number, signal: number) => void;
interface NativePty {
  fork: (...args: unknown[]) => unknown;
  __recapwrapExitHook?: boolean;
}
type NodePtyModule = typeof import('node-pty') & { native?: NativePty | null };

let nodePty: NodePtyModule | undefined;
let nextExitHook: NativeExitHook | undefined;
let nativeHookInstalled = false;

// Load node-pty on first spawn (keeps `--help` and subcommands from paying for it) and wrap the
// native fork() callback once, so we learn of the child's exit as soon as waitpid() returns.
// Private API: when its shape differs we fall back to node-pty's own (slower) exit event.
function loadNodePty(): NodePtyModule {
  if (nodePty) return nodePty;
  // In the CommonJS start-up bundle (dist/fast) `require` is the module's own: resolving from
  // import.meta.url there meant building a file URL and parsing it back, ~1 ms of first use of URL.
  const load = typeof require === 'function' ? require : createRequire(import.meta.url);
  nodePty = load('node-pty') as NodePtyModule;
  const native = nodePty.native;
  if (native && typeof native.fork === 'function') {
    if (!native.__recapwrapExitHook) {
      const originalFork = native.fork;
      native.fork = function (this: unknown, ...args: unknown[]) {
        const hook = nextExitHook;
        nextExitHook = undefined;
        const callback = args[args.length - 1];
        if (hook && typeof callback === 'function') {
          // Tell us first; node-pty's own callback is called later, once the output is drained.
          args[args.length - 1] = (code: number, signal: number) => hook(code, signal);
        }
        return originalFork.apply(this, args);
      };
      native.__recapwrapExitHook = true;
    }
    nativeHookInstalled = true;
  }
  return nodePty;
}

// Spawn `file args` on a new pty. Throws if node-pty cannot spawn (resolve the command first).
export function spawnPty(file: string, args: readonly string[], options: SpawnPtyOptions): PtyProcess {
  const lib = loadNodePty();
  let nativeExit: PtyExit | undefined;
  const useHook = nativeHookInstalled;
  let onNativeExit: (() => void) | undefined;
  if (useHook) {
    nextExitHook = (exitCode, signal) => {
      nativeExit = signal ? { exitCode, signal } : { exitCode };
      onNativeExit?.();
    };
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.env)) if (v !== undefined) env[k] = v;
  let term: IPty;
  try {
    term = lib.spawn(file, [...args], {
      name: env.TERM ?? 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env, // a copy: node-pty only strips TMUX & co. when handed process.env itself
      encoding: null,
    } as Parameters<typeof lib.spawn>[2]);
  } finally {
    nextExitHook = undefined;
  }

  // Exit-race fix: hold our own fd on the slave so the master never reads EIO before it is drained.
  let slaveFd = -1;
  try {
    slaveFd = openSync((term as IPty & { ptsName: string }).ptsName, constants.O_RDWR | constants.O_NOCTTY);
  } catch {
    // Without it we only lose the fix, not the session.
  }
  const closeSlave = (): void => {
    if (slaveFd < 0) return;
    try {
      closeSync(slaveFd);
    } catch {}
    slaveFd = -1;
  };

  const input = createInputWriter(term);
  const dataListeners = new Set<(data: Buffer) => void>();
  const exitListeners = new Set<(exit: PtyExit) => void>();
  let lastDataAt = 0;
  let paused = false;
  let exited: PtyExit | undefined;
  let socketClosed = false;
  let drainTimer: NodeJS.Timeout | undefined;

  const finish = (exit: PtyExit): void => {
    if (exited) return;
    exited = exit;
    input.stop();
    if (drainTimer) clearTimeout(drainTimer);
    closeSlave();
    for (const listener of [...exitListeners]) listener(exit);
  };

  term.onData((data) => {
    lastDataAt = Date.now();
    const buf = data as unknown as Buffer;
    for (const listener of dataListeners) listener(buf);
  });
  (term as unknown as { on(event: 'close', listener: () => void): void }).on('close', () => {
    socketClosed = true;
    input.stop(); // node-pty closes the master's fd with its socket
    if (useHook && nativeExit) finish(nativeExit);
  });

  if (useHook) {
    // After waitpid(): wait until output has been quiet (and we are reading), then let go of the
    // slave; the master then drains and reads EIO, which closes the socket and ends the session.
    onNativeExit = () => {
      const waitForQuiet = (): void => {
        if (exited) return;
        if (paused || Date.now() - lastDataAt < EXIT_DRAIN_QUIET_MS) {
          drainTimer = setTimeout(waitForQuiet, EXIT_DRAIN_POLL_MS);
          return;
        }
        closeSlave();
        if (socketClosed) return finish(nativeExit as PtyExit);
        waitForClose(Date.now());
      };
      // A background job may still hold the pty open: give up on EIO once it has been quiet a while.
      const waitForClose = (since: number): void => {
        if (exited) return;
        if (paused || Date.now() - Math.max(since, lastDataAt) < EXIT_CLOSE_FALLBACK_MS) {
          drainTimer = setTimeout(() => waitForClose(since), EXIT_DRAIN_POLL_MS * 4);
          return;
        }
        try {
          (term as unknown as { destroy(): void }).destroy();
        } catch {}
        finish(nativeExit as PtyExit);
      };
      setImmediate(waitForQuiet); // first check at once (a timer would wait ≥ 1 ms): a quiet child is let go without delay
    };
  } else {
    term.onExit(({ exitCode, signal }) => finish(signal ? { exitCode, signal } : { exitCode }));
  }

  return {
    get pid() {
      return term.pid;
    },
    get cols() {
      return term.cols;
    },
    get rows() {
      return term.rows;
    },
    onData(listener) {
      dataListeners.add(listener);
      return { dispose: () => dataListeners.delete(listener) };
    },
    onExit(listener) {
      exitListeners.add(listener);
      return { dispose: () => exitListeners.delete(listener) };
    },
    write(data) {
      if (exited) return;
      input.write(data);
    },
    resize(cols, rows) {
      if (exited || cols <= 0 || rows <= 0) return;
      try {
        term.resize(cols, rows);
      } catch {
        // The pty may be closing; a lost resize is harmless.
      }
    },
    kill(signal) {
      const sig = signal ?? 'SIGHUP';
      for (const target of signalTargets(term.pid, sig, readForegroundGroup(term.pid))) {
        try {
          process.kill(target, sig);
        } catch {
          // Already gone.
        }
      }
    },
    pause() {
      paused = true;
      term.pause();
    },
    resume() {
      paused = false;
      term.resume();
    },
  };
}

// Input for the child: written at once with write(2) on the pty master (non-blocking), in order; what
// does not fit waits (copied) for the child to read. node-pty's own write goes through the libuv
// thread pool (fs.write), a hand-off to another thread and back for every keystroke. Falls back to it
// when the master's fd is not where node-pty 1.x keeps it. stop() before the fd can be closed.
interface InputWriter {
  write(data: string | Buffer): void;
  stop(): void;
}

function createInputWriter(term: IPty): InputWriter {
  const { _fd: fd, _socket: socket } = term as unknown as { _fd?: unknown; _socket?: { destroyed?: unknown } };
  if (typeof fd !== 'number' || typeof socket?.destroyed !== 'boolean') return { write: (data) => term.write(data as string), stop: () => undefined };
  const queue: Buffer[] = [];
  let retry: NodeJS.Timeout | undefined;
  let retryMs = INPUT_RETRY_MIN_MS;
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    queue.length = 0;
    if (retry) clearTimeout(retry);
    retry = undefined;
  };
  // Writes what it can and says how much; all of it when the child is gone (dropped).
  const writeSome = (chunk: Buffer): number => {
    // The socket owns the fd and closes it on destroy, a loop turn before its 'close' event.
    if (socket.destroyed === true) {
      stop();
      return chunk.length;
    }
    try {
      return writeSync(fd, chunk);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' || code === 'EINTR') return 0;
      stop(); // EIO and the like: the child is gone, and its input with it
      return chunk.length;
    }
  };
  const later = (progress: boolean): void => {
    retryMs = progress ? INPUT_RETRY_MIN_MS : Math.min(retryMs * 2, INPUT_RETRY_MAX_MS);
    retry = setTimeout(flush, retryMs);
  };
  const flush = (): void => {
    retry = undefined;
    let progress = false;
    while (queue.length > 0 && !stopped) {
      const chunk = queue[0] as Buffer;
      const written = writeSome(chunk);
      if (written > 0) progress = true;
      if (written < chunk.length) {
        queue[0] = chunk.subarray(written);
        return later(progress);
      }
      queue.shift();
    }
  };
  return {
    write(data) {
      if (stopped) return;
      const chunk = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      if (chunk.length === 0) return;
      if (queue.length === 0) {
        const written = writeSome(chunk);
        if (written >= chunk.length || stopped) return;
        queue.push(Buffer.from(chunk.subarray(written)));
        return later(true);
      }
      queue.push(Buffer.from(chunk));
    },
    stop,
  };
}

/** Signals a terminal sends from the keyboard: only to its foreground process group. */
const KEYBOARD_SIGNALS: ReadonlySet<NodeJS.Signals> = new Set(['SIGINT', 'SIGQUIT', 'SIGTSTP']);

// Where a signal for the child goes, as kill() targets (negative: a process group). node-pty starts the
// child as a session leader, so its group is -pid. Keyboard signals go to the pty's foreground group
// (an interactive shell's running job) when known; SIGTERM and SIGHUP to the child's group and, when
// another group is in the foreground, to that one as well (a hang-up reaches both).
export function signalTargets(pid: number, signal: NodeJS.Signals, foregroundGroup: number | undefined): number[] {
  const own = -pid;
  const fg = foregroundGroup !== undefined && foregroundGroup > 0 ? -foregroundGroup : undefined;
  if (KEYBOARD_SIGNALS.has(signal)) return [fg ?? own];
  return fg === undefined || fg === own ? [own] : [own, fg];
}

// The foreground process group of the child's terminal (tpgid in /proc/<pid>/stat). Linux only, as a
// shortcut: elsewhere (or when the child is gone) undefined, and the child's own group is used.
export function readForegroundGroup(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Fields after the command name (which may hold spaces and parentheses): state ppid pgrp session tty_nr tpgid
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const tpgid = Number(fields[5]);
    return Number.isInteger(tpgid) && tpgid > 0 ? tpgid : undefined;
  } catch {
    return undefined;
  }
}

export type ResolvedCommand =
  | { ok: true; path: string }
  | { ok: false; exitCode: 126 | 127; message: string };

// Find `command` the way execvp would (PATH search unless it contains a slash), so that a missing or
// non-executable command gets one clear line and the shell's exit codes (127, 126) before any spawn.
export function resolveCommand(command: string, env: Readonly<Record<string, string | undefined>>, cwd: string): ResolvedCommand {
  const check = (path: string): 'ok' | 'missing' | 'denied' => {
    try {
      if (statSync(path).isDirectory()) return 'denied';
      accessSync(path, constants.X_OK);
      return 'ok';
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EACCES' ? 'denied' : 'missing';
    }
  };
  if (command.includes('/')) {
    const path = isAbsolute(command) ? command : resolve(cwd, command);
    const state = check(path);
    if (state === 'ok') return { ok: true, path: command };
    return state === 'denied'
      ? { ok: false, exitCode: 126, message: `cannot run '${command}': permission denied (not an executable file)` }
      : { ok: false, exitCode: 127, message: `command not found: ${command}` };
  }
  let denied = false;
  for (const dir of (env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter)) {
    const path = join(dir === '' ? cwd : resolve(cwd, dir), command);
    const state = check(path);
    if (state === 'ok') return { ok: true, path };
    if (state === 'denied') denied = true;
  }
  return denied
    ? { ok: false, exitCode: 126, message: `cannot run '${command}': permission denied` }
    : { ok: false, exitCode: 127, message: `command not found: ${command}` };
}
