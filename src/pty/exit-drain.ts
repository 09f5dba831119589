/**
 * The exit-race fix from terminal.md (node-pty #72: output written just before exit is lost). We hold
 * our own fd on the slave so the master never reads EIO before it is drained, learn of the exit from
 * the native fork hook as soon as waitpid() returns, and let go of the slave once output has been quiet.
 * Without the hook (see util/private-internals/node-pty.ts) node-pty's own exit event ends the session instead.
 */
import { closeSync, constants, openSync } from 'node:fs';
import type { IPty } from 'node-pty';
import {
  armNativeExitHook, destroyPty, disarmNativeExitHook, hookNativeFork, onPtyClose, readPtsName, type NodePtyModule,
} from '../util/private-internals/node-pty.js';
import type { PtyExit } from './pty-types.js';

/** Output quiet time after the child's exit before we let go of the slave side (measured: 15 ms). */
const EXIT_DRAIN_QUIET_MS = 15;
const EXIT_DRAIN_POLL_MS = 5;
/** After our slave fd is closed, how long to wait for EIO (a background job may still hold the pty). */
const EXIT_CLOSE_FALLBACK_MS = 200;

export interface ExitDrainHooks {
  /** Reading is paused (backpressure): the child's output is not drained while it is. */
  isPaused(): boolean;
  /** node-pty closed its socket, and the master's fd with it. */
  onMasterClosed(): void;
  /** The child exited and every byte it wrote has been delivered. Called once, unless stop() came first. */
  onExit(exit: PtyExit): void;
}

export interface ExitDrain {
  /** Call on every chunk of output: the drain waits for output to go quiet. */
  noteOutput(): void;
  /** The session is over: cancel any pending wait and close our slave fd. Idempotent. */
  stop(): void;
}

// Spawn through `spawn` (node-pty's spawn with its options) with the drain armed for that fork, then
// watch the new pty until the child has exited and its output is drained.
export function spawnWithExitDrain(lib: NodePtyModule, spawn: () => IPty, hooks: ExitDrainHooks): { term: IPty; drain: ExitDrain } {
  const useHook = hookNativeFork(lib);
  let nativeExit: PtyExit | undefined;
  let onNativeExit: (() => void) | undefined;
  if (useHook) {
    armNativeExitHook((exitCode, signal) => {
      nativeExit = signal ? { exitCode, signal } : { exitCode };
      onNativeExit?.();
    });
  }
  let term: IPty;
  try {
    term = spawn();
  } finally {
    disarmNativeExitHook();
  }

  // Hold our own fd on the slave so the master never reads EIO before it is drained.
  let slaveFd = -1;
  const ptsName = readPtsName(term);
  try {
    if (ptsName) slaveFd = openSync(ptsName, constants.O_RDWR | constants.O_NOCTTY);
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

  let lastDataAt = 0;
  let stopped = false;
  let socketClosed = false;
  let drainTimer: NodeJS.Timeout | undefined;
  const drain: ExitDrain = {
    noteOutput() {
      lastDataAt = Date.now();
    },
    stop() {
      stopped = true;
      if (drainTimer) clearTimeout(drainTimer);
      closeSlave();
    },
  };
  const done = (exit: PtyExit): void => {
    if (stopped) return;
    drain.stop();
    hooks.onExit(exit);
  };

  onPtyClose(term, () => {
    socketClosed = true;
    hooks.onMasterClosed();
    if (useHook && nativeExit) done(nativeExit);
  });

  if (useHook) {
    // After waitpid(): wait until output has been quiet (and we are reading), then let go of the
    // slave; the master then drains and reads EIO, which closes the socket and ends the session.
    onNativeExit = () => {
      const waitForQuiet = (): void => {
        if (stopped) return;
        if (hooks.isPaused() || Date.now() - lastDataAt < EXIT_DRAIN_QUIET_MS) {
          drainTimer = setTimeout(waitForQuiet, EXIT_DRAIN_POLL_MS);
          return;
        }
        closeSlave();
        if (socketClosed) return done(nativeExit as PtyExit);
        waitForClose(Date.now());
      };
      // A background job may still hold the pty open (or node-pty's close event is out of reach): give
      // up on EIO once it has been quiet a while.
      const waitForClose = (since: number): void => {
        if (stopped) return;
        if (hooks.isPaused() || Date.now() - Math.max(since, lastDataAt) < EXIT_CLOSE_FALLBACK_MS) {
          drainTimer = setTimeout(() => waitForClose(since), EXIT_DRAIN_POLL_MS * 4);
          return;
        }
        destroyPty(term);
        done(nativeExit as PtyExit);
      };
      setImmediate(waitForQuiet); // first check at once (a timer would wait ≥ 1 ms): a quiet child is let go without delay
    };
  } else {
    term.onExit(({ exitCode, signal }) => done(signal ? { exitCode, signal } : { exitCode }));
  }
  return { term, drain };
}
