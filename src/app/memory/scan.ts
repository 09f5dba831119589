/**
 * The scan that keeps the index up to date with every agent's session folders: list the session files
 * (each adapter's listAllSessions, through the index's own folder listing: dir-cache.ts), skip those
 * whose size and mtime match what the index saw, read the rest with the transcript parsers and store
 * their heuristic card and condensed text. A full sweep looks at every file; a read's quick refresh only
 * at folders whose listing moved and recent sessions (SWEEP_MS, RECENT_MS). Files the scan no longer
 * finds keep their rows, marked gone. Forgotten files are not read again while they exist.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Env } from '../../config/paths.js';
import type { FileMark, Store } from '../../memory/store.js';
import type { SessionWrite } from '../../memory/types.js';
import type { RecapEngine } from '../../recap/engine.js';
import { listAgentSessions } from '../../transcripts/sessions.js';
import type { SessionFileInfo, SessionFolderLister } from '../../transcripts/types.js';
import { debugLog } from '../../util/debug-log.js';
import { isProcessAlive } from '../../util/process.js';
import { folderSweep } from './dir-cache.js';
import { poolWorkers, startReadPool, type ReadPool } from './read-pool.js';
import { folderAllowed, loadReaders, wholeReader, type FileToRead, type Loading, type ReadContext, type Readers, type WholeRead } from './read-whole.js';

export { folderAllowed };

/** A grown file at least this big is read from its mark (only what was appended), not whole again. */
export const TAIL_READ_MIN_BYTES = 4 * 1024 * 1024;
/**
 * A read refreshes quickly (only folders whose listing moved and sessions active in the last RECENT_MS)
 * while the last full sweep (every session file stat'ed) is less than SWEEP_MS old; else it sweeps.
 * So a change to an older session file (an old session resumed outside recapwrap) is seen by a read at
 * most SWEEP_MS after it was made; `index` always sweeps.
 */
export const SWEEP_MS = 10 * 60_000;
export const RECENT_MS = 24 * 3_600_000;
/** Sessions written per transaction by the scan, and the longest a parsed one waits to be written. */
const WRITE_BATCH = 50;
/** Fewest sessions a refresh writes before it merges the text indexes (Store.compact). */
const COMPACT_MIN_WRITES = 100;
const WRITE_BATCH_MS = 500;
/**
 * A refresh with at least this many files to read announces itself in the index (Store.beatRefresh, at
 * its start and at each batch it writes): a read that finds it alive (refreshingElsewhere) answers from
 * the last commit instead of reading the same files as well. A smaller one ends before that would help.
 */
export const ANNOUNCE_MIN_FILES = 200;
/**
 * An announced refresh that wrote no batch for this long counts as ended (its process may be gone and
 * its id taken by another): one file read whole takes seconds at most (a 100 MB one ~8 s).
 */
export const REFRESH_STALE_MS = 60_000;

export interface RefreshStats {
  /** Session files found in the agents' folders. */
  files: number;
  /** Read because new or changed. */
  read: number;
  /** Sessions written. */
  indexed: number;
  /** Left out: outside the configured folders, or unreadable. */
  skipped: number;
  /** Files no longer found (their rows stay). */
  gone: number;
  /** Files found that were forgotten (never read again while they exist). */
  forgotten?: number;
  ms: number;
  /** Every session file was stat'ed (else only the folders that moved and the recent sessions). */
  full: boolean;
  /** Worker threads that read files beside this one (absent: every file was read on this thread). */
  threads?: number;
  /** A write to the index failed: what failed (the refresh stopped there; nothing was marked). */
  error?: string;
  /** A read's refresh not run: this process (another recapwrap) is reading the session files now. */
  elsewhere?: number;
  /** A reader's refresh (ifIdle) left undone: another process held the index's write lock past the wait. */
  locked?: true;
}

export type ScanContext = ReadContext;

