/**
 * The session index's reads and writes over an open database (open-store.ts opens it): one row per
 * session keyed by its transcript, its condensed text in FTS5, the files the scan has seen with their
 * size and mtime. Every string is masked for secrets before it is stored. Writes are IMMEDIATE
 * transactions, so concurrent writers queue on the busy timeout instead of failing.
 */
import type Database from 'better-sqlite3';
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { appendForgotten, readForgotten } from './forgotten.js';
import { indexText, QUERY_MAX_CHARS, QUERY_WORD_MAX_CHARS, queryTerms, rankingTerms, type QueryTerm } from './fts-query.js';
import { baseName, looksLikeId, normalizeUserName, uniqueName } from './names.js';
import { relevantPassages } from './passages.js';
import { maskSecrets } from './secrets.js';
import { WORD_PART_STRIDE, WORD_PARTS_MAX } from './schema.js';
import { snippetOf, type SnippetWord } from './snippet.js';
import { closestWord } from './suggest.js';
import { vocabularyOf } from './vocabulary.js';
import { type ListFilter, type SessionWrite, type StoredArtifact, type StoredHit, type StoredSession } from './types.js';

/** What a forget reads of a session's row. */
type ForgetRow = { rowid: number; transcript: string; agent: string; id: string; mark_size: number; mark_mtime: number };

/**
 * What a forget did: how many sessions went; whether their text is out of the write-ahead log too (false
 * while another process reads the index: its snapshot keeps the log, see checkpoint()); the damaged
 * copies of the index (`index.db.corrupt-*`) deleted with it, which could hold the text.
 */
export interface ForgetOutcome { count: number; purged: boolean; removedCopies: string[] }

/** How long a forget tries to empty the write-ahead log while a reader holds it (then it says so). */
export const CHECKPOINT_WAIT_MS = 2000;

// How long the forgotten list's stat is trusted (a forget in this process reads it again at once).
const FORGOTTEN_STAT_MS = 500;
/** Parts a session's words are added in (each growth read adds one) before they are written again whole. */
const WORD_PARTS_WHOLE = 64;

/** Where the index and its forgotten list are (absent for a database opened without open-store.ts). */
export interface StorePaths { index: string; forgotten: string }

/** What the scan remembers of a file: a session (indexed), forgotten by the user, left out by config, unreadable, or gone. */
export type FileState = 'indexed' | 'forgotten' | 'excluded' | 'unreadable' | 'gone';
export interface FileMark { size: number; mtime: number; state: FileState }

/** `loose`: found by words of its name only (the fuzzy step), not by its id or its exact name: a guess. */
export type StoreRef = { ok: true; row: StoredSession; loose?: true } | { ok: false; kind: 'none' | 'ambiguous'; candidates: StoredSession[] };
// A match of the fuzzy step, marked as the guess it is.
const markLoose = (r: StoreRef | undefined): StoreRef | undefined => (r?.ok ? { ...r, loose: true } : r);

interface Row {
  rowid: number; id: string; agent: string; transcript: string; cwd: string; project: string; name: string; user_named: number;
  title: string | null; headline: string; line: string; created_at: number | null; updated_at: number; model: string | null;
  git_branch: string | null; prompts: number; turns: number; tool_calls: number; status: string; language: string; tags: string;
  generator: string; done: string; next: string; artifacts: string; transcript_exists: number; mark_size: number; mark_mtime: number;
  mark_entry: string; description: string | null; summary: string | null; summary_prompts: number; parent: string | null;
  summary_asked: number; summary_asked_at: number; user_note?: string | null; user_note_at?: number | null;
}

const DEFAULT_LIMIT = 50;

export interface SearchOptions {
  /** Only sessions holding every word. */
  allWords?: boolean;
  /** The last word matches as the start of a word too (the picker, while the words are being typed). */
  prefixLast?: boolean;
}
/** Hits, whether the first holds every word, and (no hit) the query with a typo's closest indexed word. */
export interface SearchResult {
  hits: StoredHit[];
  complete: boolean;
  suggestion?: string;
  /** Every session the query matched under the filter, before the limit cut (the ranking counts them anyway). */
  total: number;
}

/** Rowids held: a Set, or the bm25 scores' Map when they are the same rows (one lookup fewer). */
type Holders = Pick<ReadonlySet<number>, 'has' | 'size'> & { keys(): Iterable<number> };
/** A query word's holders: by stem in the ranked text, as typed in the vocabulary, as a prefix (when asked). */
interface TermHolders { stem: Holders; exact: Set<number>; prefix: Set<number> }
interface Ranked { rowid: number; score: number; matched: number[]; weight: number; exact: boolean }

/**
 * How much a query word held at each level counts (the first key of the ranking), by level: 4 as typed
 * and in the ranked text (prompts, answers, commands, summaries), 3 as typed elsewhere in the session (its
 * vocabulary only: tool output), 2 by its English stem only, 1 as the start of a word (the picker). Exact
 * before stem before prefix, and the ranked text before the rest: a word as typed only in tool output
 * counts less than its stem in the prose (a task told in other words is found by its prose), except where
 * the word as typed tells more than its stem: a query of one word, or a word whose stem many more sessions
 * hold than hold it as typed (`tokenizers` beside `token`): then as typed counts more (STEM_SHADOWED).
 */
const LEVEL_WEIGHT = [0, 0.3, 0.6, 0.5, 1] as const;
const TYPED_OVER_STEM_WEIGHT = 0.7;
/** The ranking: a name or id matched first, then the levels' weight, then bm25 (lower is better). */
const order = (a: Ranked, b: Ranked) => Number(b.exact) - Number(a.exact) || b.weight - a.weight || a.score - b.score;
/** A session's bm25 score over the ranked text (lower is better): its columns weighted head 4, body 1, summary 2. */
const BM25 = 'bm25(session_text, 4.0, 1.0, 2.0)';
/** Best-scored holders of a one-word query read at least (oneWordTop), ahead of picking the top among them. */
const ONE_WORD_READ_MIN = 200;

/** How many rows the sets (or maps, by key) hold between them: each counted once, in the first that holds it. */
function unionSize(sets: readonly Holders[]): number {
  let n = sets[0]?.size ?? 0;
  for (let i = 1; i < sets.length; i++) {
    const earlier = sets.slice(0, i);
    for (const rowid of (sets[i] as Holders).keys()) if (!earlier.some((s) => s.has(rowid))) n++;
  }
  return n;
}

function levelOf(h: TermHolders, rowid: number): 0 | 1 | 2 | 3 | 4 {
  const exact = h.exact.has(rowid);
  const stem = h.stem.has(rowid);
  if (exact && stem) return 4;
  if (exact) return 3;
  if (stem) return 2;
  return h.prefix.has(rowid) ? 1 : 0;
}

/**
 * The n-th (from 1) of `items` in `order`: a bounded heap of the n best seen (its worst at the root), so
 * each item costs one comparison unless it belongs among them. n <= items.length.
 */
function nthBest<T>(items: readonly T[], n: number, order: (a: T, b: T) => number): T {
  const heap: T[] = [];
  const worse = (i: number, j: number) => order(heap[i] as T, heap[j] as T) > 0;
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j] as T, heap[i] as T]);
  for (const item of items) {
    if (heap.length < n) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0 && worse(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
    } else if (order(item, heap[0] as T) < 0) {
      heap[0] = item;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let w = i;
        if (l < n && worse(l, w)) w = l;
        if (r < n && worse(r, w)) w = r;
        if (w === i) break;
        swap(i, w);
        i = w;
      }
    }
  }
  return heap[0] as T;
}

// Whether a word as typed tells more than its stem: the only word of the query, or held as typed by at
// most half as many sessions as hold its stem.
const typedTellsMore = (h: TermHolders, terms: number) => h.exact.size > 0 && (terms === 1 || h.exact.size * 2 <= h.stem.size);

