/**
 * The session memory's one entry point for cli/ and the MCP server: open the index (lazily: nothing on
 * the wrapper's start-up path imports this file statically), refresh it from the agents' folders, and
 * list, search, resolve, show, rename and forget sessions. See the contract in the memory notes.
 */
import { join } from 'node:path';
import type { Options } from '../../config/options-table.js';
import { getHomeDir, getStateDir, type Env } from '../../config/paths.js';
import { openStore } from '../../memory/open-store.js';
import type { Store } from '../../memory/store.js';
import type { StoredSession } from '../../memory/types.js';
import { findAdapter } from '../../transcripts/registry.js';
import type { AgentId } from '../../transcripts/types.js';
import { allowedFolders, refreshIndex, type RefreshStats } from './scan.js';

export type { RefreshStats };

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
}
/** A search hit: its snippet (cut from its own text), bm25 score, and the query words it holds. */
export interface SearchHit extends SessionRow { snippet: string; score: number; matched: string[] }
export interface SessionFilter { agent?: AgentId; folder?: string; exactFolder?: boolean; since?: number /* epoch ms */; limit?: number }
export type RefResult =
  | { ok: true; row: SessionRow }
  | { ok: false; kind: 'none' | 'ambiguous'; candidates: SessionRow[] };
export interface ModelSummary { name: string; description: string; summary: string; tags: string[]; next: string }

export interface SessionMemory {
  refresh(opts?: { rebuild?: boolean; maxFiles?: number; onProgress?: (done: number, total: number) => void }): Promise<RefreshStats>;
  list(filter?: SessionFilter): SessionRow[];
  /**
   * Plain words; never an FTS syntax error (a query with no word gives []). Sessions holding every word
   * first, then the closest (most words); `allWords`: only those holding every word.
   */
  search(query: string, filter?: SessionFilter, opts?: { allWords?: boolean }): SearchHit[];
  /** id → id prefix → exact name → fuzzy name; accepts `@@name`; a name in `cwd` wins over the same name elsewhere. */
  resolve(ref: string, opts?: { cwd?: string }): RefResult;
  card(id: string): SessionCard | undefined;
  passages(id: string, question: string, limit?: number): string[];
  condensedText(id: string): string;
  /** User-given name, never overwritten; throws an Error with a one-line message when empty or taken. */
  rename(id: string, name: string): string;
  forget(ids: string[]): number;
  forgetFolder(dir: string): number;
  setModelSummary(id: string, s: ModelSummary, generator: { type: string; model?: string }): void;
  /** A warning from opening (a corrupt index moved aside), to print once. */
  readonly warning?: string;
  /** The underlying store (the live wrapper's writes, tests). */
  readonly store: Store;
  close(): void;
}

/** Where the index lives. */
export function indexFile(env: Env): string {
  return join(getStateDir(env), 'index.db');
}

export function toRow(s: StoredSession): SessionRow {
  const row: SessionRow = {
    id: s.id, agent: s.agent as AgentId, cwd: s.cwd, project: s.project, name: s.name, headline: s.headline,
    createdAt: s.createdAt, updatedAt: s.updatedAt, transcript: s.transcript, transcriptExists: s.transcriptExists,
    counts: s.counts, status: s.status, tags: s.tags, generator: s.generator, userNamed: s.userNamed,
  };
  if (s.title !== undefined) row.title = s.title;
  if (s.model !== undefined) row.model = s.model;
  if (s.gitBranch !== undefined) row.gitBranch = s.gitBranch;
  if (s.parent !== undefined) row.parent = s.parent;
  return row;
}

function toCard(s: StoredSession): SessionCard {
  const adapter = findAdapter(s.agent as AgentId);
  const card: SessionCard = {
    ...toRow(s), done: s.done, next: s.next, artifacts: s.artifacts, line: s.line, language: s.language,
    resumeCommand: [adapter?.command ?? s.agent, ...(adapter?.resumeArgs({ id: s.id, file: s.transcript }) ?? [])],
  };
  if (s.description !== undefined) card.description = s.description;
  if (s.summary !== undefined) card.summary = s.summary;
  return card;
}

/** Open the session index of this user; an error (one line) when memory is off or the state folder is unsafe. */
export async function openSessionMemory(input: { env: Env; options: Options; cwd?: string; busyMs?: number }): Promise<SessionMemory | { error: string }> {
  if (!input.options.memory) return { error: 'session memory is off (`memory: false` in the config, or RECAPWRAP_MEMORY=0)' };
  const opened = openStore(indexFile(input.env), { busyMs: input.busyMs });
  if (!opened.ok) return { error: opened.error };
  const store = opened.store;
  const home = getHomeDir(input.env);
  const ctx = { env: input.env, home, cwd: input.cwd ?? process.cwd(), folders: allowedFolders(input.options.memoryFolders, home), options: input.options };
  const memory: SessionMemory = {
    store,
    refresh: (opts) => refreshIndex(store, ctx, opts),
    list: (filter = {}) => store.list(filter).map(toRow),
    search(query, filter = {}, opts = {}) {
      const result = store.search(query, filter, opts);
      return 'error' in result ? [] : result.hits.map((h) => ({ ...toRow(h), snippet: h.snippet, score: h.score, matched: h.matched }));
    },
    resolve(ref, opts) {
      const r = store.resolve(ref, opts);
      return r.ok ? { ok: true, row: toRow(r.row) } : { ok: false, kind: r.kind, candidates: r.candidates.map(toRow) };
    },
    card(id) {
      const s = store.get(id);
      return s ? toCard(s) : undefined;
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
