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
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import type { FileMark, Store } from '../../memory/store.js';
import type { SessionWrite } from '../../memory/types.js';
import type { RecapEngine } from '../../recap/engine.js';
import { listAdapters } from '../../transcripts/registry.js';
import type { AgentId, Session, SessionFileInfo, SessionFolderLister } from '../../transcripts/types.js';
import { debugLog } from '../../util/debug-log.js';
import { folderSweep } from './dir-cache.js';

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
  ms: number;
  /** Every session file was stat'ed (else only the folders that moved and the recent sessions). */
  full: boolean;
  /** A write to the index failed: what failed (the refresh stopped there; nothing was marked). */
  error?: string;
}

export interface ScanContext {
  env: Env;
  home: string;
  cwd: string;
  /** Only sessions under these folders are indexed; [] = every folder. */
  folders: string[];
  options: Options;
}

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

export function folderAllowed(cwd: string, folders: readonly string[]): boolean {
  return folders.length === 0 || folders.some((f) => cwd === f || cwd.startsWith(f.endsWith('/') ? f : f + '/'));
}

/** Every session file of every agent under their homes (and the env vars that move them). */
export async function listAllSessionFiles(ctx: { env: Env; home: string; cwd: string; sessionFilesIn?: SessionFolderLister }): Promise<SessionFileInfo[]> {
  const lists = await Promise.all(listAdapters().map((a) => a.listAllSessions(ctx).catch(() => [])));
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
 * title) and gets the new part's card (the latest turns), added counts and appended text. False when the
 * file cannot be read that way (then it is read whole).
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
  const write = tailWrite(prev, tail.snapshot, engine, { size: tail.end, mtimeMs: f.mtimeMs }, store.condensedText(prev.id), vocabulary.words);
  write.wordsFrom = from;
  writing(() => store.upsert(write));
  return true;
}

// What reading a changed file takes (parsers, the heuristic recap engine): loaded only when some file
// changed, so a refresh that finds nothing new (every read command's) loads none of it.
async function loadReaders() {
  const [load, registry, engine, write] = await Promise.all([
    import('../../transcripts/load.js'),
    import('../../transcripts/registry.js'),
    import('../recaps/recap-engine.js'),
    import('./session-write.js'),
  ]);
  return { loadSessionFile: load.loadSessionFile, loadSessionTail: load.loadSessionTail, findAdapter: registry.findAdapter, createEngine: engine.createEngine, sessionWrite: write.sessionWrite, tailWrite: write.tailWrite, vocabularyFor: write.vocabularyFor, grownVocabularyFor: write.grownVocabularyFor };
}
type Readers = Awaited<ReturnType<typeof loadReaders>>;

