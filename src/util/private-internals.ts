/**
 * Every place recapwrap reaches into another package's private parts, behind typed, narrow functions:
 * node-pty's native fork, a pty's master fd and slave name, its close event and destroy(); xterm's
 * `_core` (scroll region, saved cursor, current attributes). Each function says what it falls back to
 * when the private thing is missing or changed, and probePrivateInternals() reports which ones work
 * with the installed versions (`recapwrap doctor`). Both packages are pinned to exact versions in
 * package.json for this reason. Nothing here is loaded eagerly: it sits on the start-up path.
 */
import { createRequire } from 'node:module';
import type { IBufferCell, Terminal as HeadlessTerminal } from '@xterm/headless';
import type { IPty } from 'node-pty';

// ---------------------------------------------------------------------------------------------------
// node-pty

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

// Load node-pty on first use (keeps `--help` and subcommands from paying for it).
export function loadNodePty(): NodePtyModule {
  if (nodePty) return nodePty;
  // In the CommonJS build (dist/) `require` is the module's own: resolving from
  // import.meta.url there meant building a file URL and parsing it back, ~1 ms of first use of URL.
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

// ---------------------------------------------------------------------------------------------------
// @xterm/headless

/** Cell attribute accessors shared by IBufferCell and xterm's internal AttributeData. */
export type CellAttributes = Pick<IBufferCell, 'isBold' | 'isDim' | 'isItalic' | 'isUnderline' | 'isBlink' | 'isInverse' | 'isInvisible' | 'isStrikethrough' | 'isFgRGB' | 'isFgPalette' | 'getFgColor' | 'isBgRGB' | 'isBgPalette' | 'getBgColor'> & { isOverline?: () => number };

interface XtermCore {
  _core?: {
    buffers?: { active?: { savedX?: unknown; savedY?: unknown; savedCurAttrData?: unknown; scrollTop?: unknown } };
    _inputHandler?: { _curAttrData?: unknown };
  };
}

let Terminal: typeof HeadlessTerminal | undefined;
// @xterm/headless is CommonJS without named ESM exports; its typings declare named ones. Loaded on
// first use: the wrapper bundles the screen copy for the inline fallback but runs it in a worker, and
// loading xterm cost ~16 ms of the main thread before the agent started (and its memory for nothing).
export function loadXtermTerminal(): typeof HeadlessTerminal {
  return (Terminal ??= (createRequire(import.meta.url)('@xterm/headless') as { Terminal: typeof HeadlessTerminal }).Terminal);
}

const coreOf = (term: HeadlessTerminal) => (term as unknown as XtermCore)._core;
const isAttributes = (value: unknown): value is CellAttributes =>
  typeof value === 'object' && value !== null && typeof (value as CellAttributes).isBold === 'function' && typeof (value as CellAttributes).getFgColor === 'function';

/**
 * The active buffer's scroll region top (DECSTBM), which the public API does not expose.
 * Fallback: undefined; callers count from row 0, which places the cursor wrong only while the agent
 * has origin mode on with a scroll region that does not start at the top.
 */
export function readXtermScrollTop(term: HeadlessTerminal): number | undefined {
  const top = coreOf(term)?.buffers?.active?.scrollTop;
  return typeof top === 'number' ? top : undefined;
}

/** The cursor slot DECSC / SCOSC saved: position (0-based, screen rows) and attributes. */
export interface SavedCursor {
  x: number;
  y: number;
  attributes: CellAttributes;
}

/**
 * The saved-cursor slot of the active buffer. Fallback: undefined; the slot is not rebuilt after our
 * own DECSC/DECRC, so an agent's later DECRC returns to where the cursor was when the bar was drawn
 * (usually where the agent left it) with the attributes in force then.
 */
export function readXtermSavedCursor(term: HeadlessTerminal): SavedCursor | undefined {
  const active = coreOf(term)?.buffers?.active;
  if (!active || typeof active.savedX !== 'number' || typeof active.savedY !== 'number' || !isAttributes(active.savedCurAttrData)) return undefined;
  return { x: active.savedX, y: active.savedY, attributes: active.savedCurAttrData };
}

/**
 * The attributes the agent's next text will be written with (the parser's current SGR state).
 * Fallback: undefined; callers then leave the terminal's SGR as their own drawing left it, so the
 * agent's next unstyled text may take the last rebuilt cell's attributes until its next SGR.
 */
export function readXtermCurrentAttributes(term: HeadlessTerminal): CellAttributes | undefined {
  const current = coreOf(term)?._inputHandler?._curAttrData;
  return isAttributes(current) ? current : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Self-check

export type ProbeStatus = 'ok' | `fallback: ${string}`;

/** Which private accesses work with the installed versions (doctor prints it). */
export interface InternalsReport {
  /** The native fork hook (exit known as soon as waitpid() returns). */
  nodePtyFork: ProbeStatus;
  /** `_fd`/`_socket`: input written straight to the master. */
  nodePtyMaster: ProbeStatus;
  /** `ptsName`: the slave held open to drain the last output. */
  nodePtyPtsName: ProbeStatus;
  /** `on('close')` and `destroy()`. */
  nodePtyClose: ProbeStatus;
  /** `_core`: scroll region, saved cursor, current attributes. */
  xtermCore: ProbeStatus;
}

const PROBE_EXIT_TIMEOUT_MS = 2000;

// Spawn a child that exits at once and look at its pty the way spawnPty does (node-pty's open()
// would need no child, but its destroy() then signals pid -1: every process we may signal).
async function probeNodePty(lib: NodePtyModule): Promise<Pick<InternalsReport, 'nodePtyMaster' | 'nodePtyPtsName' | 'nodePtyClose'>> {
  let term: IPty;
  try {
    term = lib.spawn('/bin/sh', ['-c', 'exit 0'], { cols: 20, rows: 5, cwd: '/', env: { PATH: '/usr/bin:/bin' } });
  } catch (error) {
    const why: ProbeStatus = `fallback: could not spawn a probe (${(error as Error).message})`;
    return { nodePtyMaster: why, nodePtyPtsName: why, nodePtyClose: why };
  }
  // destroy() is only looked at: called on a live probe it would hang the child up, not test anything.
  const canDestroy = typeof (term as unknown as { destroy?: unknown }).destroy === 'function';
  const report = {
    nodePtyMaster: readPtyMaster(term) ? 'ok' : 'fallback: no _fd/_socket; input goes through node-pty write()',
    nodePtyPtsName: readPtsName(term) ? 'ok' : 'fallback: no ptsName; the last output before exit may be lost',
    nodePtyClose: onPtyClose(term, () => undefined) && canDestroy ? 'ok' : 'fallback: no on/destroy; exit waits a quiet time instead of the close',
  } as const;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, PROBE_EXIT_TIMEOUT_MS);
    term.onExit(() => {
      clearTimeout(timer);
      resolve();
    });
  });
  return report;
}

