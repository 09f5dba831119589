/** The Claude Code JSONL record shapes recapwrap reads (fields it does not use are left out). */

export interface ClaudeBlock {
  type?: string;
  text?: string;
  thinking?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

export interface ClaudeEntry {
  type?: string;
  subtype?: string;
  uuid?: string;
  parentUuid?: string | null;
  logicalParentUuid?: string | null;
  isSidechain?: boolean;
  sessionId?: string;
  cwd?: string;
  timestamp?: string;
  isMeta?: boolean;
  isCompactSummary?: boolean;
  isVisibleInTranscriptOnly?: boolean;
  isApiErrorMessage?: boolean;
  promptSource?: string;
  origin?: { kind?: string };
  message?: { role?: string; model?: string; content?: unknown; stop_reason?: string | null };
  error?: unknown;
  content?: unknown;
  leafUuid?: string;
  aiTitle?: string;
  customTitle?: string;
  summary?: string;
}

/** `~/.claude/sessions/<pid>.json`, written while an interactive Claude Code runs. */
export interface ClaudeLiveRecord {
  pid?: number;
  sessionId?: string;
  cwd?: string;
  status?: 'idle' | 'busy';
}