/** Why a query is refused for its length (issue 40 item 9: SQLite's pattern limit), or undefined. */
export function queryTooLong(query: string): string | undefined {
  const long = query.split(/\s+/).find((w) => w.length > QUERY_WORD_MAX_CHARS);
  if (long) return `Expected words of at most ${QUERY_WORD_MAX_CHARS} characters, got one of ${long.length}`;
  if (query.length > QUERY_MAX_CHARS) return `Expected a query of at most ${QUERY_MAX_CHARS} characters, got ${query.length}`;
  return undefined;
}
// The dirs row (never a folder's path: those are absolute) whose mtime is the time of the last full sweep.
const SWEEP_KEY = '';

const json = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};
const opt = (v: string | null) => (v === null || v === '' ? undefined : v);
const iso = (ms: number | null) => new Date(ms ?? 0).toISOString();
const mask = (s: string) => maskSecrets(s);
const maskList = (list: readonly string[]) => list.map(mask);

function toSession(r: Row): StoredSession {
  const out: StoredSession = {
    id: r.id, agent: r.agent, cwd: r.cwd, project: r.project, name: r.name, headline: r.headline, line: r.line,
    createdAt: iso(r.created_at ?? r.updated_at), updatedAt: iso(r.updated_at), transcript: r.transcript,
    transcriptExists: r.transcript_exists === 1, counts: { prompts: r.prompts, turns: r.turns, toolCalls: r.tool_calls },
    status: r.status, language: r.language, tags: json<string[]>(r.tags, []), generator: json(r.generator, { type: 'heuristic' }),
    userNamed: r.user_named === 1, done: json<string[]>(r.done, []), next: json<string[]>(r.next, []),
    artifacts: json<StoredArtifact[]>(r.artifacts, []), summaryPrompts: r.summary_prompts ?? 0,
    summaryAsked: { prompts: r.summary_asked ?? 0, at: r.summary_asked_at ?? 0 },
    mark: { size: r.mark_size, mtimeMs: r.mark_mtime, entry: r.mark_entry },
  };
  for (const [key, value] of [['title', r.title], ['model', r.model], ['gitBranch', r.git_branch], ['parent', r.parent], ['description', r.description], ['summary', r.summary]] as const) {
    const v = opt(value);
    if (v !== undefined) out[key] = v;
  }
  if (r.user_note) out.note = { text: r.user_note, at: iso(r.user_note_at ?? null) };
  return out;
}

// LIKE pattern for "this folder or below" with % and _ escaped.
const below = (dir: string) => dir.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\/+$/, '') + '/%';

function filterSql(filter: ListFilter, alias: string): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.agent) {
    where.push(`${alias}.agent = ?`);
    params.push(filter.agent);
  }
  if (filter.folder && filter.exactFolder) {
    where.push(`${alias}.cwd = ?`);
    params.push(filter.folder.replace(/(.)\/+$/, '$1'));
  } else if (filter.folder) {
    where.push(`(${alias}.cwd = ? OR ${alias}.cwd LIKE ? ESCAPE '\\')`);
    params.push(filter.folder.replace(/(.)\/+$/, '$1'), below(filter.folder));
  }
  if (filter.since !== undefined) {
    where.push(`${alias}.updated_at >= ?`);
    params.push(filter.since);
  }
  return { where, params };
}

/** What the FTS head and summary columns are made of. */
type TextFields = Pick<Row, 'name' | 'title' | 'headline' | 'tags' | 'project' | 'user_note' | 'description' | 'summary' | 'done' | 'next'>;

// What the FTS head and summary columns hold of a session's row (indexed; snippets are cut from them too).
function headText(r: TextFields): string {
  return [r.name.replace(/-/g, ' '), r.title ?? '', r.headline, json<string[]>(r.tags, []).join(' '), r.project].join('\n');
}
function summaryText(r: TextFields): string {
  return [r.user_note ?? '', r.description ?? '', r.summary ?? '', ...json<string[]>(r.done, []), ...json<string[]>(r.next, [])].join('\n');
}

// The passage of the session's own text where its matched words are, else of its summary, else its name and title.
function hitSnippet(r: Row, body: string, matched: readonly SnippetWord[]): string {
  return snippetOf(body, matched) ?? snippetOf(summaryText(r), matched) ?? snippetOf(headText(r), matched) ?? (r.title ?? r.headline);
}

export class Store {
  private purgePending = false;
  // The forgotten list's sessions (agent + NUL + id), read again when the file changed (another process
  // forgot one); its stat taken at most every FORGOTTEN_STAT_MS (a scan checks thousands of sessions).
  private forgottenIds: { key: string; ids: Set<string>; statAt: number } = { key: '', ids: new Set(), statAt: Number.NEGATIVE_INFINITY };

  // The statements a session's write runs, prepared once each (by their text): a first index runs them for
  // every session, and preparing them each time cost as much as running some of them.
  private readonly statements = new Map<string, Database.Statement>();

  constructor(readonly db: Database.Database, readonly paths?: StorePaths) {}

  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  close(): void {
    if (!this.db.open) return;
    // A forget's text still in the log (a reader held it): one more try, without waiting.
    if (this.purgePending) this.checkpoint(0);
    this.db.close();
  }

  /** Every file the scan has seen, by path. */
  fileMarks(): Map<string, FileMark> {
    const rows = this.db.prepare('SELECT transcript, size, mtime, state FROM files').all() as Array<FileMark & { transcript: string }>;
    return new Map(rows.map((r) => [r.transcript, { size: r.size, mtime: r.mtime, state: r.state }]));
  }

  /** The folder listings the refresh kept: names (in one string, `\n` between) and their files' stats at a modification time. */
  dirListings(): Map<string, { mtime: number; names: string; files: string }> {
    const rows = this.db.prepare('SELECT path, mtime, names, files FROM dirs').raw().all() as Array<[string, number, string, string]>;
    const out = new Map<string, { mtime: number; names: string; files: string }>();
    for (const [path, mtime, names, files] of rows) if (path !== SWEEP_KEY) out.set(path, { mtime, names, files });
    return out;
  }

  /** The kept folders' modification times only (a quick refresh needs no names). */
  dirTimes(): Map<string, { mtime: number }> {
    const rows = this.db.prepare('SELECT path, mtime FROM dirs').raw().all() as Array<[string, number]>;
    const out = new Map<string, { mtime: number }>();
    for (const [path, mtime] of rows) if (path !== SWEEP_KEY) out.set(path, { mtime });
    return out;
  }

  /**
   * Keep folder listings, drop those of folders that are gone, and (sweptAt) the time of a full sweep, in
   * one write; nothing written when there is nothing to keep.
   */
  setDirListings(listings: ReadonlyArray<{ path: string; mtime: number; names: string; files: string }>, opts: { drop?: readonly string[]; sweptAt?: number } = {}): void {
    const drop = opts.drop ?? [];
    if (listings.length === 0 && drop.length === 0 && opts.sweptAt === undefined) return;
    const put = this.db.prepare('INSERT INTO dirs(path, mtime, names, files) VALUES (?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET mtime = excluded.mtime, names = excluded.names, files = excluded.files');
    const del = this.db.prepare('DELETE FROM dirs WHERE path = ?');
    this.db.transaction(() => {
      for (const l of listings) put.run(l.path, l.mtime, l.names, l.files);
      for (const d of drop) del.run(d);
      if (opts.sweptAt !== undefined) put.run(SWEEP_KEY, opts.sweptAt, '', '');
    }).immediate();
  }

  /** A refresh of this process (`pid`) reads many session files: its time now (at each batch it writes). */
  beatRefresh(pid: number, at: number): void {
    this.stmt('INSERT INTO refreshes(pid, beat) VALUES (?, ?) ON CONFLICT(pid) DO UPDATE SET beat = excluded.beat').run(pid, at);
  }

  /** That refresh ended. */
  endRefresh(pid: number): void {
    this.stmt('DELETE FROM refreshes WHERE pid = ?').run(pid);
  }

  /** The processes whose refresh wrote a batch at `since` or later (alive or not: the caller checks). */
  refreshesSince(since: number): number[] {
    return this.stmt('SELECT pid FROM refreshes WHERE beat >= ? ORDER BY beat DESC').pluck().all(since) as number[];
  }

