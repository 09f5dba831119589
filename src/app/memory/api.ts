/**
 * The session memory's one entry point for cli/ and the MCP server: open the index (lazily: nothing on
 * the wrapper's start-up path imports this file statically), refresh it from the agents' folders, and
 * list, search, resolve, show, rename and forget sessions. See the contract in the memory notes.
 */
import { join } from 'node:path';
import { resolveConfig } from '../../config/load.js';
import type { Options } from '../../config/options-table.js';
import { getHomeDir, getStateDir, type Env } from '../../config/paths.js';
import { openStore } from '../../memory/open-store.js';
import type { ForgetOutcome, Store } from '../../memory/store.js';
import type { StoredSession } from '../../memory/types.js';
import { RECAP_HEADLINE_MAX_CHARS, RECAP_LINE_MAX_CHARS } from '../../recap/types.js';
import { findAgentSessions } from '../../transcripts/sessions.js';
import { shortenDir } from '../../util/age.js';
import type { AgentId } from '../../transcripts/types.js';
import { allowedFolders, refreshIndex, refreshingElsewhere, type RefreshOptions, type RefreshStats } from './scan.js';

export type { ForgetOutcome, RefreshOptions, RefreshStats };

export interface SessionRow {
  id: string; agent: AgentId; cwd: string; project: string;
  name: string; title?: string; headline: string;
  createdAt: string; updatedAt: string;
  transcript: string; transcriptExists: boolean;
  model?: string; gitBranch?: string; parent?: string;
  counts: { prompts: number; turns: number; toolCalls: number };
  status: string; tags: string[];
  generator: { type: string; model?: string };
  userNamed: boolean;
  /**
   * Your own recap (`recapwrap note`) and when you wrote it: then `headline` is its first line and
   * `generator` is `{type: "user_edited"}`, whatever the index wrote since (the card's `latest`).
   */
  note?: string;
  noteAt?: string;
  /** The name of the session `parent` names, when the index has it (`parent` is then its id). */
  parentName?: string;
}
export interface SessionCard extends SessionRow {
  done: string[]; next: string[];
  artifacts: { kind: string; label: string; locator: string }[];
  description?: string; summary?: string;
  /** The recap line the heuristic wrote (`recap: … Next: …`). */
  line: string;
  language: string;
  /** argv that resumes it with the agent's own flag. */
  resumeCommand: string[];
  /** argv that resumes it as a new session branched from it, when the agent's CLI can fork (`resume --fork`). */
  forkCommand?: string[];
  /** The sessions forked from this one (newest first). */
  children?: { id: string; name: string; agent: string }[];
  /** With a note: the recap the index wrote from the transcript, kept beside yours. */
  latest?: { headline: string; line: string; generator: { type: string; model?: string } };
}
/** A search hit: its snippet (cut from its own text), bm25 score, and the query words it holds. */
export interface SearchHit extends SessionRow { snippet: string; score: number; matched: string[] }
export interface SessionFilter { agent?: AgentId; folder?: string; exactFolder?: boolean; since?: number /* epoch ms */; limit?: number }
export type RefResult =
  /** `loose`: found by words of its name only (fuzzy), not by id, id prefix or exact name. */
  | { ok: true; row: SessionRow; loose?: true }
  | { ok: false; kind: 'none' | 'ambiguous'; candidates: SessionRow[] };
export interface ModelSummary { name: string; description: string; summary: string; tags: string[]; next: string }

