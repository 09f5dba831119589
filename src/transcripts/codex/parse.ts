/**
 * Pure incremental parser for Codex CLI rollout files (0.101 → 0.169): `{timestamp, ordinal?, type,
 * payload}` lines. The log is linear: `response_item`s carry the conversation (messages, reasoning,
 * function and custom tool calls and their outputs, linked by call_id), `event_msg`s mark turn ends and
 * aborts. A `compacted` record (`/compact`, auto-compaction) is a summary event where it happened; the
 * events before it stay (Codex keeps them in the file too, and its replacement history only repeats the
 * user's messages). A call with `sandbox_permissions: "require_escalated"` (`with_escalated_permissions`
 * before 0.6x) asks the user's approval.
 *
 * Legacy rollouts (Codex CLI up to ~0.39, Sept 2025) have no envelope: a first line `{id, timestamp,
 * instructions, git}`, `{"record_type":"state"}` markers, and the response items as top-level records
 * (`{"type":"message",…}`); no per-record times, no model. The cwd is read from the injected
 * `<environment_context>`.
 */
import {
  EVENT_TEXT_MAX_CHARS, TOOL_ARGS_MAX_CHARS, TOOL_RESULT_MAX_CHARS,
  type ParserOptions, type SessionSnapshot, type TranscriptEvent, type TranscriptParser,
} from '../types.js';
import { boundLinear, eventWeight, HISTORY_LIMITS, overLimits } from '../history.js';
import { clip, toolInput, withWholeText, commandFromToolCall, compactArgs, pathsFromToolCall, pushJsonLine, SessionFacts, textFromParts, thinkingEvent, toEpochMs } from '../shared-parse.js';
import type { CodexLine, CodexPayload } from './schema.js';

// Text Codex injects as a user message: environment, instructions, notices.
const INJECTED_USER = /^\s*(<environment_context>|<user_instructions>|<permissions|<INSTRUCTIONS>|<turn_aborted>|<user_shell_command>|<skill>|# AGENTS\.md instructions|<collaboration_mode>)/;
// Top-level line types with nothing for a recap (known, so not counted as skipped).
const QUIET_TYPES = new Set(['world_state', 'token_usage_record', 'turn_context']);
// Response item types, which legacy rollouts write at the top level.
const RESPONSE_ITEM_TYPES = new Set([
  'message', 'reasoning', 'function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call',
  'function_call_output', 'custom_tool_call_output', 'local_shell_call_output',
]);
const ENV_CWD = /<environment_context>[\s\S]*?<cwd>([^<]+)<\/cwd>/;
// What local compaction writes before the summary in the replacement history.
const SUMMARY_PREFIX = /^Another language model started to solve this problem and produced a summary of its thinking process\.[^\n]*\n+/;
// What Codex tells the model when the user approved a call and saved its command prefix.
const APPROVED_PREFIX = 'Approved command prefix saved:';
// Code mode's `exec` tool runs JS that calls tools; an escalation shows in its source text.
const ESCALATION_IN_SOURCE = /["']?sandbox_permissions["']?\s*:\s*["']require_escalated["']|["']?with_escalated_permissions["']?\s*:\s*true/;

/** The Codex line is a legacy rollout's (no `payload` envelope). */
export function isLegacyCodexLine(rec: Record<string, unknown>): boolean {
  if (typeof rec.record_type === 'string') return true;
  // pi's entries are `{type:'message', id, parentId, message}`: a legacy item has none of those.
  if (typeof rec.type === 'string' && !('payload' in rec)) return RESPONSE_ITEM_TYPES.has(rec.type) && !('message' in rec) && !('parentId' in rec);
  // The first line: session id, time, and the git info and instructions.
  return rec.type === undefined && typeof rec.id === 'string' && typeof rec.timestamp === 'string' && ('git' in rec || 'instructions' in rec);
}

// The call waits for the user's approval before it runs (Codex asks to run it outside the sandbox).
function needsApproval(args: unknown): boolean {
  if (typeof args === 'string') return ESCALATION_IN_SOURCE.test(args);
  if (!args || typeof args !== 'object') return false;
  const a = args as { sandbox_permissions?: unknown; with_escalated_permissions?: unknown };
  return a.sandbox_permissions === 'require_escalated' || a.with_escalated_permissions === true;
}

// The summary of a compaction: its message, else the summary in its replacement history (local
// compaction); remote compaction keeps it encrypted, so then only the fact is known.
function compactionText(p: CodexPayload): string {
  if (typeof p.message === 'string' && p.message.trim()) return p.message.trim();
  const history = Array.isArray(p.replacement_history) ? p.replacement_history : [];
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i] as CodexPayload | undefined;
    if (item?.type !== 'message' || item.role !== 'user') continue;
    const text = textFromParts(item.content).trim();
    if (SUMMARY_PREFIX.test(text)) return text.replace(SUMMARY_PREFIX, '').trim();
  }
  return 'Conversation compacted.';
}

