/**
 * The wrapper's own terminal: raw mode in, output out with backpressure, SIGWINCH, forwarded signals,
 * the terminal going away (hang-up), and the one idempotent restore that runs on every exit path (child
 * exit, signals, process.exit, uncaught errors). It knows nothing of focus reports or modes: the caller
 * supplies the restore bytes.
 */
import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, fstatSync, openSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { nodeRequire } from '../util/node-require.js';

/** Signals to recapwrap that are passed on to the child (it decides; we exit as it did). */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'];

/** stty answers in ~4 ms; never hold the child's output longer than this on it. */
const STTY_TIMEOUT_MS = 1000;
/**
 * stty -opost runs at the first write output processing could change (see OPOST_BYTES), or this long
 * after the child's spawn (childStarted), whichever comes first: a long-lived program (an agent) has it
 * done before its first screen, and a quick one that prints no line (`recapwrap true`) pays for no fork.
 * Counted from the spawn, not from the passthrough's start: the wrapper's own work in between (loading
 * node-pty, the fork: 10-60 ms on a busy 2-core machine) used to spend the child's whole delay.
 */
export const STTY_DELAY_MS = 30;
/** Output held for stty beyond this stops the child's reader, as a slow terminal would. */
const HOLD_LIMIT_BYTES = 256 * 1024;
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
  /**
   * The terminal went away (window closed, ssh dropped): its input ended or a write to it failed. Called
   * once; nothing more is written to it. SIGHUP usually comes too, through onSignal.
   */
  onHangup(cause: 'input' | 'output'): void;
}

export interface Passthrough {
  readonly cols: number;
  readonly rows: number;
  /** Write to the terminal, in order with everything else written here. */
  write(data: string | Buffer): void;
  /**
   * Put the terminal back (restore bytes, raw mode off, stop reading stdin). Safe to call many times.
   * While stty -opost still runs this happens once it is done, after the output held for it.
   */
  restore(): void;
  /** Resolves once everything written so far has left the process. */
  drained(): Promise<void>;
  /**
   * The child has been spawned: stty -opost runs STTY_DELAY_MS from now unless a write needs it sooner,
   * and then only if `isRunning()` still says so (a busy loop can run the timer after the child is gone).
   */
  childStarted(isRunning: () => boolean): void;
}

/**
 * Whether TERM says the terminal understands no escape sequences: `dumb` (Emacs shell buffers, some
 * CI and IDE consoles) or no TERM at all. Then nothing of ours (focus reporting, overlay) is written.
 */
export function isDumbTerminal(term: string | undefined): boolean {
  return term === undefined || term.trim() === '' || term === 'dumb';
}

/** The terminal's size, or 80x24 when it does not say. */
export function terminalSize(stdout: NodeJS.WriteStream): { cols: number; rows: number } {
  return { cols: stdout.columns || DEFAULT_COLS, rows: stdout.rows || DEFAULT_ROWS };
}

// Node's raw mode keeps OPOST/ONLCR, so a bare LF from a raw-mode child (cursor down) would become
// CR LF on the outer terminal. Turn output processing off too; setRawMode(false) restores the saved
// termios (OPOST included). Only when stdin and stdout are the same terminal, else restore would miss it.
// stty runs in the background (a spawnSync held the start ~4 ms; the fork still blocks this thread ~2 ms,
// and child_process is loaded for it alone); the caller holds output until it is done and makes sure it
// can never land after the restore.
function disableOutputProcessing(stdin: NodeJS.ReadStream, stdout: NodeJS.WriteStream): ChildProcess | undefined {
  const inFd = (stdin as { fd?: number }).fd;
  const outFd = (stdout as { fd?: number }).fd;
  if (typeof inFd !== 'number' || typeof outFd !== 'number') return undefined;
  try {
    if (fstatSync(inFd).rdev !== fstatSync(outFd).rdev) return undefined;
    const { spawn } = nodeRequire<typeof import('node:child_process')>('node:child_process');
    return spawn(sttyPath(), ['-opost'], { stdio: [inFd, 'ignore', 'ignore'], timeout: STTY_TIMEOUT_MS });
  } catch {
    // Without stty the child's LFs gain a CR: cosmetic for almost every program.
    return undefined;
  }
}