export interface SessionMemory {
  /**
   * Bring the index up to date: quick (folders whose listing moved, recent sessions) unless `full`, or
   * the last full sweep is old; `error` set when a write failed (the index answers from its last commit).
   * ifIdle: a reader's refresh, skipped (all counts 0) when another process reads many session files now
   * (`elsewhere`: its process id; a first `index`), or holds the write lock beyond `lockWaitMs`: that one
   * is bringing the index up to date, and the read answers from its last commit instead of waiting long
   * or reading the files too.
   */
  refresh(opts?: RefreshOptions): Promise<RefreshStats>;
  /** Another recapwrap reading many session files now (a first `index`): its process id, else undefined. */
  indexingElsewhere(): number | undefined;
  list(filter?: SessionFilter): SessionRow[];
  /**
   * Plain words; never an FTS syntax error (a query with no word gives []). Sessions holding every word
   * first, then the closest (most words); `allWords`: only those holding every word.
   */
  search(query: string, filter?: SessionFilter, opts?: { allWords?: boolean; prefixLast?: boolean }): SearchHit[];
  /** The same search with whether the first hit holds every word (`search` labels closest matches), or why a query is refused (no word). */
  searchRanked(query: string, filter?: SessionFilter, opts?: { allWords?: boolean; prefixLast?: boolean }): { hits: SearchHit[]; complete: boolean; suggestion?: string; total: number } | { error: string };
  /**
   * id → id prefix → exact name → fuzzy name; accepts `@@name`; a name in `cwd` wins over the same name elsewhere.
   * A fuzzy match is marked `loose`; `exact` (the commands that write or launch): none is taken, the names it
   * would have matched are the candidates of a 'none'.
   */
  resolve(ref: string, opts?: { cwd?: string; exact?: boolean }): RefResult;
  card(id: string): SessionCard | undefined;
  passages(id: string, question: string, limit?: number): string[];
  condensedText(id: string): string;
  /** User-given name, never overwritten; throws an Error with a one-line message when empty or taken. */
  rename(id: string, name: string): string;
  /** Your own recap of a session (undefined: remove it); throws when the text is empty or the session gone. */
  setNote(id: string, text: string | undefined): void;
  /** The cards of the sessions this one was forked from: its parent, the parent's parent…, at most `depth`. */
  lineage(id: string, depth: number): SessionCard[];
  /** Forgotten for good (the forgotten list outlives the index): how many, whether the log is purged yet, the damaged copies deleted. */
  forget(ids: string[]): ForgetOutcome;
  forgetFolder(dir: string): ForgetOutcome;
  setModelSummary(id: string, s: ModelSummary, generator: { type: string; model?: string }): void;
  /** A warning from opening (a corrupt index moved aside), to print once. */
  readonly warning?: string;
  /** The underlying store (the live wrapper's writes, tests). */
  readonly store: Store;
  close(): void;
}

/** What turned memory off, as the user set it: the variable in the environment, or the config file. */
export function memoryOffBy(env: Env, cwd: string): string {
  const { source, where } = resolveConfig({ env, cwd }).sources.memory;
  if (source === 'env') return `${where ?? 'RECAPWRAP_MEMORY'}=${env[where ?? 'RECAPWRAP_MEMORY'] ?? ''} in the environment`;
  if (source === 'global file' || source === 'project file') return `\`"memory": false\` in ${where ? shortenDir(where, getHomeDir(env), 1000) : 'the config'}`;
  return '`memory: false` in the config, or RECAPWRAP_MEMORY=0';
}

/** Where the index lives. */
export function indexFile(env: Env): string {
  return join(getStateDir(env), 'index.db');
}

/** The longest note kept (a recap, not a document). */
export const NOTE_MAX_CHARS = 2000;
/**
 * How long a reader's refresh waits for another process's write to end before it answers from the last
 * commit: a wrapper's turn-end write or a batch of `index` takes milliseconds; found in CI, a `show` of a
 * session laid out a moment before said "no session matches" while a wrapper on that machine wrote its row.
 */
export const READ_LOCK_WAIT_MS = 500;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const cutTo = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max - 1).trimEnd() + '…');

export function toRow(s: StoredSession): SessionRow {
  const row: SessionRow = {
    id: s.id, agent: s.agent as AgentId, cwd: s.cwd, project: s.project, name: s.name, headline: s.headline,
    // Rows indexed before started/updated were the earliest/latest stamps: shown in order.
    createdAt: s.createdAt <= s.updatedAt ? s.createdAt : s.updatedAt, updatedAt: s.createdAt <= s.updatedAt ? s.updatedAt : s.createdAt, transcript: s.transcript, transcriptExists: s.transcriptExists,
    counts: s.counts, status: s.status, tags: s.tags, generator: s.generator, userNamed: s.userNamed,
  };
  if (s.title !== undefined) row.title = s.title;
  if (s.model !== undefined) row.model = s.model;
  if (s.gitBranch !== undefined) row.gitBranch = s.gitBranch;
  if (s.parent !== undefined) row.parent = s.parent;
  if (s.note) {
    row.note = s.note.text;
    row.noteAt = s.note.at;
    row.headline = cutTo(oneLine(s.note.text.split('\n')[0] ?? ''), RECAP_HEADLINE_MAX_CHARS);
    row.generator = { type: 'user_edited' };
  }
  return row;
}

// The parent as the index knows it: its id and name (pi names its parent by file path).
function withParent<T extends SessionRow>(row: T, s: StoredSession, store: Store): T {
  const parent = store.parentOf(s);
  if (parent) {
    row.parent = parent.id;
    row.parentName = parent.name;
  }
  return row;
}

