/**
 * The pty layer's contract types (the child on a pty, its exit, how to spawn it), apart from
 * pty-process.ts so the implementation files can use them without importing back the module that
 * re-exports them (no import circle; test/unit/import-cycles.test.ts).
 */
import type { Disposable } from '../types.js';

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