// stty where it always is (macOS, Linux): the spawn returns once stty runs, and a PATH search tries
// every folder before it first. Else found on PATH.
const STTY_PATHS = ['/bin/stty', '/usr/bin/stty'];
export const STTY_ENV = 'RECAPWRAP_STTY';
// RECAPWRAP_STTY names another stty (the tests' slow one: a child that exits before stty is done).
function sttyPath(): string {
  return process.env[STTY_ENV] || (STTY_PATHS.find((p) => existsSync(p)) ?? 'stty');
}

/**
 * The bytes output processing acts on with the flags a terminal has (ONLCR, OCRNL, ONOCR, ONLRET, TABDLY):
 * a write without any of them reaches the terminal the same with OPOST on or off, so it need not wait for stty.
 */
const OPOST_BYTES = /[\n\r\t]/;
function touchedByOutputProcessing(data: string | Buffer): boolean {
  if (typeof data === 'string') return OPOST_BYTES.test(data);
  return data.indexOf(0x0a) !== -1 || data.indexOf(0x0d) !== -1 || data.indexOf(0x09) !== -1;
}

const STDIO_FDS = [0, 1, 2] as const;
const NULL_DEVICE = '/dev/null';
let deadTerminalGuardInstalled = false;

// Node 20 records the termios of each stdio tty at start and puts it back at exit, and aborts (SIGABRT,
// or SIGSEGV when a signal handler runs into the same check) when that tcsetattr() fails: it does with
// EIO once the terminal has hung up (nodejs/node#51519, fixed by #58200 in later Node lines). Node skips
// an fd that no longer refers to the file it saw at start, so at exit each stdio fd whose terminal is gone
// (isatty() fails with EIO on a hung-up tty) is pointed at /dev/null. Installed once, runs last-ish, and
// touches nothing while the terminal is alive.
function guardExitAgainstDeadTerminal(): void {
  if (deadTerminalGuardInstalled) return;
  deadTerminalGuardInstalled = true;
  const wasTerminal = STDIO_FDS.map((fd) => isatty(fd));
  process.on('exit', () => {
    for (const fd of STDIO_FDS) {
      if (!wasTerminal[fd] || isatty(fd)) continue;
      try {
        closeSync(fd);
        // The lowest free fd is the one just closed; if not, it stays closed, which Node skips as well.
        const reopened = openSync(NULL_DEVICE, 'r+');
        if (reopened !== fd) closeSync(reopened);
      } catch {
        // Nothing more can be done this late; at worst Node's own check fires as before.
      }
    }
  });
}

