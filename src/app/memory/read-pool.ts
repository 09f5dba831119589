/**
 * The scan's read pool (issue #42): the files a refresh reads whole, read on worker threads
 * (index-worker.ts) and, beside them, on the scan's own thread, while that thread writes the rows. The
 * outcomes are handed back in the scan's order (newest first), so the rows, their names (unique per folder,
 * given in write order) and the progress are those of a read on one thread. The database is never touched
 * here. A worker that fails or dies hands its files back to the scan's thread, which reads them as a
 * refresh without a pool would: no file is left unanswered, none is marked for a worker's fault.
 */
import { availableParallelism, cpus } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { debugLog } from '../../util/debug-log.js';
import { nodeRequire } from '../../util/node-require.js';
import type { IndexWorkerReply, IndexWorkerRequest } from './index-worker.js';
import type { FileToRead, ReadContext, WholeRead, WholeReader } from './read-whole.js';

/** At most this many worker threads: the scan's own thread also reads, and writes every row. */
export const POOL_MAX_WORKERS = 2;
/**
 * A refresh uses the pool when it reads at least this many files whole, or this many bytes in two files
 * or more (either is ~1.4 s of reading on the bench's 2-core box); below that a worker's start (~100 ms
 * of CPU to load the parsers, 130-290 ms until it is ready) costs about what it saves.
 */
export const POOL_MIN_FILES = 40;
export const POOL_MIN_BYTES = 8 * 1024 * 1024;
/** Outcomes read ahead of the one the scan writes next, at most (their rows wait in memory). */
const WINDOW = 32;
/**
 * Files a worker holds at once: the one it reads and the next, which waits in its queue unread (the
 * worker reads one file at a time: a second file loaded beside it raised the peak RSS, 265 MB against
 * 248 MB on the small bench home, for no time saved). With one, a worker that ended a file idled until
 * this thread, busy with a file or a write, got to send it the next: the first index of the bench's
 * 10,000 sessions kept 1.58 of the 2 cores busy.
 */
const WORKER_DEPTH = 2;

/** How long the pool looks at the cores before it starts workers (this thread reads meanwhile). */
const IDLE_SAMPLE_MS = 200;

/**
 * The most worker threads a pool of `files` may start: none when the pool would not pay (see above), else
 * one per core but one, at most POOL_MAX_WORKERS; the pool starts only as many as there are idle cores
 * (idleCores). `workers` (tests): that many, started at once whatever the cores do; `cores` (tests).
 */
export function poolWorkers(files: readonly FileToRead[], opts: { minFiles?: number; workers?: number; cores?: number } = {}): number {
  const bytes = files.reduce((n, f) => n + f.size, 0);
  const big = files.length >= (opts.minFiles ?? POOL_MIN_FILES) || (files.length >= 2 && bytes >= POOL_MIN_BYTES);
  if (!big) return 0;
  if (opts.workers !== undefined) return opts.workers;
  return Math.max(0, Math.min((opts.cores ?? availableParallelism()) - 1, POOL_MAX_WORKERS));
}

/**
 * When the CPU times were read (ms), each CPU's busy time then (user, nice, system, irq: ms) and this
 * process's own CPU time (every thread of it: ms).
 */
export interface CpuTimes { at: number; busy: number[]; own: number }
function cpuTimes(): CpuTimes {
  const own = process.cpuUsage();
  return { at: performance.now(), busy: cpus().map(({ times: t }) => t.user + t.nice + t.sys + t.irq), own: (own.user + own.system) / 1000 };
}

/**
 * The cores other processes left idle between two readings of the CPU times, less one for this thread
 * (rounded): the workers that would have a core of their own. Only those are started: on the 2-core
 * bench box with another process holding a core, a worker made `index --rebuild` of the small home
 * slower (18.2-20.8 s against 15.3-19.7 s on one thread, 2-3 s more CPU: the threads took turns on one
 * core, each compiling and collecting its own heap). This process's own time is left out: while it warms
 * up, its compiler and collector threads kept ~0.6 of the second core busy (1.56 cores in all, the box
 * 1.63), which no worker would have to share for long. Not the load average: it lags a minute and counts
 * the last `index` run itself. Idle is what was not busy, so a core waiting on the disk counts as idle;
 * the busy share of all the CPUs listed is applied to `cores` (a container may list the host's CPUs).
 */
