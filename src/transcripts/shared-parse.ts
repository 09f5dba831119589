/**
 * Pure helpers every adapter's parser shares: clipping, timestamps, compact tool-call rendering, the
 * files a tool call touches, the command a shell tool runs, and the active branch of an id/parent tree.
 * Agent-specific record shapes stay in each adapter's parse.ts.
 */
import { THINKING_MAX_CHARS, type SessionSnapshot, type ThinkingEvent } from './types.js';

// Depth of full reads running (withWholeText): parsers are synchronous, so this is the read under way.
let wholeText = 0;

/**
 * Run a parser's step with every cap off (clip keeps the text whole) and tool arguments kept (toolInput):
 * the reader's full read (ParserOptions.full). The caps are a memory bound of the recap path; a reader
 * wants the text, and each parser's cap sites stay as they are.
 */
export function withWholeText<T>(full: boolean | undefined, step: () => T): T {
  if (!full) return step();
  wholeText++;
  try {
    return step();
  } finally {
    wholeText--;
  }
}

/** `{ input }` inside a full read (the call's arguments, whole), `{}` otherwise. */
export function toolInput(input: unknown): { input?: unknown } {
  return wholeText > 0 && input !== undefined ? { input } : {};
}

/**
 * Cut text to max characters (code units), marking the cut with `...`. The result is a fresh string: a
 * plain slice would keep the whole original (a 3 MB tool output) alive for as long as the event lives,
 * because V8 slices point into their parent. The marker is ASCII on purpose: `…` is outside Latin-1 and
 * would make V8 store the whole kept text at two bytes per character (a sixth of a long session's
 * memory). Displays cut further and mark their own cuts with `…`.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max || wholeText > 0) return text;
  return copyString(text.slice(0, Math.max(0, max - 3)) + '...');
}

/**
 * A copy that shares no memory with the string it came from: slicing a concatenation makes V8 flatten
 * it into a new string first (one copy of text, one character longer).
 */
export function copyString(text: string): string {
  return (' ' + text).slice(1);
}

/** A thinking event: its start kept (never shown nor sent), its full length counted. */
export function thinkingEvent(text: string, sourceId: string, ts: number | undefined): ThinkingEvent {
  return { kind: 'thinking', text: clip(text, THINKING_MAX_CHARS), chars: text.length, sourceId, ts };
}

/** ISO string, epoch seconds or epoch milliseconds → epoch ms; undefined when unusable. */
export function toEpochMs(ts: unknown): number | undefined {
  if (typeof ts === 'number' && Number.isFinite(ts)) return ts < 1e12 ? Math.round(ts * 1000) : ts;
  if (typeof ts === 'string' && ts.length > 0) {
    const fast = isoUtcMs(ts);
    if (fast !== undefined) return fast;
    const ms = Date.parse(ts);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

// `YYYY-MM-DDTHH:MM:SS.mmmZ`, the form toISOString() writes and every agent's transcript uses, read
// digit by digit: Date.parse took ~5 % of loading a 100 MB transcript (one call per line). Anything
// else (other forms, out-of-range fields) is left to Date.parse. Same result: shared-parse.test.ts.
const DIGITS_AT = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22] as const;
function isoUtcMs(s: string): number | undefined {
  if (s.length !== 24 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58 || s.charCodeAt(19) !== 46 || s.charCodeAt(23) !== 90) return undefined;
  for (const i of DIGITS_AT) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
  }
  const d = (i: number): number => s.charCodeAt(i) - 48;
  const month = d(5) * 10 + d(6);
  const day = d(8) * 10 + d(9);
  const hour = d(11) * 10 + d(12);
  const minute = d(14) * 10 + d(15);
  const second = d(17) * 10 + d(18);
  const year = d(0) * 1000 + d(1) * 100 + d(2) * 10 + d(3);
  // Date.UTC reads years 0-99 as 1900-1999; days past 28 are Date.parse's to judge.
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > 28 || hour > 23 || minute > 59 || second > 59) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second, d(20) * 100 + d(21) * 10 + d(22));
}

