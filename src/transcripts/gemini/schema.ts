/** The Gemini CLI chat-recording shapes recapwrap reads (fields it does not use are left out). */

/** A content part (the Gemini API's `Part`, as recorded). */
export interface GeminiPart {
  text?: unknown;
  thought?: unknown;
  functionCall?: { id?: unknown; name?: unknown; args?: unknown };
  functionResponse?: { id?: unknown; name?: unknown; response?: Record<string, unknown> };
}

export interface GeminiToolCall {
  id?: unknown;
  name?: unknown;
  args?: unknown;
  /** functionResponse parts, or a plain string in older files. */
  result?: unknown;
  status?: unknown;
  resultDisplay?: unknown;
  timestamp?: unknown;
}

/** One message: a JSONL record with an `id`, or an element of `messages` (checkpoint, older JSON file). */
export interface GeminiMessage {
  id: string;
  timestamp?: unknown;
  type?: unknown;
  content?: unknown;
  /** What the person typed, when it differs from `content` (@-file references expanded there). */
  displayContent?: unknown;
  thoughts?: { subject?: unknown; description?: unknown }[];
  toolCalls?: GeminiToolCall[];
  model?: unknown;
}

/** The whole-file format before 0.39, and the metadata line that opens a JSONL file. */
export interface GeminiConversation {
  sessionId?: unknown;
  projectHash?: unknown;
  startTime?: unknown;
  lastUpdated?: unknown;
  summary?: unknown;
  kind?: unknown;
  messages?: unknown;
}
