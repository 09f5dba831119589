/**
 * The scan's read pool (issue #42): the files a refresh reads whole, read on worker threads
 * (index-worker.ts) and, beside them, on the scan's own thread, while that thread writes the rows. The
 * outcomes are handed back in the scan's order (newest first), so the rows, their names (unique per folder,
 * given in write order) and the progress are those of a read on one thread. The database is never touched
 * here. A worker that fails or dies hands its files back to the scan's thread, which reads them as a
 * refresh without a pool would: no file is left unanswered, none is marked for a worker's fault.
 */
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { debugLog } from '../../util/debug-log.js';
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
 * Files a worker holds at once. One: a file's own reads already overlap its parse (load.ts), and a second
 * file loaded beside it raised the peak RSS (2 workers, small bench home: 265 MB against 248 MB) for no
 * time that the noise of a shared box let us see.
 */
const WORKER_DEPTH = 1;

/**
 * The worker threads a pool of `files` would start: none when the pool would not pay (see above); else
 * one per core left idle once this thread has one (cores less the last minute's load average, rounded),
 * at most POOL_MAX_WORKERS. The idle cores, not all of them: on the 2-core bench box with another
 * process holding a core, a worker made `index --rebuild` of the small home slower (18-21 s against
 * 15-20 s for one thread, +2-3 s CPU: the two threads took turns on one core, each compiling and
 * collecting its own heap). `workers` (tests): that many, once the pool pays; `cores`, `load` (tests).
 */
export function poolWorkers(files: readonly FileToRead[], opts: { minFiles?: number; workers?: number; cores?: number; load?: number } = {}): number {
  const bytes = files.reduce((n, f) => n + f.size, 0);
  const big = files.length >= (opts.minFiles ?? POOL_MIN_FILES) || (files.length >= 2 && bytes >= POOL_MIN_BYTES);
  if (!big) return 0;
  if (opts.workers !== undefined) return opts.workers;
  const cores = opts.cores ?? availableParallelism();
  // loadavg() is [0, 0, 0] where the system has none (Windows): then every core counts as idle.
  const idle = Math.round(cores - (opts.load ?? loadavg()[0] ?? 0));
  return Math.max(0, Math.min(cores - 1, idle - 1, POOL_MAX_WORKERS));
}

export interface ReadPool {
  /** The outcome of `files[k]`; asked in order of k (earlier outcomes are dropped then). Never rejects. */
  outcome(k: number): Promise<WholeRead>;
  /** Worker threads that were started. */
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
 * does. `mainReads: false` (tests): this thread reads only what no live worker can.
 */
export function startReadPool(files: readonly FileToRead[], ctx: ReadContext, inline: WholeReader, opts: { workerUrl: URL; workers: number; mainReads?: boolean }): ReadPool {
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
      worker = new Worker(opts.workerUrl, { workerData: data });
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
        const request: IndexWorkerRequest = { id: k, file: { file: files[k]!.file, agent: files[k]!.agent, size: files[k]!.size, mtimeMs: files[k]!.mtimeMs } };
        s.worker.postMessage(request);
      }
    }
    if (opts.mainReads !== false || live.length === 0) while (inlineBusy < inlineDepth && open()) readInline(next++);
  }

  for (let i = 0; i < opts.workers; i++) {
    const slot = start();
    if (slot) slots.push(slot);
  }
  const threads = slots.length;
  pump();

  return {
    threads,
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
      if (!closed) debugLog('memory', 'index: read pool', { workers: threads, files: files.length, byWorkers, here });
      closed = true;
      for (const s of slots) s.dead = true;
      await Promise.all(slots.map((s) => s.worker.terminate().catch(() => undefined)));
    },
  };
}
