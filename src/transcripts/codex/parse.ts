/**
 * Pure incremental parser for Codex CLI rollout files (0.101 → 0.169): `{timestamp, ordinal?, type,
 * payload}` lines. The log is linear: `response_item`s carry the conversation (messages, reasoning,
 * function and custom tool calls and their outputs, linked by call_id), `event_msg`s mark turn ends and
 * aborts, `compacted` replaces everything before it with the agent's summary.
 */
import {
  EVENT_TEXT_MAX_CHARS, TOOL_ARGS_MAX_CHARS, TOOL_RESULT_MAX_CHARS,
  type SessionSnapshot, type TranscriptEvent, type TranscriptParser,
} from '../types.js';
import { clip, commandFromToolCall, compactArgs, parseJsonObject, pathsFromToolCall, textFromParts, thinkingEvent, toEpochMs } from '../shared-parse.js';
import type { CodexLine, CodexPayload } from './schema.js';

// Text Codex injects as a user message: environment, instructions, notices.
const INJECTED_USER = /^\s*(<environment_context>|<user_instructions>|<permissions|<INSTRUCTIONS>|<turn_aborted>|<user_shell_command>|<skill>|# AGENTS\.md instructions|<collaboration_mode>)/;
// Top-level line types with nothing for a recap (known, so not counted as skipped).
const QUIET_TYPES = new Set(['world_state', 'token_usage_record', 'turn_context']);

function parseArgs(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

// Tool output: a string, content parts, or {content, success}; ok unless it reports a failing exit code.
function outputOf(raw: unknown): { text: string; ok: boolean } {
  let text: string;
  let ok = true;
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
    if (typeof parsed.metadata.exit_code === 'number' && parsed.metadata.exit_code !== 0) ok = false;
    if (typeof parsed.output === 'string') text = parsed.output;
  }
  const code = /(?:Process exited with code|Exit code:)\s*(-?\d+)/.exec(text);
  if (code && code[1] !== '0') ok = false;
  return { text: clip(text.trim(), TOOL_RESULT_MAX_CHARS), ok };
}

export function createCodexParser(): TranscriptParser {
  let events: TranscriptEvent[] = [];
  let id: string | undefined;
  let cwd: string | undefined;
  let title: string | undefined;
  let model: string | undefined;
  let skipped = 0;
  let lineNo = 0;
  let startedAt: number | undefined;
  let updatedAt: number | undefined;

  function responseItem(p: CodexPayload, sourceId: string, ts: number | undefined): void {
    switch (p.type) {
      case 'message': {
        if (p.role === 'user') {
          const text = textFromParts(p.content).trim();
          if (text && !INJECTED_USER.test(text)) events.push({ kind: 'user', text: clip(text, EVENT_TEXT_MAX_CHARS), sourceId, ts });
        } else if (p.role === 'assistant') {
          const text = textFromParts(p.content).trim();
          if (text) events.push({ kind: 'assistant', text: clip(text, EVENT_TEXT_MAX_CHARS), sourceId, ts });
        }
        return;
      }
      case 'reasoning': {
        const text = textFromParts(p.summary, ['summary_text']).trim();
        if (text) events.push(thinkingEvent(text, sourceId, ts));
        return;
      }
      case 'function_call':
      case 'custom_tool_call':
      case 'local_shell_call': {
        const name = typeof p.name === 'string' ? p.name : p.type === 'local_shell_call' ? 'shell' : 'tool';
        const args = p.type === 'custom_tool_call' ? p.input : p.type === 'local_shell_call' ? p.action : parseArgs(p.arguments);
        events.push({
          kind: 'tool-call',
          callId: p.call_id,
          name,
          args: typeof args === 'string' ? clip(args.replace(/\s+/g, ' '), TOOL_ARGS_MAX_CHARS) : compactArgs(args, TOOL_ARGS_MAX_CHARS),
          command: commandFromToolCall(name, args),
          paths: pathsFromToolCall(name, args),
          sourceId: p.call_id ?? sourceId,
          ts,
        });
        return;
      }
      case 'web_search_call':
        events.push({ kind: 'tool-call', name: 'web_search', args: compactArgs(p.action, TOOL_ARGS_MAX_CHARS), paths: [], sourceId, ts });
        return;
      case 'function_call_output':
      case 'custom_tool_call_output':
      case 'local_shell_call_output': {
        const out = outputOf(p.output);
        events.push({ kind: 'tool-result', callId: p.call_id, ok: out.ok, text: out.text, sourceId, ts });
        return;
      }
      default:
        return;
    }
  }

  function eventMsg(p: CodexPayload, sourceId: string, ts: number | undefined): void {
    switch (p.type) {
      case 'task_complete':
        events.push({ kind: 'turn-end', sourceId, ts });
        return;
      case 'turn_aborted':
        events.push({ kind: 'aborted', text: typeof p.reason === 'string' ? p.reason : undefined, sourceId, ts });
        return;
      case 'error':
      case 'stream_error':
        events.push({ kind: 'error', text: clip(String(p.message ?? 'error'), EVENT_TEXT_MAX_CHARS), sourceId, ts });
        return;
      case 'thread_name_updated':
        if (typeof p.thread_name === 'string' && p.thread_name.trim()) {
          title = p.thread_name.trim();
          events.push({ kind: 'title', text: title, sourceId, ts });
        }
        return;
      default:
        // user_message/agent_message/item_completed repeat the response items; the rest is progress.
        return;
    }
  }

  function push(line: string): void {
    lineNo++;
    const raw = parseJsonObject(line);
    if (!raw) {
      if (line.trim()) skipped++;
      return;
    }
    const rec = raw as CodexLine;
    const p = (rec.payload && typeof rec.payload === 'object' ? rec.payload : {}) as CodexPayload;
    const ts = toEpochMs(rec.timestamp);
    if (ts !== undefined) {
      startedAt ??= ts;
      updatedAt = ts;
    }
    const sourceId = typeof rec.ordinal === 'number' ? `o${rec.ordinal}` : `L${lineNo}`;
    switch (rec.type) {
      case 'session_meta':
        id ??= typeof p.id === 'string' ? p.id : typeof p.session_id === 'string' ? p.session_id : undefined;
        cwd ??= typeof p.cwd === 'string' ? p.cwd : undefined;
        return;
      case 'turn_context':
        if (typeof p.model === 'string') model = p.model;
        return;
      case 'response_item':
        responseItem(p, sourceId, ts);
        return;
      case 'event_msg':
        eventMsg(p, sourceId, ts);
        return;
      case 'compacted': {
        // Everything before is replaced by the summary (the active context restarts here).
        events = title ? [{ kind: 'title', text: title, sourceId: 'title' }] : [];
        const text = typeof p.message === 'string' ? p.message.trim() : '';
        if (text) events.push({ kind: 'summary', source: 'compaction', text: clip(text, EVENT_TEXT_MAX_CHARS), sourceId, ts });
        return;
      }
      default:
        if (typeof rec.type === 'string' && QUIET_TYPES.has(rec.type)) return;
        skipped++;
    }
  }

  function snapshot(): SessionSnapshot {
    return {
      agent: 'codex',
      id: id ?? '',
      cwd,
      title,
      model,
      events: [...events],
      stamp: `${events[events.length - 1]?.sourceId ?? 'empty'}:${events.length}`,
      skipped,
      startedAt,
      updatedAt,
    };
  }

  return { push, snapshot };
}