/** The `memoryFolders` option as absolute folders ('~' expanded); [] = every folder. */
export function allowedFolders(value: string, home: string): string[] {
  return value
    .split(/[:,]/)
    .map((f) => f.trim())
    .filter(Boolean)
    .map((f) => (f === '~' ? home : f.startsWith('~/') ? join(home, f.slice(2)) : f))
    .filter((f) => isAbsolute(f))
    .map((f) => resolve(f));
}

/** Every session file of every agent under their homes (and the env vars that move them). */
export async function listAllSessionFiles(ctx: { env: Env; home: string; cwd: string; sessionFilesIn?: SessionFolderLister }): Promise<SessionFileInfo[]> {
  const lists = await Promise.all(listAgentSessions().map((a) => a.listAllSessions(ctx).catch(() => [])));
  const seen = new Set<string>();
  return lists.flat().filter((f) => (seen.has(f.file) ? false : (seen.add(f.file), true)));
}

/**
 * A write to the index failed (a full disk, another writer's lock held past the busy timeout): not a
 * fault of any session file, so none is marked; the refresh stops and says so.
 */
export class IndexWriteError extends Error {
  constructor(cause: unknown) {
    super(`the session index could not be written (${(cause as Error).message}); nothing was marked, the next refresh reads these sessions again`, { cause });
  }
}

// Runs a write to the index; its failure becomes an IndexWriteError.
function writing<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw error instanceof IndexWriteError ? error : new IndexWriteError(error);
  }
}

/**
 * A big grown file: only the appended lines are parsed; the row keeps what it knew (first times, name,
 * title) and gets added counts, appended text and a card made from the latest turns (the appended part
 * and a window before it: cardWindow). False when the file cannot be read that way (then it is read whole).
 */
async function appendTail(store: Store, f: SessionFileInfo, from: number, engine: RecapEngine, lib: Readers): Promise<boolean> {
  const { loadSessionTail, tailWrite } = lib;
  const prev = store.byTranscript(f.file);
  if (!prev || !prev.transcriptExists) return false;
  const vocabulary = lib.vocabularyFor();
  const tail = await loadSessionTail(f.file, { agent: f.agent, from, onText: vocabulary.onText, wholeFile: true });
  if (!tail) return false;
  if (tail.snapshot.events.length === 0) {
    // Nothing complete was appended yet (a line being written): keep the card, move the mark.
    writing(() => store.setFile(f.file, tail.end, tail.end === f.size ? f.mtimeMs : 0, 'indexed'));
    return true;
  }
  const card = await lib.cardWindow(loadSessionTail, f.file, f.agent, from, tail.end);
  const write = tailWrite(prev, tail.snapshot, engine, { size: tail.end, mtimeMs: f.mtimeMs }, store.condensedText(prev.id), vocabulary.words, card);
  write.wordsFrom = from;
  writing(() => store.upsert(write));
  return true;
}

// The read pool's worker entry of the build (rolldown.config.mjs), found from dist/chunks/ or dist/cli/.
// Run from source (tests, unless they pass `pool.workerUrl`) there is none: every file is read here.
const INDEX_WORKER_URL = new URL('../cli/index-worker.cjs', import.meta.url);