  /** When the refresh last stat'ed every session file (a full sweep), or undefined when never. */
  lastSweep(): number | undefined {
    const r = this.db.prepare('SELECT mtime FROM dirs WHERE path = ?').get(SWEEP_KEY) as { mtime: number } | undefined;
    return r?.mtime;
  }

  /** The files whose recorded mtime is `since` or later (the sessions active lately), by path. */
  recentMarks(since: number): Map<string, FileMark> {
    const rows = this.db.prepare('SELECT transcript, size, mtime, state FROM files WHERE mtime >= ?').raw().all(since) as Array<[string, number, number, FileState]>;
    return new Map(rows.map(([t, size, mtime, state]) => [t, { size, mtime, state }]));
  }

  /** What the scan remembers of one file. */
  fileMark(transcript: string): FileMark | undefined {
    return this.db.prepare('SELECT size, mtime, state FROM files WHERE transcript = ?').get(transcript) as FileMark | undefined;
  }

  /** The files the scan remembers directly in `dir` (not below it), by path. */
  marksIn(dir: string): Map<string, FileMark> {
    const prefix = dir.endsWith('/') ? dir : dir + '/';
    // A range of the primary key: every path that starts with `dir/` ('0' follows '/').
    const rows = this.db.prepare('SELECT transcript, size, mtime, state FROM files WHERE transcript > ? AND transcript < ?').raw().all(prefix, prefix.slice(0, -1) + '0') as Array<[string, number, number, FileState]>;
    const out = new Map<string, FileMark>();
    for (const [t, size, mtime, state] of rows) if (!t.includes('/', prefix.length)) out.set(t, { size, mtime, state });
    return out;
  }

  setFile(transcript: string, size: number, mtime: number, state: FileState): void {
    this.stmt('INSERT INTO files(transcript, size, mtime, state) VALUES (?, ?, ?, ?) ON CONFLICT(transcript) DO UPDATE SET size = excluded.size, mtime = excluded.mtime, state = excluded.state').run(transcript, size, mtime, state);
  }

  /**
   * Files the scan no longer finds: their sessions stay (rows outlive transcripts) marked gone; a left-out
   * or unreadable file's record goes. A forgotten file's mark stays for good: a transcript missing for a
   * while (a renamed folder, an unmounted disk) is still forgotten when it comes back (every agent's file
   * name holds its session's id or start time, so the same path is the same session).
   */
  markGone(transcripts: readonly string[]): void {
    const gone = this.db.prepare('UPDATE sessions SET transcript_exists = 0 WHERE transcript = ?');
    const drop = this.db.prepare("DELETE FROM files WHERE transcript = ? AND state NOT IN ('indexed', 'gone', 'forgotten')");
    const mark = this.db.prepare("UPDATE files SET state = 'gone' WHERE transcript = ? AND state = 'indexed'");
    this.db.transaction(() => {
      for (const t of transcripts) {
        gone.run(t);
        drop.run(t);
        mark.run(t);
      }
    }).immediate();
  }

  isForgotten(transcript: string): boolean {
    return (this.stmt("SELECT 1 FROM files WHERE transcript = ? AND state = 'forgotten'").get(transcript) as unknown) !== undefined;
  }

  /**
   * Whether the user forgot this session, wherever its file is now: a folder renamed (or an agent's home
   * moved) puts the same session at a new path, which the path's mark does not cover.
   */
  isForgottenSession(agent: string, id: string): boolean {
    if (!this.paths || !id) return false;
    const now = Date.now();
    if (now - this.forgottenIds.statAt >= FORGOTTEN_STAT_MS) {
      const st = statSync(this.paths.forgotten, { throwIfNoEntry: false });
      const key = st ? `${st.size}:${st.mtimeMs}:${st.ino}` : '';
      const ids = key === this.forgottenIds.key ? this.forgottenIds.ids : new Set(st ? readForgotten(this.paths.forgotten).map((e) => `${e.agent}\0${e.id}`) : []);
      this.forgottenIds = { key, ids, statAt: now };
    }
    return this.forgottenIds.ids.has(`${agent}\0${id}`);
  }

  /** Insert or update one session (a user's name, model summary and first-seen time are kept). */
  upsert(w: SessionWrite, now = Date.now()): void {
    this.db.transaction(() => this.writeSession(w, now)).immediate();
  }

  // upsert's writes, inside the caller's transaction.
  private writeSession(w: SessionWrite, now: number): void {
    if (this.isForgotten(w.transcript)) return;
    if (this.isForgottenSession(w.agent, w.id)) {
      // Its file at a new path: marked too, so the scan does not read it again.
      this.setFile(w.transcript, w.mark.size, w.mark.mtimeMs, 'forgotten');
      return;
    }
    const existing = this.stmt('SELECT rowid, name, user_named, created_at, summary, description, prompts FROM sessions WHERE transcript = ?').get(w.transcript) as
      | { rowid: number; name: string; user_named: number; created_at: number | null; summary: string | null; description: string | null; prompts: number }
      | undefined;
    // A session with no prompt yet (an agent opened and closed, the demo quit at once) is no row to list:
    // its file is remembered, so it is read again only once it changes.
    if (!existing && w.counts.prompts === 0) {
      this.setFile(w.transcript, w.mark.size, w.mark.mtimeMs, 'indexed');
      return;
    }
    const cwd = w.cwd;
    let name = existing?.name;
    // Named before its first prompt (indexed as it started: the bare project): named again once it has a task.
    const unnamedYet = existing !== undefined && existing.prompts === 0 && w.counts.prompts > 0 && !existing.user_named && !existing.summary;
    if (!name || unnamedYet) {
      const base = baseName({ project: w.project, task: mask(w.nameHints.task), files: w.nameHints.files, commands: maskList(w.nameHints.commands) });
      // Unique in its folder, and never a name the user gave a session anywhere (that one stays unambiguous).
      const taken = this.stmt('SELECT 1 FROM sessions WHERE name = ? AND rowid != ? AND (cwd = ? OR user_named = 1)');
      name = uniqueName(base, (n) => taken.get(n, existing?.rowid ?? -1, cwd) !== undefined);
    }
    const values = {
      id: w.id, agent: w.agent, transcript: w.transcript, cwd, project: w.project, name,
      title: w.title === undefined ? null : mask(w.title), headline: mask(w.headline), line: mask(w.line),
      created_at: Math.min(...[existing?.created_at, w.createdAt, w.updatedAt].filter((t): t is number => typeof t === 'number')), updated_at: Math.max(w.updatedAt, w.createdAt ?? 0),
      model: w.model ?? null, git_branch: w.gitBranch ?? null, parent: w.parent ?? null,
      prompts: w.counts.prompts, turns: w.counts.turns, tool_calls: w.counts.toolCalls, status: w.status, language: w.language,
      tags: JSON.stringify(maskList(w.tags)), done: JSON.stringify(maskList(w.done)), next: JSON.stringify(maskList(w.next)),
      artifacts: JSON.stringify(w.artifacts.map((a) => ({ kind: a.kind, label: mask(a.label), locator: mask(a.locator) }))),
      mark_size: w.mark.size, mark_mtime: w.mark.mtimeMs, mark_entry: w.mark.entry, indexed_at: now,
    };
    // A model summary's generator stays until a new model summary replaces it.
    const generator = existing?.summary ? undefined : JSON.stringify(w.generator);
    let rowid: number;
    // A new row's text fields are those just inserted (no read of the row back).
    let inserted: TextFields | undefined;
    if (existing) {
      rowid = existing.rowid;
      this.stmt(
        `UPDATE sessions SET id=@id, agent=@agent, cwd=@cwd, project=@project, name=@name, title=@title, headline=@headline, line=@line,
           created_at=@created_at, updated_at=@updated_at, model=@model, git_branch=@git_branch, parent=COALESCE(@parent, parent),
           prompts=@prompts, turns=@turns, tool_calls=@tool_calls, status=@status, language=@language,
           tags=CASE WHEN summary IS NULL THEN @tags ELSE tags END, done=@done,
           next=CASE WHEN summary IS NULL THEN @next ELSE next END, artifacts=@artifacts, transcript_exists=1,
           mark_size=@mark_size, mark_mtime=@mark_mtime, mark_entry=@mark_entry, indexed_at=@indexed_at
           ${generator ? ', generator=@generator' : ''}
         WHERE rowid=@rowid`,
      ).run({ ...values, rowid, ...(generator ? { generator } : {}) });
    } else {
      rowid = Number(
        this.stmt(
          `INSERT INTO sessions(id, agent, transcript, cwd, project, name, title, headline, line, created_at, updated_at, model, git_branch, parent,
             prompts, turns, tool_calls, status, language, tags, generator, done, next, artifacts, mark_size, mark_mtime, mark_entry, indexed_at)
           VALUES (@id, @agent, @transcript, @cwd, @project, @name, @title, @headline, @line, @created_at, @updated_at, @model, @git_branch, @parent,
             @prompts, @turns, @tool_calls, @status, @language, @tags, @generator, @done, @next, @artifacts, @mark_size, @mark_mtime, @mark_entry, @indexed_at)`,
        ).run({ ...values, generator: JSON.stringify(w.generator) }).lastInsertRowid,
      );
      inserted = { name, title: values.title, headline: values.headline, tags: values.tags, project: values.project, user_note: null, description: null, summary: null, done: values.done, next: values.next };
    }
    this.writeText(rowid, mask(w.text), inserted);
    if (w.words !== undefined && !(w.wordsPartial && this.hasWords(rowid))) {
      const append = w.wordsAppend === true;
      this.writeWords(rowid, w.words, append);
      // How far the words now hold every word of the file (an appended part: only when the stored ones did up to where it starts).
      const at = w.wordsAt ?? 0;
      if (append) this.stmt('UPDATE sessions SET words_at = CASE WHEN words_at > 0 AND words_at = ? THEN ? ELSE 0 END WHERE rowid = ?').run(w.wordsFrom ?? -1, at, rowid);
      else this.stmt('UPDATE sessions SET words_at = ? WHERE rowid = ?').run(at, rowid);
    }
    this.setFile(w.transcript, w.mark.size, w.mark.mtimeMs, 'indexed');
  }