export function idleCores(before: CpuTimes, after: CpuTimes, cores: number = availableParallelism()): number {
  const elapsed = after.at - before.at;
  const listed = Math.min(before.busy.length, after.busy.length);
  if (elapsed <= 0 || listed === 0) return cores - 1;
  let busy = 0;
  for (let i = 0; i < listed; i++) busy += Math.max(0, (after.busy[i] ?? 0) - (before.busy[i] ?? 0));
  const others = Math.max(0, busy - (after.own - before.own));
  const share = Math.min(1, others / (elapsed * listed));
  return Math.max(0, Math.round(cores * (1 - share)) - 1);
}

export interface ReadPool {
  /** The outcome of `files[k]`; asked in order of k (earlier outcomes are dropped then). Never rejects. */
  outcome(k: number): Promise<WholeRead>;
  /** Worker threads started so far. */
  readonly threads: number;
  /** Ends the workers (awaited); outcomes not yet asked for are dropped. */
  close(): Promise<void>;
}

interface Slot {
  worker: Worker;
  /** Its parsers are loaded: it may be sent files. */
  ready: boolean;
  /** The files it was given and has not answered. */
  busy: Set<number>;
  dead: boolean;
}

/**
 * Reads `files` (in the scan's order) on `workers` threads of `workerUrl` and on this thread with
 * `inline`. A worker is sent files once it is ready, one at a time. With no worker alive (none could
 * start, or all failed) every file is read on this thread, two at a time as the scan's own read-ahead
 * does. The workers start after IDLE_SAMPLE_MS, as many as idleCores says then, up to `workers`;
 * `now` (tests): all of them at once. `mainReads: false` (tests): this thread reads only what no live
 * worker can.
 */
