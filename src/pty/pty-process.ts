/**
 * PtyProcess: a child program on a pseudo-terminal, in node-pty's IPty shape: the contract the app
 * programs against, and the pty layer's public names. The implementation is split by concern:
 * spawn.ts (node-pty wiring), exit-drain.ts (exit-race fix), input-writer.ts (direct writes to the
 * master), signal-targets.ts, command-lookup.ts (PATH search before any spawn). Private node-pty
 * access lives in util/private-internals.ts.
 */
export interface Disposable {
  dispose(): void;
}

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

// Importers use these names from this file (src/app/wrap-session.ts, tests).
export { resolveCommand, type ResolvedCommand } from './command-lookup.js';
export { readForegroundGroup, signalTargets } from './signal-targets.js';
export { spawnPty } from './spawn.js';