  /**
   * Mask again, in place, what rows hold. 'unread': the rows no refresh will write again (transcript gone
   * or left out): an index written before every text was masked before any cut (#33, schema before step
   * 8) kept a token cut short, or a shape not masked then (a password in an https URL); the rows of files
   * still there are read again (step 8). 'all': every row, for rules that mask more than the old ones did
   * (issue 40, step 9). The text index is rewritten after (no old word of theirs left). How many rows;
   * called inside the migration's transaction.
   */
  remask(which: 'unread' | 'all'): number {
    const where = which === 'all' ? '' : " WHERE transcript_exists = 0 OR transcript NOT IN (SELECT transcript FROM files WHERE state = 'indexed')";
    const rows = this.db.prepare(`SELECT * FROM sessions${where}`).all() as Row[];
    if (rows.length === 0) return 0;
    const list = (text: string) => JSON.stringify(maskList(json<string[]>(text, [])));
    const orNull = (text: string | null) => (text === null ? null : mask(text));
    const update = this.db.prepare('UPDATE sessions SET title = ?, headline = ?, line = ?, tags = ?, done = ?, next = ?, artifacts = ?, description = ?, summary = ?, user_note = ? WHERE rowid = ?');
    const body = this.db.prepare('SELECT text FROM session_body WHERE rowid = ?').pluck();
    for (const r of rows) {
      const artifacts = json<StoredArtifact[]>(r.artifacts, []).map((a) => ({ kind: a.kind, label: mask(a.label), locator: mask(a.locator) }));
      update.run(orNull(r.title), mask(r.headline), mask(r.line), list(r.tags), list(r.done), list(r.next), JSON.stringify(artifacts), orNull(r.description), orNull(r.summary), orNull(r.user_note ?? null), r.rowid);
      const text = mask((body.get(r.rowid) as string | undefined) ?? '');
      this.writeText(r.rowid, text);
      this.writeWords(r.rowid, this.keptWords(r.rowid, text), false);
    }
    this.rewriteText();
    return rows.length;
  }

  /**
   * The rows no refresh reads again (transcript gone, or left out) get a vocabulary made of what they
   * kept (the condensed text, name, title, summaries): an index upgraded to words (schema step 9).
   * How many rows; called inside the migration's transaction.
   */
  fillWordsUnread(): number {
    const rows = this.db.prepare("SELECT rowid FROM sessions WHERE transcript_exists = 0 OR transcript NOT IN (SELECT transcript FROM files WHERE state = 'indexed')").pluck().all() as number[];
    const body = this.db.prepare('SELECT text FROM session_body WHERE rowid = ?').pluck();
    for (const rowid of rows) this.writeWords(rowid, this.keptWords(rowid, (body.get(rowid) as string | undefined) ?? ''), false);
    return rows.length;
  }

  // A row's vocabulary made of what the index kept of it (no transcript to read).
  private keptWords(rowid: number, body: string): string {
    const r = this.stmt('SELECT * FROM sessions WHERE rowid = ?').get(rowid) as Row;
    return vocabularyOf([headText(r), r.cwd, body, summaryText(r)]);
  }

  // A session's vocabulary rows, one by one (a range of rowids would make FTS5 read its whole index).
  private dropWords(rowid: number): void {
    const parts = (this.stmt('SELECT word_parts FROM sessions WHERE rowid = ?').pluck().get(rowid) as number | undefined) ?? 0;
    const drop = this.stmt('DELETE FROM session_words WHERE rowid = ?');
    for (let part = 0; part < parts; part++) drop.run(part * WORD_PART_STRIDE + rowid);
  }

  /**
   * How far into a transcript its session's words hold every word of it (0: not known to; schema step 11).
   * Also 0 once its words are in WORD_PARTS_WHOLE parts or more: the next read writes them again in one.
   */
  wordsAt(transcript: string): number {
    return (this.stmt('SELECT CASE WHEN word_parts < ? THEN words_at ELSE 0 END FROM sessions WHERE transcript = ?').pluck().get(WORD_PARTS_WHOLE, transcript) as number | undefined) ?? 0;
  }

  private hasWords(rowid: number): boolean {
    return ((this.stmt('SELECT word_parts FROM sessions WHERE rowid = ?').pluck().get(rowid) as number | undefined) ?? 0) > 0;
  }

  // A session's vocabulary rows (session_words): replaced whole, or a part added (a big file's appended lines).
  private writeWords(rowid: number, words: string, append: boolean): void {
    if (rowid >= WORD_PART_STRIDE) return; // never met (2^32 sessions): its rows would be another's
    let part = 0;
    if (append) {
      part = (this.stmt('SELECT word_parts FROM sessions WHERE rowid = ?').pluck().get(rowid) as number | undefined) ?? 0;
      if (part >= WORD_PARTS_MAX - 1) return;
    } else this.dropWords(rowid);
    if (words) this.stmt('INSERT INTO session_words(rowid, words) VALUES (?, ?)').run(part * WORD_PART_STRIDE + rowid, words);
    // Words written whole are not known to hold every word of the file unless the caller says so (upsert).
    this.stmt(`UPDATE sessions SET word_parts = ?${append ? '' : ', words_at = 0'} WHERE rowid = ?`).run(words ? part + 1 : part, rowid);
  }

  /**
   * Several sessions in one write transaction (the scan batches its writes: one commit, not one each).
   * No savepoint per session (a failed write throws out of the whole batch anyway): FTS5 writes its
   * pending rows out as a new segment at every savepoint, so one per session made a first index write
   * a segment per session and per text index, and merge them again and again.
   */
  upsertMany(writes: readonly SessionWrite[], now = Date.now()): void {
    if (writes.length === 0) return;
    this.db.transaction(() => {
      for (const w of writes) this.writeSession(w, now);
    }).immediate();
  }