// Take over the terminal; call restore() (or let an exit path do it) to give it back.
export function startPassthrough(options: PassthroughOptions): Passthrough {
  const { stdin, stdout } = options;
  let restored = false;
  let blocked = false;
  let broken = false; // stdout errored (terminal gone): drop further output
  let hungUp = false;
  // While stty -opost runs, the child's output waits here (in order), so no LF of it gains a CR.
  let stty: ChildProcess | undefined;
  // Before stty has started: whether it is still to run (a tty on stdin), and its timer (STTY_DELAY_MS
  // from the child's spawn).
  let sttyPending = false;
  let sttyTimer: NodeJS.Timeout | undefined;
  let held: Array<string | Buffer> = [];
  let heldBytes = 0;
  const sttyWaiters: Array<() => void> = [];
  let restoreWhenSttyDone = false;

  const writeOut = (data: string | Buffer): void => {
    if (broken) return;
    if (!stdout.write(data) && !blocked) {
      blocked = true;
      options.onBackpressure(true);
    }
  };
  const releaseHeld = (): void => {
    if (!stty) return;
    stty = undefined;
    const out = held;
    held = [];
    heldBytes = 0;
    for (const data of out) writeOut(data);
    if (blocked && !stdout.writableNeedDrain) onDrain(); // blocked by the hold, not by the terminal
    if (restoreWhenSttyDone) restore();
    for (const resolve of sttyWaiters.splice(0)) resolve();
  };

  const onData = (data: Buffer | string): void => {
    options.onInput(typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
  };
  const onResize = (): void => {
    const { cols, rows } = terminalSize(stdout);
    options.onResize(cols, rows);
  };
  const onDrain = (): void => {
    if (!blocked) return;
    blocked = false;
    options.onBackpressure(false);
  };
  // The terminal is gone: write nothing more to it, and tell the caller once (it hangs the child up).
  const hangUp = (cause: 'input' | 'output'): void => {
    broken = true;
    onDrain();
    if (hungUp) return;
    hungUp = true;
    try {
      options.onHangup(cause);
    } catch {
      // The caller's hang-up handling must not turn a closed window into a crash.
    }
  };
  // EIO once the terminal is gone (EPIPE for a pipe, which we are not given).
  const onStdoutError = (): void => hangUp('output');
  // A tty in raw mode only ends (read() returns 0) or fails when it has hung up.
  const onStdinEnd = (): void => hangUp('input');
  const onStdinError = (): void => hangUp('input');
  // Writing a diagnostic to a terminal that is gone must not end the process as an uncaught error.
  const ignoreStderrError = (): void => {};
  const signalHandlers = new Map<NodeJS.Signals, () => void>();
  const ignoreHangup = (): void => {};
  let ignoringHangup = false;
  for (const signal of FORWARDED_SIGNALS) {
    const handler = (): void => options.onSignal(signal);
    signalHandlers.set(signal, handler);
    process.on(signal, handler);
  }
  const onProcessExit = (): void => restore({ now: true, synchronous: true });
  const onUncaught = (error: unknown): void => {
    restore({ now: true, synchronous: true });
    options.onFatal(error);
  };

  // The single place that gives the terminal back. While stty -opost still runs (≤ STTY_TIMEOUT_MS), it
  // waits for it, so the child's last output reaches the terminal as the child wrote it; `now` does not.
  function restore({ now = false, synchronous = false } = {}): void {
    if (restored) return;
    // Not started yet: it never will (the restore puts OPOST back anyway).
    cancelStty();
    if (stty && !now) {
      restoreWhenSttyDone = true;
      return;
    }
    restored = true;
    if (stty) {
      // Still running: kill it before raw mode is undone, so -opost can never land after the restore
      // (the kernel drops a TCSETSW with a fatal signal pending). Node's exit resets termios as well.
      try {
        stty.kill('SIGKILL');
      } catch {}
      releaseHeld();
    }
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
    // Once the terminal is given back the wrapper only finishes (the exit waits, at most a few seconds):
    // a hang-up still arriving from a terminal that went away (late on a busy machine) must not end it
    // by SIGHUP's default action instead of with the child's code.
    if (!ignoringHangup) process.on('SIGHUP', ignoreHangup);
    ignoringHangup = true;
    process.off('exit', onProcessExit);
    process.off('uncaughtException', onUncaught);
  }

  guardExitAgainstDeadTerminal();
  process.on('exit', onProcessExit);
  process.on('uncaughtException', onUncaught);
  stdout.on('error', onStdoutError);
  // Kept after restore too: setRawMode(false) on a hung-up tty emits 'error' on stdin.
  stdin.on('error', onStdinError);
  stdin.on('end', onStdinEnd);
  if (process.stderr.isTTY) process.stderr.on('error', ignoreStderrError);
  stdout.on('drain', onDrain);
  stdout.on('resize', onResize);
  // stty -opost, once: at the first write it matters to, or STTY_DELAY_MS after the child's spawn.
  function startStty(): void {
    cancelStty();
    if (restored) return;
    stty = disableOutputProcessing(stdin, stdout);
    stty?.once('exit', releaseHeld);
    stty?.once('error', releaseHeld);
  }
  function cancelStty(): void {
    sttyPending = false;
    if (sttyTimer) clearTimeout(sttyTimer);
    sttyTimer = undefined;
  }
  if (stdin.isTTY) {
    stdin.setRawMode(true);
    sttyPending = true;
  }
  stdin.on('data', onData);
  stdin.resume();

  return {
    get cols() {
      return terminalSize(stdout).cols;
    },
    get rows() {
      return terminalSize(stdout).rows;
    },
    write(data) {
      if (sttyPending && touchedByOutputProcessing(data)) startStty();
      if (!stty) return writeOut(data);
      held.push(data);
      heldBytes += data.length;
      if (heldBytes > HOLD_LIMIT_BYTES && !blocked) {
        blocked = true;
        options.onBackpressure(true);
      }
    },
    restore: () => restore(),
    childStarted(isRunning) {
      if (!sttyPending || sttyTimer) return;
      // A child that is already gone (its exit not yet seen: timers run before I/O in a loop turn) prints
      // no more: no fork for it. One that runs on gets stty, however slow the machine made its start.
      sttyTimer = setTimeout(() => (isRunning() ? startStty() : cancelStty()), STTY_DELAY_MS);
      sttyTimer.unref();
    },
    async drained() {
      if (stty) await new Promise<void>((resolve) => sttyWaiters.push(resolve));
      if (broken || stdout.writableLength === 0) return;
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
