/**
 * Raw record shapes of pi session files (format v1–v3), as written by pi's session manager.
 * Only the fields recapwrap reads are typed; everything is optional because files are untrusted.
 */

export interface PiHeader {
  type: 'session';
  version?: number;
  id?: string;
  timestamp?: string;
  cwd?: string;
  parentSession?: string;
}

export interface PiContentPart {
  type?: string;
  text?: string;
  thinking?: string;
  id?: string;
  name?: string;
  arguments?: unknown;
}

export interface PiMessage {
  role?: string;
  content?: string | PiContentPart[];
  stopReason?: 'stop' | 'length' | 'toolUse' | 'error' | 'aborted' | string;
  errorMessage?: string;
  model?: string;
  provider?: string;
  toolCallId?: string;
  toolName?: string;
  isError?: boolean;
  // bashExecution (a `!command` the user ran)
  command?: string;
  output?: string;
  exitCode?: number | null;
  cancelled?: boolean;
  // branchSummary / compactionSummary roles
  summary?: string;
  timestamp?: number;
}

export interface PiEntry {
  type?: string;
  id?: string;
  parentId?: string | null;
  timestamp?: string;
  message?: PiMessage;
  provider?: string;
  modelId?: string;
  summary?: string;
  name?: string;
  label?: string;
  customType?: string;
}