function parseArgs(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

// Tool output: a string, content parts, or {content, success}; ok unless it reports a failing exit code.
function outputOf(raw: unknown): { text: string; ok: boolean; exitCode?: number } {
  let text: string;
  let ok = true;
  let exitCode: number | undefined;
  if (typeof raw === 'string') text = raw;
  else if (Array.isArray(raw)) text = textFromParts(raw);
  else if (raw && typeof raw === 'object') {
    const o = raw as { content?: unknown; success?: boolean };
    text = typeof o.content === 'string' ? o.content : textFromParts(o.content);
    if (o.success === false) ok = false;
  } else text = '';
  // exec output is sometimes JSON with metadata.exit_code, sometimes "Process exited with code N".
  const parsed = text.trimStart().startsWith('{') ? (parseArgs(text) as { output?: unknown; metadata?: { exit_code?: number } }) : undefined;
  if (parsed && typeof parsed === 'object' && parsed.metadata) {
    if (typeof parsed.metadata.exit_code === 'number') exitCode = parsed.metadata.exit_code;
    if (typeof parsed.metadata.exit_code === 'number' && parsed.metadata.exit_code !== 0) ok = false;
    if (typeof parsed.output === 'string') text = parsed.output;
  }
  const code = /(?:Process exited with code|Exit code:)\s*(-?\d+)/.exec(text);
  if (code && code[1] !== '0') ok = false;
  if (code) exitCode ??= Number(code[1]);
  return { text: clip(text.trim(), TOOL_RESULT_MAX_CHARS), ok, ...(exitCode !== undefined ? { exitCode } : {}) };
}

export function createCodexParser(options: ParserOptions = {}): TranscriptParser {
  const facts = new SessionFacts();
  const limits = options.limits ?? HISTORY_LIMITS;
  let events: TranscriptEvent[] = [];
  let weight = 0;
  let dropped = 0;

  function add(event: TranscriptEvent): void {
    // A full read's caller keeps the events it is handed.
    if (options.onEntry) return options.onEntry({ id: event.sourceId, events: [event] });
    events.push(event);
    weight += eventWeight(event);
    if (overLimits(events.length, weight, limits)) {
      const bounded = boundLinear(events, limits);
      events = bounded.events;
      dropped += bounded.dropped;
      weight = 0;
      for (const e of events) weight += eventWeight(e);
    }
  }

  // Drop the last `turns` turns: everything from the turns-th last typed prompt on.
  function rollBack(turns: number): void {
    let left = turns;
    for (let i = events.length - 1; i >= 0; i--) {
      if ((events[i] as TranscriptEvent).kind === 'user' && --left === 0) {
        events = events.slice(0, i);
        weight = 0;
        for (const e of events) weight += eventWeight(e);
        return;
      }
    }
  }

  // The user approved a call and saved its command prefix: the waiting calls it covers run now.
  function approved(text: string): void {
    const prefixes: string[] = [];
    for (const line of text.split('\n').slice(1)) {
      const m = /^\s*-\s*(\[.*\])\s*$/.exec(line);
      const parts = m ? (parseArgs(m[1]) as unknown) : undefined;
      if (Array.isArray(parts) && parts.every((x) => typeof x === 'string')) prefixes.push(commandFromToolCall('shell', { command: parts }) ?? parts.join(' '));
    }
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i] as TranscriptEvent;
      if (e.kind === 'user') return;
      if (e.kind !== 'tool-call' || e.approval !== true) continue;
      const command = e.command ?? '';
      if (!prefixes.some((prefix) => command === prefix || command.startsWith(`${prefix} `))) continue;
      // A new object: snapshots already handed out keep the old one.
      const { approval: _approved, ...running } = e;
      events[i] = running;
    }
  }

  function responseItem(p: CodexPayload, sourceId: string, ts: number | undefined): void {
    switch (p.type) {
      case 'message': {
        if (p.role === 'user') {
          const text = textFromParts(p.content).trim();
          if (facts.cwd === undefined && text.startsWith('<environment_context>')) facts.cwd = ENV_CWD.exec(text)?.[1]?.trim() || undefined;
          if (text && !INJECTED_USER.test(text)) add({ kind: 'user', text: clip(text, EVENT_TEXT_MAX_CHARS), sourceId, ts });
        } else if (p.role === 'assistant') {
          const text = textFromParts(p.content).trim();
          if (text) add({ kind: 'assistant', text: clip(text, EVENT_TEXT_MAX_CHARS), sourceId, ts });
        } else if (p.role === 'developer') {
          const text = textFromParts(p.content);
          if (text.startsWith(APPROVED_PREFIX)) approved(text);
        }
        return;
      }
      case 'reasoning': {
        const text = textFromParts(p.summary, ['summary_text']).trim();
        if (text) add(thinkingEvent(text, sourceId, ts));
        return;
      }
      case 'function_call':
      case 'custom_tool_call':
      case 'local_shell_call': {
        const name = typeof p.name === 'string' ? p.name : p.type === 'local_shell_call' ? 'shell' : 'tool';
        const args = p.type === 'custom_tool_call' ? p.input : p.type === 'local_shell_call' ? p.action : parseArgs(p.arguments);
        const approval = needsApproval(args);
        add({
          kind: 'tool-call',
          callId: p.call_id,
          name,
          args: typeof args === 'string' ? clip(args.replace(/\s+/g, ' '), TOOL_ARGS_MAX_CHARS) : compactArgs(args, TOOL_ARGS_MAX_CHARS),
          command: commandFromToolCall(name, args),
          paths: pathsFromToolCall(name, args),
          ...toolInput(args),
          ...(approval ? { approval } : {}),
          sourceId: p.call_id ?? sourceId,
          ts,
        });
        return;
      }
      case 'web_search_call':
        add({ kind: 'tool-call', name: 'web_search', args: compactArgs(p.action, TOOL_ARGS_MAX_CHARS), paths: [], sourceId, ts });
        return;
      case 'function_call_output':
      case 'custom_tool_call_output':
      case 'local_shell_call_output': {
        const out = outputOf(p.output);
        add({ kind: 'tool-result', callId: p.call_id, ok: out.ok, text: out.text, ...(out.exitCode !== undefined ? { exitCode: out.exitCode } : {}), sourceId, ts });
        return;
      }
      default:
        return;
    }
  }

  function eventMsg(p: CodexPayload, sourceId: string, ts: number | undefined): void {
    switch (p.type) {
      case 'task_complete':
        add({ kind: 'turn-end', sourceId, ts });
        return;
      case 'turn_aborted':
        add({ kind: 'aborted', text: typeof p.reason === 'string' ? p.reason : undefined, sourceId, ts });
        return;
      case 'error':
      case 'stream_error':
        add({ kind: 'error', text: clip(String(p.message ?? 'error'), EVENT_TEXT_MAX_CHARS), sourceId, ts });
        return;
      case 'thread_rolled_back':
        // The user rolled the thread back (app-server/IDE undo): its last num_turns turns are gone from
        // the model's context, and from the session's history as the user sees it.
        if (typeof p.num_turns === 'number' && Number.isInteger(p.num_turns) && p.num_turns > 0) rollBack(p.num_turns);
        return;
      case 'thread_name_updated':
        if (typeof p.thread_name === 'string' && p.thread_name.trim()) {
          facts.title = p.thread_name.trim();
          add({ kind: 'title', text: facts.title, sourceId, ts });
        }
        return;
      default:
        // user_message/agent_message/item_completed repeat the response items; the rest is progress.
        return;
    }
  }

  function push(line: string): void {
    facts.lineNo++;
    withWholeText(options.full, () => pushJsonLine(line, (raw) => (isLegacyCodexLine(raw) ? pushLegacy(raw) : pushRecord(raw as CodexLine)), facts.skip, options.onText));
  }

  function pushLegacy(raw: Record<string, unknown>): void {
    const sourceId = `L${facts.lineNo}`;
    if (typeof raw.record_type === 'string') return; // `state` markers
    if (raw.type === undefined) {
      facts.id ??= typeof raw.id === 'string' ? raw.id : undefined;
      const ts = toEpochMs(raw.timestamp);
      facts.seeTime(ts);
      return;
    }
    responseItem(raw as CodexPayload, sourceId, undefined);
  }

  function pushRecord(rec: CodexLine): void {
    const p = (rec.payload && typeof rec.payload === 'object' ? rec.payload : {}) as CodexPayload;
    const ts = toEpochMs(rec.timestamp);
    facts.seeTime(ts);
    const sourceId = typeof rec.ordinal === 'number' ? `o${rec.ordinal}` : `L${facts.lineNo}`;
    switch (rec.type) {
      case 'session_meta':
        facts.id ??= typeof p.id === 'string' ? p.id : typeof p.session_id === 'string' ? p.session_id : undefined;
        facts.cwd ??= typeof p.cwd === 'string' ? p.cwd : undefined;
        facts.seeBranch((p as { git?: { branch?: unknown } }).git?.branch);
        // `codex fork` (and the TUI's fork) names the thread it forked from.
        facts.seeParent((p as { forked_from_id?: unknown }).forked_from_id);
        return;
      case 'turn_context':
        if (typeof p.model === 'string') facts.model = p.model;
        return;
      case 'response_item':
        responseItem(p, sourceId, ts);
        return;
      case 'event_msg':
        eventMsg(p, sourceId, ts);
        return;
      case 'compacted':
        // The model's context restarts from the summary; the session's history does not.
        add({ kind: 'summary', source: 'compaction', text: clip(compactionText(p), EVENT_TEXT_MAX_CHARS), sourceId, ts });
        return;
      default:
        if (typeof rec.type === 'string' && QUIET_TYPES.has(rec.type)) return;
        facts.skipped++;
    }
  }

  function snapshot(): SessionSnapshot {
    return {
      agent: 'codex',
      ...facts.snapshotFields(),
      events: [...events],
      stamp: `${events[events.length - 1]?.sourceId ?? 'empty'}:${events.length}:${dropped}`,
      dropped: dropped || undefined,
    };
  }

  return { push, snapshot };
}
