/**
 * The scan that keeps the index up to date with every agent's session folders: list every session file
 * (each adapter's listAllSessions), skip those whose size and mtime match what the index saw, read the
 * rest with the transcript parsers and store their heuristic card and condensed text. Files the scan no
 * longer finds keep their rows, marked gone. Forgotten files are not read again while they exist.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import type { FileMark, Store } from '../../memory/store.js';
import type { SessionWrite } from '../../memory/types.js';
import type { RecapEngine } from '../../recap/engine.js';
import { listAdapters } from '../../transcripts/registry.js';
import type { AgentId, Session, SessionFileInfo } from '../../transcripts/types.js';
import { debugLog } from '../../util/debug-log.js';
import { dirNamesCache } from './dir-cache.js';

/** A grown file at least this big is read from its mark (only what was appended), not whole again. */
export const TAIL_READ_MIN_BYTES = 4 * 1024 * 1024;
/** Sessions written per transaction by the scan, and the longest a parsed one waits to be written. */
const WRITE_BATCH = 50;
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
export async function listAllSessionFiles(ctx: { env: Env; home: string; cwd: string; dirNames?: (dir: string) => string[] }): Promise<SessionFileInfo[]> {
  const lists = await Promise.all(listAdapters().map((a) => a.listAllSessions(ctx).catch(() => [])));
  const seen = new Set<string>();
  return lists.flat().filter((f) => (seen.has(f.file) ? false : (seen.add(f.file), true)));
}

/**
 * A big grown file: only the appended lines are parsed; the row keeps what it knew (first times, name,
 * title) and gets the new part's card (the latest turns), added counts and appended text. False when the
 * file cannot be read that way (then it is read whole).
 */
async function appendTail(store: Store, f: SessionFileInfo, from: number, engine: RecapEngine, lib: Readers): Promise<boolean> {
  const { loadSessionTail, sessionWrite, appendCondensed } = lib;
  const prev = store.byTranscript(f.file);
  if (!prev || !prev.transcriptExists) return false;
  const tail = await loadSessionTail(f.file, { agent: f.agent, from });
  if (!tail) return false;
  if (tail.snapshot.events.length === 0) {
    // Nothing complete was appended yet (a line being written): keep the card, move the mark.
    store.setFile(f.file, tail.end, tail.end === f.size ? f.mtimeMs : 0, 'indexed');
    return true;
  }
  const session: Session = { ...tail.snapshot, id: prev.id, cwd: prev.cwd, title: prev.title ?? tail.snapshot.title, startedAt: Date.parse(prev.createdAt), file: f.file };
  const write = sessionWrite(session, engine, { size: tail.end, mtimeMs: f.mtimeMs });
  write.project = prev.project;
  write.counts = { prompts: prev.counts.prompts + write.counts.prompts, turns: prev.counts.turns + write.counts.turns, toolCalls: prev.counts.toolCalls + write.counts.toolCalls };
  write.text = appendCondensed(store.condensedText(prev.id), write.text);
  write.tags = [...new Set([...prev.tags, ...write.tags])].slice(0, 6);
  if (!write.model && prev.model) write.model = prev.model;
  if (!write.gitBranch && prev.gitBranch) write.gitBranch = prev.gitBranch;
  if (prev.title) write.title = prev.title;
  store.upsert(write);
  return true;
}

// What reading a changed file takes (parsers, the heuristic recap engine): loaded only when some file
// changed, so a refresh that finds nothing new (every read command's) loads none of it.
async function loadReaders() {
  const [load, condense, registry, engine, write] = await Promise.all([
    import('../../transcripts/load.js'),
    import('../../memory/condense.js'),
    import('../../transcripts/registry.js'),
    import('../recap-engine.js'),
    import('./session-write.js'),
  ]);
  return { loadSessionFile: load.loadSessionFile, loadSessionTail: load.loadSessionTail, appendCondensed: condense.appendCondensed, findAdapter: registry.findAdapter, createEngine: engine.createEngine, sessionWrite: write.sessionWrite };
}
type Readers = Awaited<ReturnType<typeof loadReaders>>;

