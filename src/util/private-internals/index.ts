/**
 * Every place recapwrap reaches into another package's private parts is in this folder, behind typed,
 * narrow functions: node-pty's (node-pty.ts: native fork, master fd, slave name, close, destroy) and
 * xterm's `_core` (xterm.ts: scroll region, saved cursor, current attributes). Each function says what
 * it falls back to when the private thing is missing or changed, and probePrivateInternals() here
 * reports which ones work with the installed versions (`recapwrap doctor`). Both packages are pinned
 * to exact versions in package.json for this reason. Importers take the half they need from its own
 * file, so the wrapper's start never loads xterm's half.
 */
import type { Terminal as HeadlessTerminal } from '@xterm/headless';
import type { IPty } from 'node-pty';
import { hookNativeFork, loadNodePty, onPtyClose, readPtsName, readPtyMaster, type NodePtyModule } from './node-pty.js';
import { loadXtermTerminal, readXtermCurrentAttributes, readXtermSavedCursor, readXtermScrollTop } from './xterm.js';

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