  // The FTS row of a session (what indexText() makes of its head: name, title, headline, tags, project;
  // body: the condensed text; summary), and the readable body kept beside it (session_body). `fields`: the
  // row's text fields when the caller has them (a row just inserted), else read from it.
  private writeText(rowid: number, body?: string, fields?: TextFields): void {
    const r = fields ?? (this.stmt('SELECT * FROM sessions WHERE rowid = ?').get(rowid) as Row);
    const text = body ?? (this.stmt('SELECT text FROM session_body WHERE rowid = ?').pluck().get(rowid) as string | undefined) ?? '';
    this.stmt('DELETE FROM session_text WHERE rowid = ?').run(rowid);
    this.stmt('INSERT INTO session_text(rowid, head, body, summary) VALUES (?, ?, ?, ?)').run(rowid, indexText(headText(r)), indexText(text), indexText(summaryText(r)));
    if (body !== undefined) this.stmt('INSERT INTO session_body(rowid, text) VALUES (?, ?) ON CONFLICT(rowid) DO UPDATE SET text = excluded.text').run(rowid, body);
  }

  private rowsOf(sql: string, params: unknown[]): StoredSession[] {
    return (this.db.prepare(sql).all(...params) as Row[]).map(toSession);
  }

  list(filter: ListFilter = {}): StoredSession[] {
    const { where, params } = filterSql(filter, 's');
    return this.rowsOf(`SELECT s.* FROM sessions s ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY s.updated_at DESC LIMIT ?`, [...params, filter.limit ?? DEFAULT_LIMIT]);
  }

  /**
   * Ranked hits for a user's plain words; `error` when the query holds no word or is too long. Never an
   * FTS syntax error. Each query word is held by a session at a level (LEVEL_WEIGHT): as typed in its
   * ranked text (the vocabulary holds it exactly and the text by its stem), as typed anywhere else in it
   * (its vocabulary only), by its English stem only, or as the start of a word (`prefixLast`: the last
   * word typed in the picker). Sessions holding most of the words at the best levels first; among those,
   * bm25 over the ranked text; recency breaks ties. A session whose name or id is the query (or one of its
   * words) comes first. `allWords`: only sessions holding every word. Each hit carries the query words it
   * holds and a snippet of its own text around them; none at all: `suggestion`, the indexed word closest
   * to a word no session holds.
   */
  search(query: string, filter: ListFilter = {}, opts: SearchOptions = {}): SearchResult | { error: string } {
    const tooLong = queryTooLong(query);
    if (tooLong) return { error: tooLong };
    const all = queryTerms(query, { prefixLast: opts.prefixLast });
    if (all.length === 0) return { error: `Expected words to search for, got ${JSON.stringify(query)}` };
    let terms = opts.allWords ? all : rankingTerms(all);
    const limit = filter.limit ?? DEFAULT_LIMIT;
    const { where, params } = filterSql(filter, 's');
    const allowed = where.length ? new Set(this.db.prepare(`SELECT rowid FROM sessions s WHERE ${where.join(' AND ')}`).pluck().all(...params) as number[]) : undefined;
    // Where each term is held, at each level (one index lookup each: no row is read).
    const textMatch = this.db.prepare('SELECT rowid FROM session_text WHERE session_text MATCH ?').pluck();
    // A session's words are in parts (rowid % stride is the session): the Set drops the repeats, which
    // DISTINCT made SQLite do at ~2x the lookup's cost (8.3 ms against 4.6 for a common word of 10k sessions).
    const wordMatch = this.db.prepare(`SELECT rowid % ${WORD_PART_STRIDE} FROM session_words WHERE session_words MATCH ?`).pluck();
    const exactRows = this.exactRows(query);
    if (terms.length === 1 && !allowed && exactRows.size === 0 && limit > 0) {
      const fast = this.oneWordTop(terms[0] as QueryTerm, limit, (expr) => new Set(textMatch.all(expr) as number[]), (expr) => new Set(wordMatch.all(expr) as number[]));
      if (fast) return this.hitsOf(fast.top, terms, limit, fast.total);
    }
    const bm25 = this.db.prepare(`SELECT rowid, ${BM25} AS score FROM session_text WHERE session_text MATCH ?`).raw();
    const scoresOf = (expr: string) => {
      const out = new Map<number, number>();
      for (const r of bm25.all(expr) as Array<[number, number]>) out.set(r[0], r[1]);
      return { expr, scores: out };
    };
    // A query of one word (no prefix): its stem holders are the rows the bm25 pass scores, so that pass
    // stands for the stem lookup (a common word: ~3.6 ms of ~30 of SQL).
    let scored: { expr: string; scores: Map<number, number> } | undefined;
    const lookup = (ts: readonly QueryTerm[]): TermHolders[] =>
      ts.map((t) => {
        const stem = ts.length === 1 && !t.prefix ? (scored = scoresOf(t.match)).scores : new Set(textMatch.all(t.match) as number[]);
        let exact = new Set(t.exact ? (wordMatch.all(t.exact) as number[]) : []);
        // A joined word no session holds as typed: the sessions holding all its parts hold it (QueryTerm.parts).
        if (exact.size === 0 && t.parts) exact = new Set(wordMatch.all(t.parts) as number[]);
        return { stem, exact, prefix: new Set(t.prefix ? (textMatch.all(t.prefix) as number[]) : []) };
      });
    const held = (h: TermHolders) => h.stem.size + h.exact.size + h.prefix.size > 0;
    let holders = lookup(terms);
    // No session holds a content word: the function words then rank (never empty while some word is held).
    if (terms.length < all.length && !holders.some(held)) holders = lookup((terms = all));
    const present = terms.filter((_, i) => held(holders[i] as TermHolders));
    if (present.length === 0 && exactRows.size === 0) return { hits: [], complete: false, total: 0, ...this.suggestionFor(terms) };
    // bm25 over the ranked text of the words a session holds there (by stem, or as a prefix where that applies).
    const textExpr = present.map((t) => (t.prefix ? `(${t.match} OR ${t.prefix})` : t.match)).join(' OR ');
    if (terms.length > 1 && present.length === terms.length && !allowed && exactRows.size === 0 && limit > 0 && !opts.allWords) {
      const fast = this.everyWordTop(terms, holders, limit);
      if (fast) return this.hitsOf(fast.top, terms, limit, fast.total);
    }
    const { scores } = scored?.expr === textExpr ? scored : scoresOf(textExpr);
    const candidates = new Set<number>(scores.keys());
    for (const h of holders) for (const rowid of h.exact) candidates.add(rowid);
    for (const rowid of exactRows) candidates.add(rowid);
    // Each term's weight at level 3 (as typed, not by stem) is the same for every session: worked out once.
    const typedWeight = holders.map((h) => (typedTellsMore(h, terms.length) ? TYPED_OVER_STEM_WEIGHT : LEVEL_WEIGHT[3]));
    const ranked: Ranked[] = [];
    for (const rowid of candidates) {
      if (allowed && !allowed.has(rowid)) continue;
      const matched: number[] = [];
      let weight = 0;
      for (let i = 0; i < terms.length; i++) {
        const level = levelOf(holders[i] as TermHolders, rowid);
        if (level === 0) continue;
        matched.push(i);
        weight += level === 3 ? (typedWeight[i] as number) : LEVEL_WEIGHT[level];
      }
      const isExact = exactRows.has(rowid);
      if (opts.allWords && matched.length < terms.length && !isExact) continue;
      ranked.push({ rowid, score: scores.get(rowid) ?? 0, matched, weight, exact: isExact });
    }
    // Enough rows for the limit and any tie at its edge (recency breaks ties): those ranked at or before
    // the limit-th, in the order a stable sort of them all gives, without sorting them all (a common word:
    // ~9,000 candidates for 10 hits).
    let top: Ranked[];
    if (ranked.length <= limit) top = ranked.sort(order);
    else if (limit <= 0) top = [];
    else {
      const edge = nthBest(ranked, limit, order);
      top = ranked.filter((r) => order(r, edge) <= 0).sort(order);
    }
    if (top.length === 0) return { hits: [], complete: false, total: 0, ...this.suggestionFor(terms) };
    return this.hitsOf(top, terms, limit, ranked.length);
  }