// Reads the new and changed files and writes their rows, in batches. An IndexWriteError ends it (what
// was committed stays; the batch being built is dropped, its files unmarked). Many files to read whole:
// they are read on worker threads too (read-pool.ts), their outcomes taken in the same order.
async function readChanged(store: Store, ctx: ScanContext, todo: readonly SessionFileInfo[], marks: ReadonlyMap<string, FileMark>, stats: RefreshStats, todoBytes: number, opts: Pick<RefreshOptions, 'rebuild' | 'onProgress' | 'pool'>): Promise<void> {
  let doneBytes = 0;
  // Many files to read: said in the index while they are read (ANNOUNCE_MIN_FILES).
  const announced = todo.length >= ANNOUNCE_MIN_FILES;
  const beat = () => {
    if (announced) writing(() => store.beatRefresh(process.pid, Date.now()));
  };
  beat();
  const lib = await loadReaders();
  const reader = wholeReader(ctx, lib);
  // Writes go in batches: one transaction per batch, short enough that other writers barely wait.
  const pending: SessionWrite[] = [];
  let flushedAt = Date.now();
  const flush = () => {
    writing(() => store.upsertMany(pending));
    beat();
    stats.indexed += pending.length;
    pending.length = 0;
    flushedAt = Date.now();
  };
  // A big grown file is read from its mark (appendTail), the rest whole.
  const fromMark = (f: SessionFileInfo) => {
    const mark = marks.get(f.file);
    return !opts.rebuild && mark?.state === 'indexed' && mark.size >= TAIL_READ_MIN_BYTES && f.size > mark.size;
  };
  // A file that grew from where its row's words hold every word (words_at, schema step 11) is read whole
  // for its card and text, but only its new texts are taken apart for words, added to the row's.
  const toRead = (f: SessionFileInfo): FileToRead => {
    const mark = marks.get(f.file);
    const grownFrom = !opts.rebuild && mark?.state === 'indexed' && mark.size > 0 && f.size > mark.size && store.wordsAt(f.file) === mark.size ? mark.size : 0;
    if (grownFrom === 0) return f;
    // The row's condensed text read when the file is (by this thread, or as it is posted to a worker), not
    // here for every grown file at once: a sweep after a long break holds thousands of them.
    return {
      file: f.file,
      agent: f.agent,
      size: f.size,
      mtimeMs: f.mtimeMs,
      grownFrom,
      get prevText() {
        return store.condensedTextOf(f.file);
      },
    };
  };
  const whole = todo.filter((f) => !fromMark(f)).map(toRead);
  const wholeOf = new Map(whole.map((f) => [f.file, f]));
  const workerUrl = opts.pool?.workerUrl ?? INDEX_WORKER_URL;
  const workers = poolWorkers(whole, opts.pool ?? {});
  let pool: ReadPool | undefined;
  if (workers > 0 && existsSync(fileURLToPath(workerUrl))) {
    pool = startReadPool(whole, ctx, reader, { workerUrl, workers, now: opts.pool?.workers !== undefined, mainReads: opts.pool?.mainReads });
  }
  // Without the pool, the next file read whole is opened and read while this one is made into its row:
  // its reads wait on the disk's threads, not on this work (~1/10 of a first index waited on them).
  let ahead: Loading | undefined;
  const readAhead = (f: SessionFileInfo | undefined) => {
    if (!f || fromMark(f)) return;
    ahead = reader.load(wholeOf.get(f.file) ?? f);
  };
  // The k-th file of `whole`, for the pool.
  let k = 0;
  try {
    for (let i = 0; i < todo.length; i++) {
      const f = todo[i] as SessionFileInfo;
      stats.read++;
      const mark = marks.get(f.file);
      try {
        const tail = fromMark(f);
        if (tail && (await appendTail(store, f, mark?.size ?? 0, reader.engineFor(f.agent), lib))) {
          stats.indexed++;
          doneBytes += f.size;
          opts.onProgress?.(stats.read, todo.length, doneBytes, todoBytes);
          continue;
        }
        let out: WholeRead;
        if (pool && !tail) out = await pool.outcome(k++);
        else {
          const loaded = ahead?.file === f.file ? ahead : reader.load(wholeOf.get(f.file) ?? f);
          ahead = undefined;
          if (!pool) readAhead(todo[i + 1]);
          out = await reader.finish(f, loaded);
        }
        if (out.kind === 'write') {
          pending.push(out.write);
          if (pending.length >= WRITE_BATCH || Date.now() - flushedAt > WRITE_BATCH_MS) flush();
        } else {
          if (out.kind === 'unreadable' && out.error !== undefined) debugLog('memory', 'index: a session file could not be read', { agent: f.agent, error: out.error });
          writing(() => store.setFile(f.file, f.size, f.mtimeMs, out.kind));
          stats.skipped++;
        }
      } catch (error) {
        if (error instanceof IndexWriteError) throw error;
        debugLog('memory', 'index: a session file could not be read', { agent: f.agent, error: (error as Error).message });
        writing(() => store.setFile(f.file, f.size, f.mtimeMs, 'unreadable'));
        stats.skipped++;
      }
      doneBytes += f.size;
      opts.onProgress?.(stats.read, todo.length, doneBytes, todoBytes);
    }
    flush();
  } finally {
    if (pool?.threads) stats.threads = pool.threads;
    await pool?.close();
    if (announced) {
      try {
        store.endRefresh(process.pid);
      } catch (error) {
        // Not said again: its beat gets old (REFRESH_STALE_MS), or its process is found gone.
        debugLog('memory', 'index: the end of a refresh was not written', { error: (error as Error).message });
      }
    }
  }
}

