/**
 * The memory layer's plain data: a stored session row, what a writer hands the store, the events the
 * condensed text is built from (structurally the transcript layer's events; app passes them through).
 */

export interface SessionCounts {
  prompts: number;
  turns: number;
  toolCalls: number;
}

export interface StoredArtifact {
  kind: string;
  label: string;
  locator: string;
}

/** What a stored session and a write of one have alike: the session as its transcript gives it, and the mark. */
export interface SessionFields {
  id: string;
  agent: string;
  transcript: string;
  cwd: string;
  project: string;
  title?: string;
  headline: string;
  line: string;
  model?: string;
  gitBranch?: string;
  parent?: string;
  counts: SessionCounts;
  status: string;
  language: string;
  tags: string[];
  generator: { type: string; model?: string };
  done: string[];
  next: string[];
  artifacts: StoredArtifact[];
  /** The indexed-up-to mark: bytes and mtime of the transcript when read, and its last entry's stamp. */
  mark: { size: number; mtimeMs: number; entry: string };
}

/** One session as the index keeps it. Times are ISO-8601. */
export interface StoredSession extends SessionFields {
  name: string;
  createdAt: string;
  updatedAt: string;
  transcriptExists: boolean;
  userNamed: boolean;
  description?: string;
  summary?: string;
  /** User prompts counted when the last model summary was written (the ≥ 5 new prompts gate). */
  summaryPrompts: number;
  /** When a live wrapper last asked for a model summary: the prompts counted then (0: never) and the time (epoch ms). */
  summaryAsked: { prompts: number; at: number };
  /** Your own recap of the session (`recapwrap note`) and when you wrote it (ISO-8601): kept over every rewrite. */
  note?: { text: string; at: string };
}

/** What a writer (the scan, the live wrapper) gives the store for one session. Times are epoch ms. */
export interface SessionWrite extends SessionFields {
  createdAt?: number;
  updatedAt: number;
  /** Condensed text for full-text search (condense.ts). */
  text: string;
  /**
   * The session's vocabulary (vocabulary.ts: every distinct word it holds, space-separated); undefined
   * keeps the stored one. `wordsAppend`: words of an appended part (a big file read from its mark), added.
   */
  words?: string;
  wordsAppend?: boolean;
  /**
   * The transcript's size up to which `words` hold every word of its texts (made from the file's texts, not
   * from parsed events); with `wordsAppend`, where the appended part starts (`wordsFrom`): the row's words
   * hold every word up to `wordsAt` only when its stored ones held them up to `wordsFrom`.
   */
  wordsAt?: number;
  wordsFrom?: number;
  /** `words` made of the parsed events only (no file read for them): kept only by a row that has none yet. */
  wordsPartial?: boolean;
  /** Words a generated name is made from (condense.ts nameHints). */
  nameHints: { task: string; files: string[]; commands: string[] };
}

/** The normalized events the condensed text is made of (the transcript layer's, by structure). */
export type MemoryEvent =
  | { kind: 'user'; text: string; command?: boolean; midTurn?: boolean }
  | { kind: 'assistant'; text: string }
  | { kind: 'tool-call'; name: string; args: string; command?: string; paths: readonly string[]; callId?: string }
  | { kind: 'tool-result'; ok: boolean; text: string; callId?: string }
  | { kind: 'summary'; text: string }
  | { kind: 'title'; text: string }
  | { kind: string; text?: string };

export interface ListFilter {
  agent?: string;
  /** Only sessions whose cwd is this folder or below it. */
  folder?: string;
  /** With `folder`: that folder only, not below it. */
  exactFolder?: boolean;
  /** Epoch ms: only sessions updated since. */
  since?: number;
  limit?: number;
}

export interface StoredHit extends StoredSession {
  /** The best matching passage; matched words between HIT_START and HIT_END. */
  snippet: string;
  /** bm25 rank over the query words the sessions hold: lower is better (negative; 0 for a name or id hit). */
  score: number;
  /** The query words this session holds (as typed). */
  matched: string[];
}

/** Markers around matched words in snippets (private-use characters: never in sanitized output by chance). */
export const HIT_START = '\uE000';
export const HIT_END = '\uE001';
const HIT_MARKS = /[\uE000\uE001]/g;

/** Text without the hit markers, for output that shows no highlight (JSON, MCP, plain text). */
export function stripHitMarks(text: string): string {
  return text.replace(HIT_MARKS, '');
}
