/**
 * The wrapper's own terminal: raw mode in, output out with backpressure, SIGWINCH, forwarded signals,
 * and the one idempotent restore that runs on every exit path (child exit, signals, process.exit,
 * uncaught errors). It knows nothing of focus reports or modes: the caller supplies the restore bytes.
 */
import { spawnSync } from 'node:child_process';
import { fstatSync, writeSync } from 'node:fs';

/** Signals to recapwrap that are passed on to the child (it decides; we exit as it did). */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'];

/** stty answers in ~2 ms; never hold the start of the session on it. */
const STTY_TIMEOUT_MS = 1000;
const DEFAULT_COLS = 80;
const DEFAULT_ROWS = 24;

export interface PassthroughOptions {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  /** Raw bytes typed by the user. */
  onInput(data: Buffer): void;
  onResize(cols: number, rows: number): void;
  onSignal(signal: NodeJS.Signals): void;
  /** true: the terminal cannot keep up, stop reading the child; false: go on. */
  onBackpressure(blocked: boolean): void;
  /** Bytes that put the terminal back as we found it; asked for once, at restore time. */
  restoreSequence(): string;
  /** An uncaught error reached the process; the terminal is already restored. Must end the process. */
  onFatal(error: unknown): void;
}

export interface Passthrough {
  readonly cols: number;
  readonly rows: number;
  /** Write to the terminal, in order with everything else written here. */
  write(data: string | Buffer): void;
  /** Put the terminal back (restore bytes, raw mode off, stop reading stdin). Safe to call many times. */
  restore(): void;
  /** Resolves once everything written so far has left the process. */
  drained(): Promise<void>;
}

// Node's raw mode keeps OPOST/ONLCR, so a bare LF from a raw-mode child (cursor down) would become
// CR LF on the outer terminal. Turn output processing off too; setRawMode(false) restores the saved
// termios (OPOST included). Only when stdin and stdout are the same terminal, else restore would miss it.
function disableOutputProcessing(stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream): void {
  const inFd = (stdin as { fd?: number }).fd;
  const outFd = (stdout as { fd?: number }).fd;
  if (typeof inFd !== 'number' || typeof outFd !== 'number') return;
  try {
    if (fstatSync(inFd).rdev !== fstatSync(outFd).rdev) return;
    spawnSync('stty', ['-opost'], { stdio: [inFd, 'ignore', 'ignore'], timeout: STTY_TIMEOUT_MS });
  } catch {
    // Without stty the child's LFs gain a CR: cosmetic for almost every program.
  }
}

// Take over the terminal; call restore() (or let an exit path do it) to give it back.
export function startPassthrough(options: PassthroughOptions): Passthrough {
  const { stdin, stdout } = options;
  let restored = false;
  let blocked = false;
  let broken = false; // stdout errored (terminal gone): drop further output

  const onData = (data: Buffer | string): void => {
    options.onInput(typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
  };
  const onResize = (): void => options.onResize(stdout.columns || DEFAULT_COLS, stdout.rows || DEFAULT_ROWS);
  const onDrain = (): void => {
    if (!blocked) return;
    blocked = false;
    options.onBackpressure(false);
  };
  const onStdoutError = (): void => {
    // EIO/EPIPE once the terminal is gone; the child learns it from SIGHUP.
    broken = true;
    onDrain();
  };
  const signalHandlers = new Map<NodeJS.Signals, () => void>();
  for (const signal of FORWARDED_SIGNALS) {
    const handler = (): void => options.onSignal(signal);
    signalHandlers.set(signal, handler);
    process.on(signal, handler);
  }
  const onProcessExit = (): void => restore(true);
  const onUncaught = (error: unknown): void => {
    restore(true);
    options.onFatal(error);
  };

  // The single place that gives the terminal back.
  function restore(synchronous = false): void {
    if (restored) return;
    restored = true;
    let sequence = '';
    try {
      sequence = options.restoreSequence();
    } catch {
      // Restoring raw mode still matters even if the mode bytes could not be built.
    }
    if (sequence && !broken) {
      try {
        const fd = (stdout as { fd?: number }).fd;
        if (synchronous && stdout.writableLength === 0 && typeof fd === 'number') writeSync(fd, sequence);
        else stdout.write(sequence);
      } catch {}
    }
    try {
      if (stdin.isTTY) stdin.setRawMode(false);
    } catch {}
    stdin.off('data', onData);
    stdin.pause();
    stdout.off('resize', onResize);
    for (const [signal, handler] of signalHandlers) process.off(signal, handler);
    process.off('exit', onProcessExit);
    process.off('uncaughtException', onUncaught);
  }

  process.on('exit', onProcessExit);
  process.on('uncaughtException', onUncaught);
  stdout.on('error', onStdoutError);
  stdout.on('drain', onDrain);
  stdout.on('resize', onResize);
  if (stdin.isTTY) {
    stdin.setRawMode(true);
    disableOutputProcessing(stdin, stdout);
  }
  stdin.on('data', onData);
  stdin.resume();

  return {
    get cols() {
      return stdout.columns || DEFAULT_COLS;
    },
    get rows() {
      return stdout.rows || DEFAULT_ROWS;
    },
    write(data) {
      if (broken) return;
      if (!stdout.write(data) && !blocked) {
        blocked = true;
        options.onBackpressure(true);
      }
    },
    restore: () => restore(false),
    drained() {
      if (broken || stdout.writableLength === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const done = (): void => {
          stdout.off('drain', done);
          stdout.off('error', done);
          resolve();
        };
        stdout.on('drain', done);
        stdout.on('error', done);
      });
    },
  };
}