// Reads the new and changed files and writes their rows, in batches.
async function readChanged(store: Store, ctx: ScanContext, todo: readonly SessionFileInfo[], marks: ReadonlyMap<string, FileMark>, stats: RefreshStats, opts: { rebuild?: boolean; onProgress?: (done: number, total: number) => void }): Promise<void> {
  const lib = await loadReaders();
  const { loadSessionFile, findAdapter, createEngine, sessionWrite } = lib;
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
    store.upsertMany(pending.splice(0));
    flushedAt = Date.now();
  };
  for (const f of todo) {
    stats.read++;
    const mark = marks.get(f.file);
    if (!opts.rebuild && mark?.state === 'indexed' && mark.size >= TAIL_READ_MIN_BYTES && f.size > mark.size) {
      if (await appendTail(store, f, mark.size, engineFor(f.agent), lib)) {
        stats.indexed++;
        opts.onProgress?.(stats.read, todo.length);
        continue;
      }
    }
    try {
      const session = await loadSessionFile(f.file, { agent: f.agent });
      if (!session.cwd) {
        const cwd = await findAdapter(f.agent)?.folderOfFile?.(f.file, ctx).catch(() => undefined);
        if (cwd) session.cwd = cwd;
      }
      if (session.events.length === 0 && !session.title) {
        store.setFile(f.file, f.size, f.mtimeMs, 'unreadable');
        stats.skipped++;
      } else if (!folderAllowed(session.cwd ?? '', ctx.folders)) {
        store.setFile(f.file, f.size, f.mtimeMs, 'excluded');
        stats.skipped++;
      } else {
        pending.push(sessionWrite(session, engineFor(f.agent), f));
        stats.indexed++;
        if (pending.length >= WRITE_BATCH || Date.now() - flushedAt > WRITE_BATCH_MS) flush();
      }
    } catch (error) {
      debugLog('memory', 'index: a session file could not be read', { agent: f.agent, error: (error as Error).message });
      try {
        store.setFile(f.file, f.size, f.mtimeMs, 'unreadable');
      } catch {}
      stats.skipped++;
    }
    opts.onProgress?.(stats.read, todo.length);
  }
  flush();
}

/** maxFiles: read at most that many changed files, the newest (a bounded refresh on a thread that must stay quick). */
export async function refreshIndex(store: Store, ctx: ScanContext, opts: { rebuild?: boolean; maxFiles?: number; onProgress?: (done: number, total: number) => void } = {}): Promise<RefreshStats> {
  const started = Date.now();
  const dirs = dirNamesCache(store, { trust: !opts.rebuild, now: started });
  const files = await listAllSessionFiles({ env: ctx.env, home: ctx.home, cwd: ctx.cwd, dirNames: (dir) => dirs.names(dir) });
  try {
    dirs.save();
  } catch (error) {
    debugLog('memory', 'index: folder listings not kept', { error: (error as Error).message });
  }
  const marks = store.fileMarks();
  const todo = files.filter((f) => {
    const m = marks.get(f.file);
    if (m?.state === 'forgotten') return false;
    if (m?.state === 'gone') return true; // back again
    return opts.rebuild || !m || m.size !== f.size || m.mtime !== f.mtimeMs;
  });
  // Newest first: a refresh cut short still has the sessions people look for.
  todo.sort((a, b) => b.mtimeMs - a.mtimeMs);
  if (opts.maxFiles !== undefined && todo.length > opts.maxFiles) todo.length = opts.maxFiles;
  const stats: RefreshStats = { files: files.length, read: 0, indexed: 0, skipped: 0, gone: 0, ms: 0 };
  opts.onProgress?.(0, todo.length);
  if (todo.length > 0) await readChanged(store, ctx, todo, marks, stats, opts);
  // Files the index knew that the listing did not return: gone, unless they exist (another home's env).
  const listed = new Set<string>();
  for (const f of files) listed.add(f.file);
  const gone: string[] = [];
  for (const [t, m] of marks) if (m.state !== 'gone' && !listed.has(t) && !existsSync(t)) gone.push(t);
  if (gone.length) store.markGone(gone);
  stats.gone = gone.length;
  stats.ms = Date.now() - started;
  return stats;
}