  /**
   * A query of one word, no filter, no name or id matched, ranked as search() ranks it without scoring
   * every session that holds it: a common word's holders by stem are thousands (bm25 of them all and a
   * ranking entry each were ~35 of the ~50 ms such a search took at 10,000 sessions). The best are those
   * holding it both as typed and by stem (level 4), in bm25 order: SQLite's own `ORDER BY` hands the
   * best-scored holders, and those held as typed among them are the top (bestScoredTop). Else undefined:
   * search() ranks them all. `total` is what search() counts: every holder, by stem or as typed.
   */
  private oneWordTop(term: QueryTerm, limit: number, stemOf: (expr: string) => Set<number>, typedOf: (expr: string) => Set<number>): { top: Ranked[]; total: number } | undefined {
    if (term.prefix || !term.exact) return undefined;
    const typed = typedOf(term.exact);
    const top = this.bestScoredTop(term.match, limit, (rowid) => typed.has(rowid), [0], LEVEL_WEIGHT[4]);
    if (!top) return undefined;
    return { top, total: unionSize([stemOf(term.match), typed]) };
  }

  /**
   * A query of several words (none a prefix), no filter, no name or id matched, ranked as search() ranks
   * it without scoring every session that holds one of them: a session holding every word both as typed
   * and by stem (level 4 each: the most weight there is) comes before any other, and among those bm25
   * decides. Only the sessions holding every word by stem can be such (`a AND b`: bm25 scores a row the
   * same for it as for search()'s `a OR b`, the same phrases), and SQLite's `ORDER BY` hands the
   * best-scored of them; those holding every word as typed too are the top (bestScoredTop). Else
   * undefined: search() ranks them all. Two common words of 10,000 sessions: bm25 of every holder of
   * either and a ranking entry each were ~80 of the ~120 ms such a search spent in SQL and here. `total`
   * is what search() counts: every holder of a word, by stem or as typed.
   */
  private everyWordTop(terms: readonly QueryTerm[], holders: readonly TermHolders[], limit: number): { top: Ranked[]; total: number } | undefined {
    if (terms.some((t) => t.prefix || !t.exact)) return undefined;
    const every = terms.map((t) => `(${t.match})`).join(' AND ');
    const top = this.bestScoredTop(every, limit, (rowid) => holders.every((h) => levelOf(h, rowid) === 4), terms.map((_, i) => i), terms.length * LEVEL_WEIGHT[4]);
    return top && { top, total: unionSize(holders.flatMap((h) => [h.stem, h.exact])) };
  }

  /**
   * The top of a ranking whose best rows are those `best` says are (every query word at level 4: the most
   * weight there is) among the rows `expr` matches, bm25 deciding among them: SQLite's `ORDER BY` hands
   * the best-scored rows `expr` matches (4x the limit, ONE_WORD_READ_MIN at least), and the best among them
   * are the top as long as `limit` of them come before the last row read and the last one read scores worse
   * than the limit-th (no tie cut off), or every row `expr` matches was read. Else undefined.
   */
  private bestScoredTop(expr: string, limit: number, best: (rowid: number) => boolean, matched: number[], weight: number): Ranked[] | undefined {
    const read = Math.max(limit * 4, ONE_WORD_READ_MIN);
    const rows = this.db.prepare(`SELECT rowid, ${BM25} AS score FROM session_text WHERE session_text MATCH ? ORDER BY score LIMIT ${read}`).raw().all(expr) as Array<[number, number]>;
    const full = rows.filter(([rowid]) => best(rowid));
    const edge = full[limit - 1];
    const last = rows[rows.length - 1];
    if (!edge || (rows.length === read && !((last as [number, number])[1] > edge[1]))) return undefined;
    return full.filter(([, score]) => score <= edge[1]).map(([rowid, score]) => ({ rowid, score, matched, weight, exact: false }));
  }

  // The hits of the ranked rows cut at the limit (`top`: every row ranked at or before the limit-th, ties
  // at the edge included), each with its snippet. Ties: among rows holding the words only outside their
  // ranked text (no bm25 score), the shorter transcript first (a long session holds nearly every word of
  // what it read: the words are likelier what a short one is about); then the newer.
  private hitsOf(top: Ranked[], terms: readonly QueryTerm[], limit: number, total: number): SearchResult {
    const rows = new Map((this.db.prepare(`SELECT s.*, b.text AS body_text FROM sessions s LEFT JOIN session_body b ON b.rowid = s.rowid WHERE s.rowid IN (${top.map(() => '?').join(',')})`).all(...top.map((t) => t.rowid)) as Array<Row & { body_text: string | null }>).map((r) => [r.rowid, r]));
    const updated = (rowid: number) => rows.get(rowid)?.updated_at ?? 0;
    const bytes = (rowid: number) => rows.get(rowid)?.mark_size ?? 0;
    top.sort((a, b) => order(a, b) || (a.score === 0 && b.score === 0 ? bytes(a.rowid) - bytes(b.rowid) : 0) || updated(b.rowid) - updated(a.rowid));
    const hits: StoredHit[] = [];
    for (const t of top.slice(0, limit)) {
      const r = rows.get(t.rowid);
      if (!r) continue;
      const matched = t.matched.map((i) => terms[i] as QueryTerm);
      hits.push({ ...toSession(r), snippet: hitSnippet(r, r.body_text ?? '', matched.map((m) => ({ word: m.word, prefix: m.prefix !== undefined }))), score: t.score, matched: matched.map((m) => m.word) });
    }
    const first = top[0];
    return { hits, complete: first !== undefined && first.matched.length === terms.length, total };
  }

  // The closest indexed word to the first query word no session holds (a typo), when one is close enough.
  private suggestionFor(terms: readonly QueryTerm[]): { suggestion?: string } {
    const vocab = this.db.prepare('SELECT term, doc FROM session_words_vocab WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ? LIMIT 20000');
    const words = terms.map((t) => t.word);
    const out = [...words];
    let changed = false;
    for (const [i, word] of words.entries()) {
      const w = word.toLowerCase();
      if (w.length < 4 || !/^[\p{L}\p{N}]+$/u.test(w)) continue;
      // Indexed words starting as w does (its first `n` characters), within two letters of its length.
      const startingAs = (n: number) => {
        const head = w.slice(0, n);
        const next = head.slice(0, -1) + String.fromCharCode(head.charCodeAt(head.length - 1) + 1);
        return vocab.raw().all(head, next, w.length - 2, w.length + 2) as Array<[string, number]>;
      };
      // Most typos leave the first two letters; one in the second (`lsting`, `wrld`) is looked for among the
      // words of the same first letter (more rows read, and only for a query that found nothing).
      const found = closestWord(w, startingAs(2)) ?? closestWord(w, startingAs(1));
      if (found) {
        out[i] = found;
        changed = true;
      }
    }
    return changed ? { suggestion: out.join(' ') } : {};
  }

  // Sessions whose name or id is the query or one of its words (an id prefix of 8 or more characters too);
  // a word written `@@word` is a name only, as in every REF.
  private exactRows(query: string): Set<number> {
    const words = [query.trim(), ...query.trim().split(/\s+/)].map((w) => ({ w: w.replace(/^@@/, ''), nameOnly: w.startsWith('@@') })).filter(({ w }) => w.length >= 3);
    const out = new Set<number>();
    const byName = this.db.prepare('SELECT rowid FROM sessions WHERE name = ?').pluck();
    const byId = this.db.prepare('SELECT rowid FROM sessions WHERE id = ?').pluck();
    const byPrefix = this.db.prepare("SELECT rowid FROM sessions WHERE id LIKE ? ESCAPE '\\' LIMIT 2").pluck();
    const seen = new Set<string>();
    for (const { w, nameOnly } of words) {
      if (seen.has(`${nameOnly}\0${w}`)) continue;
      seen.add(`${nameOnly}\0${w}`);
      for (const rowid of byName.all(w.toLowerCase()) as number[]) out.add(rowid);
      if (nameOnly) continue;
      for (const rowid of byId.all(w) as number[]) out.add(rowid);
      if (w.length >= 8 && /^[0-9a-f-]+$/i.test(w)) {
        const rows = byPrefix.all(w.replace(/[\\%_]/g, (c) => `\\${c}`) + '%') as number[];
        if (rows.length === 1) out.add(rows[0] as number);
      }
    }
    return out;
  }