export function startReadPool(files: readonly FileToRead[], ctx: ReadContext, inline: WholeReader, opts: { workerUrl: URL; workers: number; now?: boolean; mainReads?: boolean }): ReadPool {
  const settled = new Map<number, WholeRead>();
  const waiting = new Map<number, (out: WholeRead) => void>();
  // Files of a failed worker, read again on this thread before anything else.
  const retry: number[] = [];
  const slots: Slot[] = [];
  let next = 0;
  let cursor = 0;
  let inlineBusy = 0;
  let closed = false;
  // Files read by the workers and here, for the debug log (how the work split).
  let byWorkers = 0;
  let here = 0;

  const settle = (k: number, out: WholeRead) => {
    if (k < cursor || settled.has(k)) return;
    const resolve = waiting.get(k);
    if (resolve) {
      waiting.delete(k);
      resolve(out);
    } else settled.set(k, out);
  };

  const readInline = (k: number) => {
    const f = files[k] as FileToRead;
    inlineBusy++;
    here++;
    Promise.resolve()
      .then(() => inline.finish(f, inline.load(f)))
      .catch((error: unknown): WholeRead => ({ kind: 'unreadable', error: error instanceof Error ? error.message : String(error) }))
      .then((out) => {
        inlineBusy--;
        settle(k, out);
        pump();
      });
  };

  // A worker that failed: its unanswered files go back to this thread, in order; it takes no more.
  const fail = (slot: Slot, why: string) => {
    if (slot.dead) return;
    slot.dead = true;
    debugLog('memory', 'index: a read worker failed; its files are read on the main thread', { error: why, files: slot.busy.size });
    retry.push(...slot.busy);
    retry.sort((a, b) => a - b);
    slot.busy.clear();
    void slot.worker.terminate();
    pump();
  };

  const start = (): Slot | undefined => {
    let worker: Worker;
    try {
      // The context's own fields only, copied (a caller's object may hold more than can be posted).
      const data: ReadContext = { env: { ...ctx.env }, home: ctx.home, cwd: ctx.cwd, folders: [...ctx.folders], options: ctx.options };
      // Loaded here, not up front: Node's worker_threads takes ~2.5 ms to load, and every read command's
      // refresh loads this file while few start a pool.
      const threads = nodeRequire<typeof import('node:worker_threads')>('node:worker_threads');
      worker = new threads.Worker(opts.workerUrl, { workerData: data });
    } catch (error) {
      debugLog('memory', 'index: a read worker did not start', { error: (error as Error).message });
      return undefined;
    }
    const slot: Slot = { worker, ready: false, busy: new Set(), dead: false };
    worker.on('message', (reply: IndexWorkerReply) => {
      if (slot.dead) return;
      if (reply.kind === 'failed') return fail(slot, reply.error);
      if (reply.kind === 'ready') {
        slot.ready = true;
        return pump();
      }
      if (!slot.busy.has(reply.id)) return;
      slot.busy.delete(reply.id);
      byWorkers++;
      settle(reply.id, reply);
      pump();
    });
    worker.on('messageerror', (error) => fail(slot, `a reply could not be read: ${error.message}`));
    worker.on('error', (error) => fail(slot, error.message));
    worker.on('exit', (code) => fail(slot, `it exited (code ${code})`));
    return slot;
  };

  // Hands out files while a reader has room and the window allows; the window keeps the rows waiting
  // for an earlier, slower file few.
  function pump() {
    if (closed) return;
    const open = () => next < files.length && next < cursor + WINDOW;
    const live = slots.filter((s) => !s.dead);
    // This thread reads one file at a time beside live workers (it also writes), two without them.
    const inlineDepth = live.length === 0 ? 2 : 1;
    while (retry.length > 0 && inlineBusy < inlineDepth) readInline(retry.shift() as number);
    for (const s of live) {
      if (!s.ready) continue;
      while (s.busy.size < WORKER_DEPTH && open()) {
        const k = next++;
        s.busy.add(k);
        const f = files[k]!;
        // Only what a read uses (a SessionFileInfo holds more), the grown part's start and old text with it.
        const request: IndexWorkerRequest = { id: k, file: { file: f.file, agent: f.agent, size: f.size, mtimeMs: f.mtimeMs, ...(f.grownFrom ? { grownFrom: f.grownFrom, prevText: f.prevText } : {}) } };
        s.worker.postMessage(request);
      }
    }
    if (opts.mainReads !== false || live.length === 0) while (inlineBusy < inlineDepth && open()) readInline(next++);
  }

  const startWorkers = (n: number) => {
    for (let i = 0; i < n; i++) {
      const slot = start();
      if (slot) slots.push(slot);
    }
    pump();
  };
  let sampling: NodeJS.Timeout | undefined;
  if (opts.now) startWorkers(opts.workers);
  else {
    const before = cpuTimes();
    sampling = setTimeout(() => {
      sampling = undefined;
      if (closed) return;
      const now = cpuTimes();
      const idle = idleCores(before, now);
      const elapsed = now.at - before.at;
      const busy = now.busy.reduce((n, b, i) => n + b - (before.busy[i] ?? 0), 0);
      debugLog('memory', 'index: read pool: cores', { workers: Math.min(opts.workers, idle), idle, busy: busy / elapsed, own: (now.own - before.own) / elapsed });
      startWorkers(Math.min(opts.workers, idle));
    }, IDLE_SAMPLE_MS);
    sampling.unref();
    pump();
  }

  return {
    get threads() {
      return slots.length;
    },
    outcome(k) {
      for (const key of settled.keys()) if (key < k) settled.delete(key);
      cursor = k;
      pump();
      const out = settled.get(k);
      if (out) {
        settled.delete(k);
        return Promise.resolve(out);
      }
      return new Promise((resolve) => waiting.set(k, resolve));
    },
    async close() {
      if (!closed) debugLog('memory', 'index: read pool', { workers: slots.length, files: files.length, byWorkers, here });
      closed = true;
      clearTimeout(sampling);
      for (const s of slots) s.dead = true;
      await Promise.all(slots.map((s) => s.worker.terminate().catch(() => undefined)));
    },
  };
}