/**
 * Another process's announced refresh, alive and heard from in the last REFRESH_STALE_MS: its process id,
 * else undefined. A read that finds one answers from the last commit.
 */
export function refreshingElsewhere(store: Store, now = Date.now()): number | undefined {
  return store.refreshesSince(now - REFRESH_STALE_MS).find((pid) => pid !== process.pid && isProcessAlive(pid));
}

export interface RefreshOptions {
  /** Stat every session file (`index` does; a read does only when the last full sweep is SWEEP_MS old). */
  full?: boolean;
  /** Read every file again (implies full). */
  rebuild?: boolean;
  /** Read at most that many changed files, the newest (a bounded refresh on a thread that must stay quick). */
  maxFiles?: number;
  /** Files read of those to read; and their bytes (the pace of a read, for its time left). */
  onProgress?: (done: number, total: number, doneBytes: number, totalBytes: number) => void;
  /** The files are read; the text indexes are merged now (a refresh that wrote a quarter of the index or more: seconds at 10,000 sessions). */
  onMerge?: () => void;
  /** The time of the refresh (tests). */
  now?: number;
  /** A reader's refresh: skipped (api.ts) while another process indexes, or holds the write lock past `lockWaitMs`. */
  ifIdle?: boolean;
  /** How long that reader waits for another's write to end before it skips (default api.ts READ_LOCK_WAIT_MS). */
  lockWaitMs?: number;
  /**
   * The read pool (tests): its worker entry (default: the build's dist/cli/index-worker.cjs), the files
   * read whole from which it is used (POOL_MIN_FILES) and its workers, started at once (default: one
   * per idle core but one, at most POOL_MAX_WORKERS); `mainReads: false`: this thread reads only what
   * no worker can.
   */
  pool?: { workerUrl?: URL; minFiles?: number; workers?: number; mainReads?: boolean };
}

// The recent files' names by folder, for the quick refresh's listing.
function namesByDir(marks: ReadonlyMap<string, FileMark>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const t of marks.keys()) {
    const dir = dirname(t);
    const list = out.get(dir);
    if (list) list.push(basename(t));
    else out.set(dir, [basename(t)]);
  }
  return out;
}

/**
 * Bring the index up to date with the agents' folders. A full sweep stats every session file; a quick
 * refresh (a read's, while the last full sweep is less than SWEEP_MS old) stats only the files of
 * folders whose listing moved and of sessions active in the last RECENT_MS (dir-cache.ts). A write
 * error stops the refresh: `error` says what failed and nothing is marked (the next refresh reads those
 * files again).
 */