// One-line rendering of tool arguments: `key=value` pairs for objects, strings folded, long values cut.
export function compactArgs(args: unknown, max: number): string {
  let out: string;
  if (args === undefined || args === null) out = '';
  else if (typeof args === 'string') {
    // Some agents send arguments as a JSON string.
    const trimmed = args.trim();
    if (trimmed.startsWith('{')) {
      try {
        return compactArgs(JSON.parse(trimmed), max);
      } catch {
        // Not JSON after all: show it as text.
      }
    }
    out = trimmed;
  } else if (typeof args === 'object' && !Array.isArray(args)) {
    out = Object.entries(args as Record<string, unknown>)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? JSON.stringify(clip(v, 200)) : clip(safeJson(v), 200)}`)
      .join(' ');
  } else out = safeJson(args);
  return clip(out.replace(/\s+/g, ' '), max);
}

// JSON of a value, never throwing: a value nested past the stack (a tool argument 100,000 arrays deep)
// cannot be stringified, and String() of it recurses just as deep, so it is shown as elided.
function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return Array.isArray(value) ? '[...]' : value !== null && typeof value === 'object' ? '{...}' : typeof value;
  }
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

// Tools that change files, across the five agents (lower-cased names).
const FILE_WRITE_TOOLS = new Set([
  'write', 'edit', 'multiedit', 'multi_edit', 'notebookedit', 'notebook_edit', // pi, claude
  'write_file', 'replace', 'edit_file', 'create_file', // gemini, qwen
  'apply_patch', 'str_replace_editor', 'str_replace_based_edit_tool', // codex and others
]);
const PATH_KEYS = ['path', 'file_path', 'filePath', 'filename', 'file', 'notebook_path', 'absolute_path', 'target_file'];
const PATCH_FILE_LINE = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm;
const PATCH_MOVE_LINE = /^\*\*\* Move to: (.+)$/gm;

/** Whether a tool call changes files (so its paths are "files touched"). */
export function isFileWriteTool(name: string): boolean {
  return FILE_WRITE_TOOLS.has(name.toLowerCase());
}

// Files an edit/write/patch call touches, as written in the call; [] for other tools.
export function pathsFromToolCall(name: string, args: unknown): string[] {
  const lower = name.toLowerCase();
  const rec = asRecord(args);
  const patchText = typeof args === 'string' && lower === 'apply_patch' ? args : typeof rec?.input === 'string' ? rec.input : typeof rec?.patch === 'string' ? rec.patch : undefined;
  if (patchText && /\*\*\* (Update|Add|Delete) File:/.test(patchText)) {
    const found = new Set<string>();
    for (const m of patchText.matchAll(PATCH_FILE_LINE)) found.add((m[1] as string).trim());
    for (const m of patchText.matchAll(PATCH_MOVE_LINE)) found.add((m[1] as string).trim());
    return [...found];
  }
  if (!FILE_WRITE_TOOLS.has(lower) || !rec) return [];
  const paths: string[] = [];
  for (const key of PATH_KEYS) {
    const v = rec[key];
    if (typeof v === 'string' && v.length > 0) {
      paths.push(v);
      break;
    }
  }
  if (Array.isArray(rec.edits)) {
    for (const e of rec.edits) {
      const p = asRecord(e)?.path ?? asRecord(e)?.file_path;
      if (typeof p === 'string' && !paths.includes(p)) paths.push(p);
    }
  }
  return paths;
}

const SHELL_TOOLS = new Set(['bash', 'shell', 'run_shell_command', 'exec_command', 'shell_command', 'local_shell', 'terminal', 'run_terminal_cmd']);

// The shell command a tool call runs (bash/shell/exec tools), folded to one line.
export function commandFromToolCall(name: string, args: unknown): string | undefined {
  if (!SHELL_TOOLS.has(name.toLowerCase())) return undefined;
  const rec = asRecord(args);
  const raw = rec?.command ?? rec?.cmd ?? rec?.commandLine ?? (typeof args === 'string' ? args : undefined);
  let command: string | undefined;
  if (typeof raw === 'string') command = raw;
  else if (Array.isArray(raw)) {
    const parts = raw.filter((p): p is string => typeof p === 'string');
    // ["bash","-lc","npm test"] → the script itself.
    command = parts.length >= 3 && /(^|\/)(ba|z|fi)?sh$/.test(parts[0] as string) && (parts[1] as string).startsWith('-') ? parts.slice(2).join(' ') : parts.join(' ');
  }
  return command ? command.replace(/\s+/g, ' ').trim() : undefined;
}

/**
 * Ids from the root to leafId following parent links (cycle-safe, iterative). A parent that is not in
 * the map ends the walk (the branch starts there).
 */
export function activeBranch<T extends { parentId: string | null | undefined }>(entries: ReadonlyMap<string, T>, leafId: string | undefined): string[] {
  const path: string[] = [];
  const seen = new Set<string>();
  let id = leafId;
  while (id !== undefined && id !== null && !seen.has(id)) {
    const entry = entries.get(id);
    if (!entry) break;
    seen.add(id);
    path.push(id);
    id = entry.parentId ?? undefined;
  }
  return path.reverse();
}

/** Text of content that is a string or a list of parts with `text` (skipping non-text parts). */
export function textFromParts(content: unknown, types: readonly string[] = ['text', 'input_text', 'output_text']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') texts.push(part);
    else if (part && typeof part === 'object') {
      const p = part as Record<string, unknown>;
      if (typeof p.text === 'string' && (p.type === undefined || types.includes(p.type as string)) && p.thought !== true) texts.push(p.text);
    }
  }
  return texts.join('\n');
}

/**
 * The JSON objects on one line: usually one; several when a writer glued records together with no newline
 * between them (pi did once: its final message, then a compaction written later, on one line). `bad`
 * counts what was neither (broken or cut fragments, non-objects), for the parser's `skipped`. Never throws.
 */
export function parseJsonLine(line: string): { objects: Record<string, unknown>[]; bad: number } {
  const one = parseJsonObject(line);
  if (one) return { objects: [one], bad: 0 };
  if (!line.trim()) return { objects: [], bad: 0 };
  const objects = recoverObjects(line);
  // Text outside the recovered objects (other than spaces and commas) is a broken part.
  const bad = objects.length === 0 || /[^\s,]/.test(stripObjects(line, objects)) ? 1 : 0;
  return { objects: objects.map((o) => o.value), bad };
}

/**
 * What every parser gathers beside its events (the state the five parsers used to declare one by one):
 * the session's id, folder, title and model as the file states them, the lines fed and skipped, and
 * the first and last record times. Each parser still decides how its records fill them.
 */
export class SessionFacts {
  id: string | undefined;
  cwd: string | undefined;
  title: string | undefined;
  model: string | undefined;
  /** The latest git branch a record named (not a detached `HEAD`). */
  gitBranch: string | undefined;
  /** The session this one was forked from (SessionSnapshot.parent), the first a record named. */
  parent: string | undefined;
  /** Lines fed so far (the `L<line>` ids of records that have none). */
  lineNo = 0;
  /** Lines and records not taken (SessionSnapshot.skipped). */
  skipped = 0;
  startedAt: number | undefined;
  updatedAt: number | undefined;

  /** Count skipped parts (the callback pushJsonLine and takeRecords take). */
  readonly skip = (count: number): void => {
    this.skipped += count;
  };

  /** A branch a record names (a detached `HEAD` names none). */
  seeBranch(branch: unknown): void {
    if (typeof branch === 'string' && branch && branch !== 'HEAD') this.gitBranch = branch.slice(0, 200);
  }

  /** A parent session a record names (a string of sane length; the first one wins). */
  seeParent(parent: unknown): void {
    if (this.parent === undefined && typeof parent === 'string' && parent && parent.length <= 4096) this.parent = parent;
  }

  /** A record's time, when it has one: the first is the session's start, the latest its last change. */
  seeTime(ts: number | undefined): void {
    if (ts === undefined) return;
    this.startedAt ??= ts;
    this.updatedAt = ts;
  }

  /** The snapshot fields these facts fill; a parser adds its events and stamp, and overrides what it knows better. */
  snapshotFields(): Pick<SessionSnapshot, 'id' | 'cwd' | 'title' | 'model' | 'skipped' | 'startedAt' | 'updatedAt' | 'gitBranch' | 'parent'> {
    const fields: Pick<SessionSnapshot, 'id' | 'cwd' | 'title' | 'model' | 'skipped' | 'startedAt' | 'updatedAt' | 'gitBranch' | 'parent'> = {
      id: this.id ?? '', cwd: this.cwd, title: this.title, model: this.model, skipped: this.skipped, startedAt: this.startedAt, updatedAt: this.updatedAt,
    };
    if (this.gitBranch) fields.gitBranch = this.gitBranch;
    // A session is never its own parent (a copied record that kept the old id).
    if (this.parent && this.parent !== this.id) fields.parent = this.parent;
    return fields;
  }
}

/**
 * Each JSON object on a line (several when records were glued together), given to `take` in order. The
 * broken parts, and each record `take` throws on (one nested past the stack, say: that record alone, the
 * others on the line are still taken), are counted through `skip`. Never throws.
 */
export function pushJsonLine(line: string, take: (record: Record<string, unknown>) => void, skip: (count: number) => void, onText?: (text: string) => void): void {
  const { objects, bad } = parseJsonLine(line);
  if (bad) skip(bad);
  if (onText) for (const o of objects) recordTexts(o, onText);
  takeRecords(objects, take, skip);
}

// Reasoning, never indexed nor shown (keys, and blocks by their type), and signatures of it.
const REASONING_KEYS = new Set(['thinking', 'thoughts', 'signature', 'thinkingSignature', 'encrypted_content', 'reasoning', 'reasoning_content', 'reasoningContent']);
const REASONING_TYPES = new Set(['thinking', 'redacted_thinking', 'reasoning']);
// A key whose value a secret mask must see beside its name (`"api_key": "…"` → `api_key=…`).
const SECRET_KEY = /key|token|secret|passw|credential|auth/i;
const BLOB_PROBE_CHARS = 200;
// The start of a blob: base64 (an image, a file), as a data URL or bare; compact JSON is no blob.
const BLOB_START = /^(?:data:[\w/+.-]+;base64,)?[A-Za-z0-9+/=_-]+$/;
const RECORD_DEPTH_MAX = 64;

/**
 * Every string value of a record, reasoning left out (thinking blocks, Codex reasoning items, Gemini's
 * thoughts, parts marked `thought`), and blobs (a long string of base64: images, files).
 * A value whose key names a secret comes as `key=value`, so masking sees the name. Keys are not texts.
 */
export function recordTexts(record: unknown, fn: (text: string) => void, depth = 0): void {
  if (depth > RECORD_DEPTH_MAX || record === null || typeof record !== 'object') return;
  if (Array.isArray(record)) {
    for (const v of record) {
      if (typeof v === 'string') takeText(v, fn);
      else recordTexts(v, fn, depth + 1);
    }
    return;
  }
  const obj = record as Record<string, unknown>;
  if ((typeof obj.type === 'string' && REASONING_TYPES.has(obj.type)) || obj.thought === true) return;
  for (const key in obj) {
    if (REASONING_KEYS.has(key)) continue;
    const v = obj[key];
    if (typeof v === 'string') takeText(SECRET_KEY.test(key) ? `${key}=${v}` : v, fn);
    else if (v !== null && typeof v === 'object') recordTexts(v, fn, depth + 1);
  }
}

function takeText(text: string, fn: (text: string) => void): void {
  if (text.length < 2) return;
  if (text.length > 4 * BLOB_PROBE_CHARS && BLOB_START.test(text.slice(0, BLOB_PROBE_CHARS))) return;
  fn(text);
}

/** Each record given to `take`; each one it throws on is counted through `skip` and passed over. */
export function takeRecords(records: readonly Record<string, unknown>[], take: (record: Record<string, unknown>) => void, skip: (count: number) => void): void {
  for (const record of records) {
    try {
      take(record);
    } catch {
      skip(1); // A record this parser cannot take: that record only.
    }
  }
}

interface Recovered {
  value: Record<string, unknown>;
  start: number;
  length: number;
}

function stripObjects(line: string, objects: readonly Recovered[]): string {
  let out = '';
  let at = 0;
  for (const o of objects) {
    out += line.slice(at, o.start);
    at = o.start + o.length;
  }
  return out + line.slice(at);
}

// Most restarts after a cut record (bounds the work on a hostile line of braces).
const MAX_RECOVERY_RESTARTS = 256;

/*
 * Complete top-level JSON objects in a line that is not one object (string-aware brace matching, no
 * recursion). A record cut short leaves its braces open: the scan then starts again at the next `{"` after
 * where that record began, so a whole record glued behind a cut one is still found.
 */
function recoverObjects(line: string): Recovered[] {
  const out: Recovered[] = [];
  let from = line.indexOf('{');
  for (let restarts = 0; from >= 0 && restarts <= MAX_RECOVERY_RESTARTS; restarts++) {
    const end = scanObjects(line, from, out);
    if (end === undefined) return out;
    from = line.indexOf('{"', end + 1);
  }
  return out;
}

// Scan from `from`, adding each complete object; undefined at the end of the line with every brace closed,
// else where the unclosed (cut) object began.
function scanObjects(line: string, from: number, out: Recovered[]): number | undefined {
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = from; i < line.length; i++) {
    const ch = line.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === 92) escaped = true; // backslash
      else if (ch === 34) inString = false; // quote
    } else if (ch === 34) {
      if (depth > 0) inString = true;
    } else if (ch === 123) {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === 125 && depth > 0) {
      depth--;
      if (depth === 0) {
        const value = parseJsonObject(line.slice(start, i + 1));
        if (value) out.push({ value, start, length: i + 1 - start });
      }
    }
  }
  return depth > 0 ? start : undefined;
}

