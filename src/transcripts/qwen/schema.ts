/**
 * Raw record shapes of Qwen Code session files (`chats/<sessionId>.jsonl`, one `ChatRecord` a line, no
 * header) and of its live-session sidecars. Only the fields recapwrap reads are typed; everything is
 * optional because files are untrusted.
 */

/** One Gemini-style content part: reasoning (`thought`), text, a tool call or a tool response. */
export interface QwenPart {
  text?: string;
  thought?: boolean;
  functionCall?: { id?: string; name?: string; args?: unknown };
  functionResponse?: { id?: string; name?: string; response?: Record<string, unknown> };
}

export interface QwenContent {
  role?: string;
  parts?: QwenPart[];
}

/** `toolCallResult` of a `tool_result` record (UI metadata beside the API-format response). */
export interface QwenToolCallResult {
  callId?: string;
  /** success | error | cancelled (scheduler status). */
  status?: string;
  resultDisplay?: unknown;
  error?: unknown;
}

/** `ui_telemetry` payload: one UI event (api_response, api_error, tool_call, …). */
export interface QwenUiEvent {
  'event.name'?: string;
  error?: string;
  error_message?: string;
  error_type?: string;
  status_code?: number;
  model?: string;
}

export interface QwenSystemPayload {
  // chat_compression
  info?: { originalTokenCount?: number; newTokenCount?: number; compressionStatus?: number };
  compressedHistory?: QwenContent[];
  // custom_title
  customTitle?: string;
  // session_model
  modelId?: string;
  // ui_telemetry
  uiEvent?: QwenUiEvent;
  // user prompt / mid-turn user message: the text the person submitted
  displayText?: string;
  // slash_command: `invocation` (what was typed) then `result`
  phase?: string;
  rawCommand?: string;
  /** What a command's result showed; the away recap (`/recap`, or the automatic one) is `{type:'away_recap', text}`. */
  outputHistoryItems?: Array<{ type?: string; text?: unknown }>;
  // turn_result (daemon sessions)
  state?: 'completed' | 'cancelled' | 'error';
  error?: { message?: string };
}

export interface QwenRecord {
  uuid?: string;
  parentUuid?: string | null;
  sessionId?: string;
  timestamp?: string;
  /** user | assistant | tool_result | system */
  type?: string;
  subtype?: string;
  /** real_user | assistant_output | tool_result | goal_control | goal_runtime | system */
  provenance?: string;
  cwd?: string;
  /** CLI version that wrote the record (there is no file-format version). */
  version?: string;
  gitBranch?: string;
  message?: QwenContent;
  model?: string;
  toolCallResult?: QwenToolCallResult;
  systemPayload?: QwenSystemPayload;
  /** Records of a subagent (a sidechain off the main conversation). */
  isSidechain?: boolean;
}

/** `<qwen home>/sessions/<pid>.json`: the live registry, updated on `/clear`, deleted on exit. */
export interface QwenLiveRecord {
  schemaVersion?: number;
  pid?: number;
  sessionId?: string;
  cwd?: string;
  name?: string;
  kind?: string;
  startedAt?: number;
}

/** `chats/<id>.runtime.json`: written by the interactive TUI at start; left stale after `/quit`. */
export interface QwenRuntimeStatus {
  schema_version?: number;
  pid?: number;
  session_id?: string;
  work_dir?: string;
  started_at?: number;
}
