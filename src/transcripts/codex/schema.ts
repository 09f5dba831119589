/** The Codex CLI rollout line shapes recapwrap reads (fields it does not use are left out). */

export interface CodexLine {
  timestamp?: string;
  ordinal?: number;
  type?: string;
  payload?: unknown;
}

/** One payload: session_meta, turn_context, a response item, an event message or a compaction. */
export interface CodexPayload {
  type?: string;
  id?: string;
  session_id?: string;
  cwd?: string;
  model?: string;
  role?: string;
  content?: unknown;
  summary?: unknown;
  name?: string;
  arguments?: unknown;
  input?: unknown;
  action?: unknown;
  call_id?: string;
  output?: unknown;
  reason?: string;
  message?: string;
  thread_name?: string;
  /** thread_rolled_back: how many turns were undone. */
  num_turns?: number;
  /** compacted: the history the model continues from (user messages and, for local compaction, the summary). */
  replacement_history?: unknown[];
}