function toCard(s: StoredSession, store: Store): SessionCard {
  const adapter = findAgentSessions(s.agent as AgentId);
  const card: SessionCard = {
    ...withParent(toRow(s), s, store), done: s.done, next: s.next, artifacts: s.artifacts, line: s.line, language: s.language,
    resumeCommand: [adapter?.command ?? s.agent, ...(adapter?.resumeArgs({ id: s.id, file: s.transcript }) ?? [])],
    children: store.childrenOf(s).map((c) => ({ id: c.id, name: c.name, agent: c.agent })),
  };
  const fork = adapter?.forkArgs?.({ id: s.id, file: s.transcript });
  if (fork) card.forkCommand = [adapter?.command ?? s.agent, ...fork];
  if (s.note) {
    card.line = cutTo(`recap: ${oneLine(s.note.text)}`, RECAP_LINE_MAX_CHARS);
    card.latest = { headline: s.headline, line: s.line, generator: s.generator };
  }
  if (s.description !== undefined) card.description = s.description;
  if (s.summary !== undefined) card.summary = s.summary;
  return card;
}

/** Open the session index of this user; an error (one line) when memory is off or the state folder is unsafe. */
export async function openSessionMemory(input: { env: Env; options: Options; cwd?: string; busyMs?: number }): Promise<SessionMemory | { error: string }> {
  if (!input.options.memory) return { error: `session memory is off (${memoryOffBy(input.env, input.cwd ?? process.cwd())})` };
  const opened = openStore(indexFile(input.env), { busyMs: input.busyMs });
  if (!opened.ok) return { error: opened.error };
  const store = opened.store;
  const home = getHomeDir(input.env);
  const ctx = { env: input.env, home, cwd: input.cwd ?? process.cwd(), folders: allowedFolders(input.options.memoryFolders, home), options: input.options };
  const memory: SessionMemory = {
    store,
    refresh: async (opts) => {
      if (opts?.ifIdle) {
        const none: RefreshStats = { files: 0, read: 0, indexed: 0, skipped: 0, gone: 0, ms: 0, full: false };
        // Another recapwrap reading the session files (a first `index`): not the same files read twice.
        const elsewhere = refreshingElsewhere(store);
        if (elsewhere !== undefined) return { ...none, elsewhere };
        // A short write (a wrapper's turn end, a batch of `index`) is waited for: a session written a
        // moment ago is then found. One that holds the lock longer is left to finish.
        if (store.writeLocked(opts.lockWaitMs ?? READ_LOCK_WAIT_MS)) return { ...none, locked: true };
      }
      return refreshIndex(store, ctx, opts);
    },
    indexingElsewhere: () => refreshingElsewhere(store),
    list: (filter = {}) => store.list(filter).map((s) => withParent(toRow(s), s, store)),
    search(query, filter = {}, opts = {}) {
      const result = memory.searchRanked(query, filter, opts);
      return 'error' in result ? [] : result.hits;
    },
    searchRanked(query, filter = {}, opts = {}) {
      const result = store.search(query, filter, opts);
      if ('error' in result) return result;
      return { complete: result.complete, total: result.total, ...(result.suggestion ? { suggestion: result.suggestion } : {}), hits: result.hits.map((h) => ({ ...withParent(toRow(h), h, store), snippet: h.snippet, score: h.score, matched: h.matched })) };
    },
    resolve(ref, opts) {
      const r = store.resolve(ref, opts);
      if (r.ok) return r.loose ? { ok: true, row: toRow(r.row), loose: true } : { ok: true, row: toRow(r.row) };
      return { ok: false, kind: r.kind, candidates: r.candidates.map(toRow) };
    },
    card(id) {
      const s = store.get(id);
      return s ? toCard(s, store) : undefined;
    },
    setNote(id, text) {
      const clean = text?.trim();
      if (clean !== undefined && !clean) throw new Error('Expected a note with some text, got only spaces');
      if (clean && clean.length > NOTE_MAX_CHARS) throw new Error(`Expected a note of at most ${NOTE_MAX_CHARS} characters, got ${clean.length}`);
      if (!store.setNote(id, clean)) throw new Error(`no session ${id} in the index`);
    },
    lineage(id, depth) {
      const out: SessionCard[] = [];
      const seen = new Set<string>();
      let s = store.get(id);
      while (s && out.length < depth) {
        seen.add(s.transcript);
        const parent = store.parentOf(s);
        if (!parent || seen.has(parent.transcript)) break;
        out.push(toCard(parent, store));
        s = parent;
      }
      return out;
    },
    passages: (id, question, limit) => store.passages(id, question, limit),
    condensedText: (id) => store.condensedText(id),
    rename(id, name) {
      const r = store.rename(id, name);
      if (!r.ok) throw new Error(r.error);
      return r.name;
    },
    forget: (ids) => store.forget(ids),
    forgetFolder: (dir) => store.forgetFolder(dir),
    setModelSummary: (id, s, generator) => store.setModelSummary(id, s, generator),
    close: () => store.close(),
  };
  if (opened.warning) Object.assign(memory, { warning: opened.warning });
  return memory;
}