  get(id: string): StoredSession | undefined {
    const r = this.db.prepare('SELECT * FROM sessions WHERE id = ? ORDER BY updated_at DESC LIMIT 1').get(id) as Row | undefined;
    return r ? toSession(r) : undefined;
  }

  byTranscript(transcript: string): StoredSession | undefined {
    const r = this.db.prepare('SELECT * FROM sessions WHERE transcript = ?').get(transcript) as Row | undefined;
    return r ? toSession(r) : undefined;
  }

  /**
   * id → id prefix → exact name → fuzzy name (`@@name` is only ever a name); a name in `cwd` wins over the
   * same name elsewhere. `exact` (forget): no fuzzy match is taken; the names it would have matched come
   * back as the candidates of a 'none'. A fuzzy match comes back marked `loose`, so a reader can say it
   * guessed and a writer can refuse the guess.
   */
  resolve(ref: string, opts: { cwd?: string; exact?: boolean } = {}): StoreRef {
    const nameOnly = ref.trim().startsWith('@@'); // `@@name` is always a name, never an id
    const r = ref.trim().replace(/^@@/, '');
    if (!r) return { ok: false, kind: 'none', candidates: [] };
    const pick = (rows: StoredSession[]): StoreRef | undefined => {
      if (rows.length === 1) return { ok: true, row: rows[0] as StoredSession };
      if (rows.length > 1) {
        const here = opts.cwd ? rows.filter((x) => x.cwd === opts.cwd) : [];
        if (here.length === 1) return { ok: true, row: here[0] as StoredSession };
        return { ok: false, kind: 'ambiguous', candidates: rows.slice(0, 10) };
      }
      return undefined;
    };
    const likeEsc = r.replace(/[\\%_]/g, (c) => `\\${c}`);
    return (
      (nameOnly ? undefined : pick(this.rowsOf('SELECT * FROM sessions WHERE id = ? ORDER BY updated_at DESC LIMIT 11', [r]))) ??
      (r.length >= 4 && !nameOnly ? pick(this.rowsOf("SELECT * FROM sessions WHERE id LIKE ? ESCAPE '\\' ORDER BY updated_at DESC LIMIT 11", [likeEsc + '%'])) : undefined) ??
      pick(this.rowsOf('SELECT * FROM sessions WHERE name = ? ORDER BY updated_at DESC LIMIT 11', [normalizeUserName(r) ?? r])) ??
      (opts.exact ? { ok: false, kind: 'none', candidates: this.fuzzy(r).slice(0, 10) } : undefined) ??
      markLoose(pick(this.fuzzy(r))) ?? { ok: false, kind: 'none', candidates: [] }
    );
  }

  // Names holding every word of the ref (in order of recency).
  private fuzzy(ref: string): StoredSession[] {
    const words = (normalizeUserName(ref) ?? '').split('-').filter(Boolean);
    if (words.length === 0) return [];
    const where = words.map(() => "name LIKE ? ESCAPE '\\'").join(' AND ');
    return this.rowsOf(`SELECT * FROM sessions WHERE ${where} ORDER BY updated_at DESC LIMIT 11`, words.map((w) => '%' + w.replace(/[\\%_]/g, (c) => `\\${c}`) + '%'));
  }

  /** Give a session the user's own name; an error when the name is empty or another session holds it, in any folder. */
  rename(id: string, name: string): { ok: true; name: string } | { ok: false; error: string } {
    const clean = normalizeUserName(name);
    if (!clean) return { ok: false, error: `Expected a name with letters or digits, got ${JSON.stringify(name)}` };
    return this.db.transaction((): { ok: true; name: string } | { ok: false; error: string } => {
      const row = this.db.prepare('SELECT rowid, cwd FROM sessions WHERE id = ?').get(id) as { rowid: number; cwd: string } | undefined;
      if (!row) return { ok: false, error: `no session ${id} in the index` };
      // A name a REF would take for an id would make the session (or another) unreachable by it.
      if (looksLikeId(clean)) return { ok: false, error: `the name ${clean} looks like a session id; choose a name with a word in it` };
      const idHolder = clean.length >= 4 ? (this.db.prepare("SELECT id FROM sessions WHERE id LIKE ? ESCAPE '\\' LIMIT 1").get(clean.replace(/[\\%_]/g, (c) => `\\${c}`) + '%') as { id: string } | undefined) : undefined;
      if (idHolder) return { ok: false, error: `the name ${clean} is the start of session ${idHolder.id}'s id (a REF would find that session); choose another` };
      // Taken anywhere, not only in that folder: two sessions of one name make that name ambiguous.
      const other = this.db.prepare('SELECT id, agent, cwd FROM sessions WHERE name = ? AND rowid != ? ORDER BY updated_at DESC LIMIT 1').get(clean, row.rowid) as { id: string; agent: string; cwd: string } | undefined;
      if (other) return { ok: false, error: `the name ${clean} is taken by ${other.agent} session ${other.id.slice(0, 8)} in ${other.cwd}; choose another` };
      this.db.prepare('UPDATE sessions SET name = ?, user_named = 1 WHERE rowid = ?').run(clean, row.rowid);
      this.writeText(row.rowid);
      return { ok: true, name: clean };
    }).immediate();
  }

  /**
   * Your own recap of a session (masked for secrets), or none with `text` undefined; searchable with the
   * summaries. No writer touches it: a later turn's recap is stored beside it. False when no such session.
   */
  setNote(id: string, text: string | undefined, now = Date.now()): boolean {
    return this.db.transaction((): boolean => {
      const row = this.db.prepare('SELECT rowid FROM sessions WHERE id = ? ORDER BY updated_at DESC LIMIT 1').get(id) as { rowid: number } | undefined;
      if (!row) return false;
      this.db.prepare('UPDATE sessions SET user_note = ?, user_note_at = ? WHERE rowid = ?').run(text === undefined ? null : mask(text), text === undefined ? null : now, row.rowid);
      this.writeText(row.rowid);
      return true;
    }).immediate();
  }

  /** The session this one was forked from, when the index has it (its id, or its transcript path as pi names it). */
  parentOf(s: Pick<StoredSession, 'parent' | 'id' | 'transcript'>): StoredSession | undefined {
    if (!s.parent) return undefined;
    const found = this.byTranscript(s.parent) ?? this.get(s.parent);
    return found && found.transcript !== s.transcript ? found : undefined;
  }

  /** The sessions forked from this one, newest first. */
  childrenOf(s: Pick<StoredSession, 'id' | 'transcript'>, limit = 20): StoredSession[] {
    return this.rowsOf('SELECT * FROM sessions WHERE (parent = ? OR parent = ?) AND transcript != ? ORDER BY updated_at DESC LIMIT ?', [s.id, s.transcript, s.transcript, limit]);
  }

  /**
   * Keep that a model summary was asked for at `prompts` prompts (at `now`); false when one was already
   * asked at that count or later (another worker or wrapper got there first): then ask nothing.
   */
  claimSummary(id: string, prompts: number, now = Date.now()): boolean {
    return this.db.prepare('UPDATE sessions SET summary_asked = ?, summary_asked_at = ? WHERE id = ? AND summary_asked < ?').run(prompts, now, id, prompts).changes > 0;
  }