function probeXterm(): ProbeStatus {
  let term: HeadlessTerminal;
  try {
    term = new (loadXtermTerminal())({ cols: 10, rows: 3, allowProposedApi: true });
  } catch (error) {
    return `fallback: @xterm/headless did not load (${(error as Error).message})`;
  }
  const missing = [
    readXtermScrollTop(term) === undefined && 'scroll region',
    readXtermSavedCursor(term) === undefined && 'saved cursor',
    readXtermCurrentAttributes(term) === undefined && 'current attributes',
  ].filter((m): m is string => typeof m === 'string');
  term.dispose();
  return missing.length === 0 ? 'ok' : `fallback: no _core ${missing.join(', ')}; the bar still draws, the agent's saved cursor is not rebuilt`;
}

/** Try every private access against the installed packages (spawns one short-lived child on a pty). */
export async function probePrivateInternals(lib?: NodePtyModule): Promise<InternalsReport> {
  let pty: NodePtyModule;
  try {
    pty = lib ?? loadNodePty();
  } catch (error) {
    const why: ProbeStatus = `fallback: node-pty did not load (${(error as Error).message})`;
    return { nodePtyFork: why, nodePtyMaster: why, nodePtyPtsName: why, nodePtyClose: why, xtermCore: probeXterm() };
  }
  const nodePtyFork: ProbeStatus = hookNativeFork(pty) ? 'ok' : "fallback: no native.fork; exit is learned from node-pty's own (later) event";
  return { nodePtyFork, ...(await probeNodePty(pty)), xtermCore: probeXterm() };
}
