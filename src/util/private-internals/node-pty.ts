/**
 * node-pty's private parts, the half of private-internals the wrapper's pty layer needs (the wrap start
 * path loads this file, never xterm's): its native fork (the exit as soon as waitpid() returns), a pty's
 * master fd and slave name, its close event and destroy(). Each function says what it falls back to
 * when the private thing is missing or changed; index.ts's self-check reports which work.
 */
import type { IPty } from 'node-pty';
import { createRequire } from 'node:module';

/** What node-pty's module looks like to us: its public API plus the undocumented `native` binding. */
export type NodePtyModule = Pick<typeof import('node-pty'), 'spawn'> & { native?: unknown };

/** Called with the child's exit as soon as waitpid() returns, in place of node-pty's own callback. */
export type NativeExitHook = (exitCode: number, signal: number) => void;

interface NativePty {
  fork: (...args: unknown[]) => unknown;
  __recapwrapExitHook?: boolean;
}

let nodePty: NodePtyModule | undefined;
let nextExitHook: NativeExitHook | undefined;

// Load node-pty on first use (keeps `--help` and subcommands from paying for it). In the CommonJS
// build (dist/) `require` is the module's own: resolving from import.meta.url there meant building a
// file URL and parsing it back, ~1 ms of first use of URL on the wrapper's start path. Run from the
// sources (vitest, ESM) there is no `require`, and createRequire's serves.
export function loadNodePty(): NodePtyModule {
  if (nodePty) return nodePty;
  const load = typeof require === 'function' ? require : createRequire(import.meta.url);
  nodePty = load('node-pty') as NodePtyModule;
  return nodePty;
}

function asNativePty(native: unknown): NativePty | undefined {
  return typeof native === 'object' && native !== null && typeof (native as NativePty).fork === 'function' ? (native as NativePty) : undefined;
}

/**
 * Wrap node-pty's native fork() once per process, so that a spawn armed with armNativeExitHook()
 * learns of the child's exit as soon as waitpid() returns (node-pty's own exit event waits for its
 * socket to close, and is never called for an armed spawn). Returns whether the hook is in place.
 * Fallback (no `native.fork`): false; the caller uses node-pty's own onExit, which still reports the
 * exit, only later and without our drain of the last output.
 */
export function hookNativeFork(lib: NodePtyModule): boolean {
  const native = asNativePty(lib.native);
  if (!native) return false;
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
  return true;
}

/** Arm the hook for the next fork only (the spawn right after this call); disarm once it returned or threw. */
export function armNativeExitHook(hook: NativeExitHook): void {
  nextExitHook = hook;
}
export function disarmNativeExitHook(): void {
  nextExitHook = undefined;
}

/** The pty master as node-pty 1.x keeps it: the fd, and the socket that owns (and closes) it. */
export interface PtyMaster {
  fd: number;
  /** True once the socket closed the fd (a loop turn before its 'close' event). */
  isClosed(): boolean;
}

/**
 * The master's fd (`_fd`) and its socket (`_socket`), for writing input with write(2) directly.
 * Fallback (either missing or of another type): undefined; input goes through node-pty's own write().
 */
export function readPtyMaster(term: IPty): PtyMaster | undefined {
  const { _fd: fd, _socket: socket } = term as unknown as { _fd?: unknown; _socket?: { destroyed?: unknown } };
  if (typeof fd !== 'number' || typeof socket?.destroyed !== 'boolean') return undefined;
  return { fd, isClosed: () => socket.destroyed === true };
}

/**
 * The slave side's device path (`ptsName`, a getter on node-pty's UnixTerminal, untyped in IPty).
 * Fallback: undefined; the caller cannot hold the slave open, and loses the exit drain, not the session.
 */
export function readPtsName(term: IPty): string | undefined {
  const name = (term as unknown as { ptsName?: unknown }).ptsName;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/**
 * Listen for node-pty's 'close' (its socket read EIO or was destroyed: the master's fd is closed).
 * Fallback (no `on`): false, and the listener is never called; an exit drain then waits its quiet
 * time instead of the close.
 */
export function onPtyClose(term: IPty, listener: () => void): boolean {
  const on = (term as unknown as { on?: unknown }).on;
  if (typeof on !== 'function') return false;
  (on as (event: 'close', listener: () => void) => void).call(term, 'close', listener);
  return true;
}

/**
 * Close node-pty's socket and fd (UnixTerminal.destroy(), untyped in IPty) when the child is gone but
 * a background job still holds the pty. Fallback (no `destroy`): false; the socket stays open until
 * the last holder of the slave closes it. Errors are swallowed: the pty may be closing already.
 */
export function destroyPty(term: IPty): boolean {
  const destroy = (term as unknown as { destroy?: unknown }).destroy;
  if (typeof destroy !== 'function') return false;
  try {
    (destroy as () => void).call(term);
  } catch {
    // Already closing.
  }
  return true;
}