/** Parse one JSON line into an object; undefined for anything else (never throws). */
export function parseJsonObject(line: string): Record<string, unknown> | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

// Slash commands that tend the session or the tool (its context, model, settings, account, display),
// whatever their arguments: never the user's task. Names as Claude Code, Codex, Gemini CLI, Qwen Code and
// pi spell them; a command not here is the agent's or the user's own (custom, skill).
const HOUSEKEEPING_COMMANDS = new Set([
  'about', 'add-dir', 'agents', 'approvals', 'auth', 'bug', 'chat', 'clear', 'compact', 'compress', 'config', 'context', 'copy',
  'cost', 'diff', 'directory', 'doctor', 'editor', 'exit', 'export', 'extensions', 'help', 'hooks', 'ide', 'import', 'login',
  'logout', 'mcp', 'memory', 'model', 'new', 'output-style', 'permissions', 'privacy', 'quit', 'release-notes', 'restore',
  'resume', 'rewind', 'session', 'settings', 'stats', 'status', 'statusline', 'terminal-setup', 'theme', 'tools', 'tree', 'upgrade',
  'usage', 'vim',
]);

/**
 * Whether a slash command the user typed carries their task, and so is a prompt like any other: a command
 * of the agent's or the user's own (a skill, a custom command) given words to work on (`/apply-grant Use
 * this skill to help me apply…`, two words or more). A command alone (`/init`, `/deploy`), with a setting
 * or a target only (`/buddy off`, `/review src/app.ts`), or one that tends the session (`/compact keep the
 * API notes`, `/model opus`), is said but is no prompt. Pure.
 */
export function slashCommandIsTask(text: string): boolean {
  const m = /^\/([A-Za-z][\w.:-]*)\s+([\s\S]*)$/.exec(text.trim());
  if (!m) return false;
  const name = (m[1] as string).toLowerCase().replace(/^skill:/, '');
  // Words to work on: two or more (`/buddy off`, `/review src/app.ts` are settings and targets, not a task).
  return !HOUSEKEEPING_COMMANDS.has(name) && (m[2] as string).split(/\s+/).filter((w) => /\p{L}{2}/u.test(w)).length >= 2;
}