// Reads the new and changed files and writes their rows, in batches. An IndexWriteError ends it (what
// was committed stays; the batch being built is dropped, its files unmarked).
async function readChanged(store: Store, ctx: ScanContext, todo: readonly SessionFileInfo[], marks: ReadonlyMap<string, FileMark>, stats: RefreshStats, opts: { rebuild?: boolean; onProgress?: (done: number, total: number) => void }): Promise<void> {
  const lib = await loadReaders();
  const { findAdapter, createEngine, sessionWrite, vocabularyFor } = lib;
  // Each file read with a vocabulary of its own: every word of every text it holds (vocabulary.ts). A file
  // that grew from where its row's words hold every word (words_at, schema step 11) is read whole for its
  // card and text, but only its new texts are taken apart for words, added to the row's (grownFrom).
  const load = (f: SessionFileInfo) => {
    const mark = marks.get(f.file);
    const grownFrom = !opts.rebuild && mark?.state === 'indexed' && mark.size > 0 && f.size > mark.size && store.wordsAt(f.file) === mark.size ? mark.size : 0;
    const vocabulary = grownFrom ? lib.grownVocabularyFor(store.condensedTextOf(f.file)) : vocabularyFor();
    return { loading: lib.loadSessionFile(f.file, { agent: f.agent, onText: vocabulary.onText, wholeFile: true, textsFrom: grownFrom }), words: vocabulary.words, grownFrom };
  };
  const engines = new Map<AgentId, RecapEngine>();
  const engineFor = (agent: AgentId) => {
    let e = engines.get(agent);
    if (!e) engines.set(agent, (e = createEngine({ options: { ...ctx.options, llm: false, generator: 'heuristic' }, agent, env: ctx.env })));
    return e;
  };
  // Writes go in batches: one transaction per batch, short enough that other writers barely wait.
  const pending: SessionWrite[] = [];
  let flushedAt = Date.now();
  const flush = () => {
    writing(() => store.upsertMany(pending));
    stats.indexed += pending.length;
    pending.length = 0;
    flushedAt = Date.now();
  };
  // A big grown file is read from its mark (appendTail), the rest whole.
  const fromMark = (f: SessionFileInfo) => {
    const mark = marks.get(f.file);
    return !opts.rebuild && mark?.state === 'indexed' && mark.size >= TAIL_READ_MIN_BYTES && f.size > mark.size;
  };
  // The next file read whole is opened and read while this one is made into its row: its reads wait on
  // the disk's threads, not on this work (~1/10 of a first index waited on them).
  let ahead: { file: string; loading: Promise<Session>; words: (said: string) => string; grownFrom: number } | undefined;
  const readAhead = (f: SessionFileInfo | undefined) => {
    if (!f || fromMark(f)) return;
    const next = load(f);
    next.loading.catch(() => undefined); // its failure is met when it is awaited
    ahead = { file: f.file, ...next };
  };
  for (let i = 0; i < todo.length; i++) {
    const f = todo[i] as SessionFileInfo;
    stats.read++;
    const mark = marks.get(f.file);
    try {
      if (fromMark(f) && (await appendTail(store, f, mark?.size ?? 0, engineFor(f.agent), lib))) {
        stats.indexed++;
        opts.onProgress?.(stats.read, todo.length);
        continue;
      }
      const { loading, words, grownFrom } = ahead?.file === f.file ? ahead : load(f);
      ahead = undefined;
      readAhead(todo[i + 1]);
      const session = await loading;
      if (!session.cwd) {
        const cwd = await findAdapter(f.agent)?.folderOfFile?.(f.file, ctx).catch(() => undefined);
        if (cwd) session.cwd = cwd;
      }
      if (session.events.length === 0 && !session.title) {
        writing(() => store.setFile(f.file, f.size, f.mtimeMs, 'unreadable'));
        stats.skipped++;
      } else if (!folderAllowed(session.cwd ?? '', ctx.folders)) {
        writing(() => store.setFile(f.file, f.size, f.mtimeMs, 'excluded'));
        stats.skipped++;
      } else {
        const write = sessionWrite(session, engineFor(f.agent), f, words);
        if (grownFrom > 0) Object.assign(write, { wordsAppend: true, wordsFrom: grownFrom });
        pending.push(write);
        if (pending.length >= WRITE_BATCH || Date.now() - flushedAt > WRITE_BATCH_MS) flush();
      }
    } catch (error) {
      if (error instanceof IndexWriteError) throw error;
      debugLog('memory', 'index: a session file could not be read', { agent: f.agent, error: (error as Error).message });
      writing(() => store.setFile(f.file, f.size, f.mtimeMs, 'unreadable'));
      stats.skipped++;
    }
    opts.onProgress?.(stats.read, todo.length);
  }
  flush();
}

export interface RefreshOptions {
  /** Stat every session file (`index` does; a read does only when the last full sweep is SWEEP_MS old). */
  full?: boolean;
  /** Read every file again (implies full). */
  rebuild?: boolean;
  /** Read at most that many changed files, the newest (a bounded refresh on a thread that must stay quick). */
  maxFiles?: number;
  onProgress?: (done: number, total: number) => void;
  /** The time of the refresh (tests). */
  now?: number;
  /** A reader's refresh: skipped (api.ts) while another process holds the write lock. */
  ifIdle?: boolean;
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
  const todo = files.filter((f) => {
    const m = marks.get(f.file);
    if (m?.state === 'forgotten') return false;
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
  const stats: RefreshStats = { files: sweep.found, read: 0, indexed: 0, skipped: 0, gone: 0, ms: 0, full };
  opts.onProgress?.(0, todo.length);
  try {
    if (todo.length > 0) await readChanged(store, ctx, todo, marks, stats, opts);
    // A refresh that wrote a quarter of the index or more (a first index, a rebuild): its text indexes
    // merged and the freed pages given back (Store.compact). Not for the small refreshes of every day.
    if (stats.indexed >= COMPACT_MIN_WRITES && stats.indexed * 4 >= store.count()) {
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