export async function refreshIndex(store: Store, ctx: ScanContext, opts: RefreshOptions = {}): Promise<RefreshStats> {
  const started = opts.now ?? Date.now();
  const swept = store.lastSweep();
  const full = Boolean(opts.full || opts.rebuild) || swept === undefined || started - swept >= SWEEP_MS || started < swept;
  const recent = full ? undefined : store.recentMarks(started - RECENT_MS);
  const sweep = folderSweep(store, { mode: opts.rebuild ? 'rebuild' : full ? 'full' : 'quick', now: started, recent: recent && namesByDir(recent) });
  const files = await listAllSessionFiles({ env: ctx.env, home: ctx.home, cwd: ctx.cwd, sessionFilesIn: sweep.list });
  // The index's marks of a folder's files, read once per folder that has some to compare.
  const byDir = new Map<string, Map<string, FileMark>>();
  const marksIn = (dir: string) => {
    let m = byDir.get(dir);
    if (!m) byDir.set(dir, (m = store.marksIn(dir)));
    return m;
  };
  const marks = new Map<string, FileMark>();
  for (const f of files) {
    const m = recent?.get(f.file) ?? marksIn(dirname(f.file)).get(f.file);
    if (m) marks.set(f.file, m);
  }
  let forgotten = 0;
  const todo = files.filter((f) => {
    const m = marks.get(f.file);
    if (m?.state === 'forgotten') {
      forgotten++;
      return false;
    }
    if (m?.state === 'gone') return true; // back again
    return opts.rebuild || !m || m.size !== f.size || m.mtime !== f.mtimeMs;
  });
  // Newest first: a refresh cut short still has the sessions people look for.
  todo.sort((a, b) => b.mtimeMs - a.mtimeMs);
  // The folders of files left for later: what was learnt of them is not kept, so the next refresh looks again.
  const later = new Set<string>();
  if (opts.maxFiles !== undefined && todo.length > opts.maxFiles) {
    for (const f of todo.slice(opts.maxFiles)) later.add(dirname(f.file));
    todo.length = opts.maxFiles;
  }
  const stats: RefreshStats = { files: sweep.found, read: 0, indexed: 0, skipped: 0, gone: 0, ...(forgotten ? { forgotten } : {}), ms: 0, full };
  const todoBytes = todo.reduce((n, f) => n + f.size, 0);
  opts.onProgress?.(0, todo.length, 0, todoBytes);
  try {
    if (todo.length > 0) await readChanged(store, ctx, todo, marks, stats, todoBytes, opts);
    // A refresh that wrote a quarter of the index or more (a first index, a rebuild): its text indexes
    // merged and the freed pages given back (Store.compact). Not for the small refreshes of every day.
    if (stats.indexed >= COMPACT_MIN_WRITES && stats.indexed * 4 >= store.count()) {
      opts.onMerge?.();
      try {
        store.compact();
      } catch (error) {
        debugLog('memory', 'index: the text indexes were not merged', { error: (error as Error).message });
      }
    }
    // Files the index knew that the listing did not return: gone, unless they exist (another home's env).
    // Looked for in the folders listed whole, the folders gone, and (quick) the recent files.
    const listed = new Set<string>();
    for (const f of files) listed.add(f.file);
    const gone = new Set<string>();
    const check = (known: ReadonlyMap<string, FileMark>) => {
      for (const [t, m] of known) if (m.state !== 'gone' && !listed.has(t) && !existsSync(t)) gone.add(t);
    };
    const vanished = sweep.vanished();
    for (const dir of sweep.compared) check(marksIn(dir));
    for (const dir of vanished) check(marksIn(dir));
    if (recent) check(recent);
    if (gone.size) writing(() => store.markGone([...gone]));
    stats.gone = gone.size;
    try {
      // A full sweep's time is written when the kept one is a quarter of SWEEP_MS old or more: `index`
      // run again and again writes nothing (a write makes the close checkpoint the log: disk waits).
      const record = full && later.size === 0 && (swept === undefined || started < swept || started - swept >= SWEEP_MS / 4);
      sweep.save({ skip: later, drop: vanished, sweptAt: record ? started : undefined });
    } catch (error) {
      debugLog('memory', 'index: folder listings not kept', { error: (error as Error).message });
    }
  } catch (error) {
    if (!(error instanceof IndexWriteError)) throw error;
    debugLog('memory', 'index: a write failed', { error: error.message });
    stats.error = error.message;
  }
  stats.ms = Date.now() - started;
  return stats;
}
