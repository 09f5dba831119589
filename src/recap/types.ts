/**
 * The recap layer's contract: the Recap shape every surface shares (DESIGN.md "Recap JSON"), the
 * context a generator sees, and the generator interface. Generators never throw once called.
 */

/**
 * Where the turn a recap line speaks of stands. Not the shared ActivityState: it also says how a turn
 * ended (aborted, errored) or that there is nothing to recap (empty), and never says exited.
 */
export type RecapStatus = 'working' | 'waiting' | 'idle' | 'aborted' | 'errored' | 'empty';
export type GeneratorType = 'heuristic' | 'agent' | 'openai' | 'anthropic';
export const GENERATOR_NAMES = ['auto', 'heuristic', 'agent', 'openai', 'anthropic'] as const;
export type GeneratorName = (typeof GENERATOR_NAMES)[number];

export const RECAP_LINE_MAX_CHARS = 220;
export const RECAP_HEADLINE_MAX_CHARS = 80;

export interface RecapArtifact {
  kind: 'file' | 'commit' | 'url' | 'pr' | 'command';
  label: string;
  locator: string;
}

/**
 * A recap as parts, so each surface can compose it for its own width by priority (compose.ts): the state
 * in a few words (always kept), the outcome sentences (best first), the subject (the task's gist or the
 * project) and the next step ('' when there is none worth saying; kept whenever the width allows).
 */
export interface RecapParts {
  /** The project, in a few cells (project-label.ts), shown first. */
  label?: string;
  state: string;
  subject?: string;
  outcome: string[];
  next: string;
  /** The next step is what the user owes (the agent's question). Composition keeps every next step first, owed or not. */
  owed?: boolean;
}

export interface Recap {
  /** `recap: … Next: …`, ≤ 220 chars, one line, no control characters. */
  line: string;
  headline: string;
  done: string[];
  next: string[];
  artifacts: RecapArtifact[];
  status: RecapStatus;
  language: string;
  /**
   * Who wrote it: recapwrap's heuristic or a model it asked, the agent's own recap (`own`,
   * docs/agent-recaps.md), or you (`user_edited`: your own recap of a past session, `recapwrap note`).
   */
  generator: { type: 'heuristic' } | { type: 'user_edited' } | { type: Exclude<GeneratorType, 'heuristic'>; model: string } | { type: 'agent'; agent: string; own: true };
  session: { agent: string; id: string; file: string };
  stamp: string;
  createdAt: string;
  /** The heuristic's parts (absent for model recaps: their line is composed as text). */
  parts?: RecapParts;
}

/**
 * The session as the recap layer reads it. The transcript layer's Session has this shape (structural
 * typing): the recap layer never imports the transcript layer, app passes the object through.
 */
export type RecapEvent =
  | { kind: 'user'; text: string; command?: boolean; midTurn?: boolean; sourceId?: string; ts?: number }
  | { kind: 'assistant'; text: string; sourceId?: string; ts?: number }
  | { kind: 'thinking'; text: string; sourceId?: string; ts?: number }
  | { kind: 'tool-call'; name: string; args: string; command?: string; paths: readonly string[]; approval?: boolean; callId?: string; sourceId?: string; ts?: number }
  | { kind: 'tool-result'; ok: boolean; text: string; name?: string; callId?: string; sourceId?: string; ts?: number }
  | { kind: 'summary'; source: 'compaction' | 'branch'; text: string; sourceId?: string; ts?: number }
  | { kind: 'turn-end'; reason?: string; sourceId?: string; ts?: number }
  | { kind: 'aborted'; text?: string; sourceId?: string; ts?: number }
  | { kind: 'error'; text: string; sourceId?: string; ts?: number }
  | { kind: 'model'; model: string; provider?: string; sourceId?: string; ts?: number }
  | { kind: 'title'; text: string; sourceId?: string; ts?: number }
  | { kind: 'agent-recap'; text: string; after?: string; sourceId?: string; ts?: number }
  | { kind: 'exit'; text?: string; sourceId?: string; ts?: number };

export interface RecapSession {
  agent: string;
  id: string;
  file: string;
  cwd?: string;
  title?: string;
  model?: string;
  stamp: string;
  events: readonly RecapEvent[];
  updatedAt?: number;
}

/** What a model-backed generator returns; the engine turns it into a Recap. */
export interface GeneratorResult {
  ok: boolean;
  /** The recap text (inside the <recap> tags), when ok. */
  text?: string;
  model?: string;
  /** Why it failed (for the debug log and explicit-generator errors), when not ok. */
  error?: string;
}