  /** A model's summary: name (unless the user named it), description, summary, tags, next step. */
  setModelSummary(id: string, s: { name: string; description: string; summary: string; tags: string[]; next: string }, generator: { type: string; model?: string }): void {
    this.db.transaction(() => {
      const row = this.db.prepare('SELECT rowid, cwd, name, user_named, prompts FROM sessions WHERE id = ?').get(id) as { rowid: number; cwd: string; name: string; user_named: number; prompts: number } | undefined;
      if (!row) return;
      let name = row.name;
      const wanted = normalizeUserName(mask(s.name))?.replace(/[^a-z0-9-]/g, '').replace(/^-+|-+$/g, '');
      if (!row.user_named && wanted && wanted !== row.name) {
        const taken = this.db.prepare('SELECT 1 FROM sessions WHERE name = ? AND rowid != ? AND (cwd = ? OR user_named = 1)');
        name = uniqueName(wanted.slice(0, 40), (n) => taken.get(n, row.rowid, row.cwd) !== undefined);
      }
      this.db
        .prepare('UPDATE sessions SET name = ?, description = ?, summary = ?, tags = ?, next = ?, generator = ?, summary_prompts = ? WHERE rowid = ?')
        .run(name, mask(s.description), mask(s.summary), JSON.stringify(maskList(s.tags)), JSON.stringify(s.next ? [mask(s.next)] : []), JSON.stringify(generator), row.prompts, row.rowid);
      this.writeText(row.rowid);
    }).immediate();
  }

  condensedText(id: string): string {
    const r = this.db.prepare('SELECT b.text FROM session_body b JOIN sessions s ON s.rowid = b.rowid WHERE s.id = ? ORDER BY s.updated_at DESC LIMIT 1').get(id) as { text: string } | undefined;
    return r?.text ?? '';
  }

  /** The condensed text of the session of one transcript ('' when none). */
  condensedTextOf(transcript: string): string {
    return (this.db.prepare('SELECT b.text FROM session_body b JOIN sessions s ON s.rowid = b.rowid WHERE s.transcript = ?').pluck().get(transcript) as string | undefined) ?? '';
  }

  passages(id: string, question: string, limit?: number): string[] {
    return relevantPassages(this.condensedText(id), question, limit);
  }

  /** Delete sessions and their text for good; their files are remembered only as forgotten. */
  forget(ids: readonly string[]): ForgetOutcome {
    const select = this.db.prepare('SELECT rowid, transcript, agent, id, mark_size, mark_mtime FROM sessions WHERE id = ?');
    return this.forgetRows(() => ids.flatMap((id) => select.all(id) as ForgetRow[]));
  }

  /** Forget every session whose folder is `dir` or below it. */
  forgetFolder(dir: string): ForgetOutcome {
    const { where, params } = filterSql({ folder: dir }, 's');
    const select = this.db.prepare(`SELECT s.rowid, s.transcript, s.agent, s.id, s.mark_size, s.mark_mtime FROM sessions s WHERE ${where.join(' AND ')}`);
    return this.forgetRows(() => select.all(...params) as ForgetRow[]);
  }

  // One write transaction: the rows selected inside it written to the forgotten list (first: a forget the
  // list could not keep is no forget, the transaction rolls back), dropped, the text index rewritten; then
  // the log checkpointed and the damaged copies of the index deleted.
  private forgetRows(selectRows: () => ForgetRow[]): ForgetOutcome {
    const count = this.db.transaction(() => {
      const rows = selectRows();
      if (rows.length === 0) return 0;
      if (this.paths) {
        appendForgotten(this.paths.forgotten, rows.map((r) => ({ transcript: r.transcript, agent: r.agent, id: r.id, at: Date.now() })));
        this.forgottenIds.statAt = Number.NEGATIVE_INFINITY;
      }
      for (const r of rows) this.dropRow(r);
      this.rewriteText();
      return rows.length;
    }).immediate();
    if (count === 0) return { count, purged: true, removedCopies: [] };
    const purged = this.checkpoint(CHECKPOINT_WAIT_MS);
    return { count, purged, removedCopies: this.removeDamagedCopies() };
  }

  // The text index rewritten whole (FTS5 'optimize': its segments merged into one of live rows only).
  // Replacing a session's text leaves the old version's words in older segments until a merge (FTS5
  // secure-delete is off: schema step 3); after this no version of a forgotten session's words is left,
  // and the pages that held them are zeroed (the secure_delete pragma). About 0.6 s for 10,000 sessions.
  private rewriteText(): void {
    this.db.prepare("INSERT INTO session_text(session_text) VALUES ('optimize')").run();
    this.db.prepare("INSERT INTO session_words(session_words) VALUES ('optimize')").run();
  }

  /**
   * After a refresh that rewrote much of the index (the first index above all): both text indexes merged
   * into one segment each (FTS5 'optimize': a first index leaves hundreds of small segments, and the old
   * versions of rewritten rows), and the pages that freed given back to the disk (an index created with
   * incremental auto-vacuum: open-store.ts; an older file keeps them for its next writes). On the bench's
   * first index of 500 sessions: the words' table 2.2 MB -> 1.4 MB, the text's 2.6 -> 2.1 MB, in ~150 ms.
   */
  compact(): void {
    this.db.transaction(() => this.rewriteText()).immediate();
    if (this.db.pragma('auto_vacuum', { simple: true }) === 2) this.db.pragma('incremental_vacuum');
  }

  private dropRow(r: ForgetRow): void {
    this.stmt('DELETE FROM session_text WHERE rowid = ?').run(r.rowid);
    this.dropWords(r.rowid);
    this.stmt('DELETE FROM sessions WHERE rowid = ?').run(r.rowid);
    this.setFile(r.transcript, r.mark_size, r.mark_mtime, 'forgotten');
  }

  /**
   * Forgotten text must not linger in the write-ahead log: a TRUNCATE checkpoint copies the log into the
   * database (whose freed pages secure_delete zeroed) and empties it. Another connection reading an older
   * snapshot blocks it (SQLite then reports busy, it does not fail): tried again until `waitMs` passed.
   * True when the log is empty; false leaves a try for close().
   */
  checkpoint(waitMs: number): boolean {
    const before = this.db.pragma('busy_timeout', { simple: true }) as number;
    const deadline = Date.now() + waitMs;
    try {
      this.db.pragma(`busy_timeout = ${Math.min(100, waitMs)}`);
      for (;;) {
        let busy = 1;
        try {
          busy = (this.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>)[0]?.busy ?? 1;
        } catch (error) {
          if (!String((error as { code?: unknown }).code ?? '').startsWith('SQLITE_BUSY')) throw error;
        }
        if (busy === 0) {
          this.purgePending = false;
          return true;
        }
        if (Date.now() >= deadline) {
          this.purgePending = true;
          return false;
        }
      }
    } finally {
      this.db.pragma(`busy_timeout = ${before}`);
    }
  }

  // The `index.db.corrupt-*` copies open-store.ts kept: they may hold the text just forgotten, and being
  // damaged they cannot be cleaned, so a forget deletes them (the docs say so). Their names, or [].
  private removeDamagedCopies(): string[] {
    if (!this.paths) return [];
    const folder = dirname(this.paths.index);
    const prefix = `${basename(this.paths.index)}.corrupt-`;
    const removed: string[] = [];
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return [];
    }
    for (const name of names.filter((n) => n.startsWith(prefix))) {
      try {
        unlinkSync(join(folder, name));
        if (!name.endsWith('-wal') && !name.endsWith('-shm')) removed.push(join(folder, name));
      } catch {
        // gone already (another forget), or not ours to delete: left
      }
    }
    return removed;
  }

  /**
   * Whether another connection holds the write lock (a write transaction begun and rolled back at once),
   * after waiting at most `waitMs` for it to end (SQLite's busy handler: it returns as soon as the lock is
   * free). A reader's refresh skips its writes while it is held and answers from the last commit.
   */
  writeLocked(waitMs = 0): boolean {
    const before = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.round(waitMs))}`);
    try {
      this.db.exec('BEGIN IMMEDIATE');
      this.db.exec('ROLLBACK');
      return false;
    } catch (error) {
      if (String((error as { code?: unknown }).code ?? '').startsWith('SQLITE_BUSY')) return true;
      throw error;
    } finally {
      this.db.pragma(`busy_timeout = ${before}`);
    }
  }

  /** Sessions in the index, or those a list with this filter would give without its limit. */
  count(filter: ListFilter = {}): number {
    const { where, params } = filterSql(filter, 's');
    return (this.db.prepare(`SELECT count(*) AS n FROM sessions s ${where.length ? 'WHERE ' + where.join(' AND ') : ''}`).get(...params) as { n: number }).n;
  }
}
