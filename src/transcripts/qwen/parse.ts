/**
 * Pure incremental parser for Qwen Code session files. Records form a uuid/parentUuid chain (an
 * `EntryTree`, like pi and Claude); the leaf is the last conversation record in file order (metadata
 * records such as titles do not move it), and only the root→leaf path is summarized, so `/rewind`'s dead
 * branches drop out. Telemetry and snapshot records stay in the chain (they are links in it) but carry no
 * events. A record whose parent is missing (a lost line) continues from the record before it in file order.
 * A `chat_compression` record is a link of the chain too: the history before it stays, its summary where
 * it happened. Qwen Code's own recap (a `/recap` command's result, also written for the automatic one) is an
 * `agent-recap` event. A slash command (`system/slash_command`, phase `invocation`) is a command prompt as typed,
 * `/quit` also ends the session; the prompt a file command expands to (the next user record, written
 * within a second of the command's result) is the command's own text, not a second prompt.
 */
import {
  EVENT_TEXT_MAX_CHARS, TOOL_ARGS_MAX_CHARS, TOOL_RESULT_MAX_CHARS,
  type ParserOptions, type SessionSnapshot, type TranscriptEvent, type TranscriptParser,
} from '../types.js';
import { EntryTree } from '../entry-tree.js';
import { clip, slashCommandIsTask, toolInput, withWholeText, commandFromToolCall, compactArgs, pathsFromToolCall, pushJsonLine, SessionFacts, thinkingEvent, toEpochMs } from '../shared-parse.js';
import type { QwenContent, QwenPart, QwenRecord } from './schema.js';

// System subtypes that carry nothing a recap needs (known, so not counted as skipped).
const QUIET_SYSTEM_SUBTYPES = new Set([
  'ui_telemetry', 'attribution_snapshot', 'file_history_snapshot', 'at_command', 'rewind',
  'notification', 'background_task_completed', 'cron', 'session_notes', 'omni_recall', 'user_text_elements',
  'branch_checkpoint', 'goal_state', 'goal_runtime', 'goal_turn_end', 'realtime_message',
  'agent_bootstrap', 'agent_launch_prompt', 'agent_retry', 'agent_session_ready',
]);
// Session metadata written beside the conversation (re-appended at EOF): never the leaf.
const METADATA_SUBTYPES = new Set([
  'custom_title', 'session_model', 'session_approval_mode', 'parent_session', 'session_source',
  'session_sources_snapshot', 'session_execution_engine', 'session_artifact_event', 'session_artifact_snapshot',
  'managed_session_header_v1', 'managed_session_event_v1', 'managed_session_commit_v1',
]);
// User-role records that qwen injects (background notifications, cron prompts, …): not typed by a person.
const INJECTED_USER_SUBTYPES = new Set(['notification', 'background_task_completed', 'cron', 'agent_launch_prompt', 'realtime_message']);
const CONVERSATION_TYPES = new Set(['user', 'assistant', 'tool_result', 'system']);
const MID_TURN_PREFIX = /^\s*\[User message received during tool execution\]:\s*/;
const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;
// Where qwen (like gemini-cli) appends the contents of @-referenced files to the prompt.
const REFERENCED_FILES_MARKER = '\n--- Content from referenced files ---';
const EXIT_COMMAND = /^\/(?:quit|exit)\b/;
/** A user record this soon after a slash command's result, chained to it, is the command's expansion. */
export const COMMAND_EXPANSION_MS = 1000;

export function createQwenParser(options: ParserOptions = {}): TranscriptParser {
  const facts = new SessionFacts();
  const tree = new EntryTree(options.limits, options.wholeFile === true);
  // Title/model events recorded before any record; later ones go with the leaf they were recorded at.
  const preamble: TranscriptEvent[] = [];
  let leafId: string | undefined;
  let metaRevision = 0;
  let commandResult: { uuid: string; ts: number | undefined } | undefined;

  function addNode(rec: QwenRecord, events: TranscriptEvent[], movesLeaf: boolean): void {
    const hasId = typeof rec.uuid === 'string' && rec.uuid.length > 0;
    const id = hasId ? (rec.uuid as string) : `L${facts.lineNo}`;
    // Records without ids chain in file order; a parent that never came (a lost line) is bridged to the
    // record before this one.
    let parentId = hasId ? (typeof rec.parentUuid === 'string' ? rec.parentUuid : null) : (leafId ?? null);
    if (parentId !== null && !tree.has(parentId)) parentId = tree.lastId ?? null;
    // A full read's caller keeps the events it is handed: the tree keeps only the links.
    tree.add(id, parentId, options.onEntry ? [] : events);
    options.onEntry?.({ id, parentId, events });
    if (movesLeaf) leafId = id;
  }

  function addMeta(event: TranscriptEvent): void {
    if (leafId === undefined || !tree.addTo(leafId, [event])) preamble.push(event);
    // A full read sees it where it was written: after the leaf it was recorded at.
    options.onEntry?.({ id: `${leafId ?? ''}+meta${metaRevision}`, parentId: leafId ?? null, events: [event] });
    metaRevision++;
  }

  function pushRecord(rec: QwenRecord): void {
    // Qwen's --json-file event stream and other agents' records have no sessionId/parentUuid.
    if (typeof rec.sessionId !== 'string' && !('parentUuid' in rec)) {
      facts.skipped++;
      return;
    }
    const ts = toEpochMs(rec.timestamp);
    facts.seeTime(ts);
    if (typeof rec.sessionId === 'string' && rec.sessionId) facts.id ??= rec.sessionId;
    if (typeof rec.cwd === 'string' && rec.cwd) facts.cwd ??= rec.cwd;
    // A fork (`--resume ID --fork-session`) copies the old records, each naming the session it came from.
    facts.seeParent((rec as { forkedFrom?: { sessionId?: unknown } }).forkedFrom?.sessionId);
    const sourceId = typeof rec.uuid === 'string' && rec.uuid ? rec.uuid : `L${facts.lineNo}`;
    if (typeof rec.type !== 'string' || !CONVERSATION_TYPES.has(rec.type)) {
      // Unknown record type: keep it as a link of the chain, but count it.
      facts.skipped++;
      addNode(rec, [], false);
      return;
    }
    if (rec.type === 'system' && typeof rec.subtype === 'string' && METADATA_SUBTYPES.has(rec.subtype)) {
      addNode(rec, [], false);
      recordMetadata(rec, sourceId, ts);
      return;
    }
    let events: TranscriptEvent[] | undefined;
    if (rec.type === 'system' && rec.subtype === 'slash_command') {
      events = commandEvents(rec, sourceId, ts);
    } else if (isCommandExpansion(rec, ts)) {
      events = [];
    } else {
      events = recordEvents(rec, sourceId, ts);
    }
    if (events === undefined) facts.skipped++;
    if (rec.type === 'assistant' && typeof rec.model === 'string' && rec.model && !rec.isSidechain) facts.model = rec.model;
    addNode(rec, events ?? [], true);
  }

  // `invocation` is what the user typed; `result` follows (its output is for the screen).
  function commandEvents(rec: QwenRecord, sourceId: string, ts: number | undefined): TranscriptEvent[] {
    const payload = rec.systemPayload;
    const raw = typeof payload?.rawCommand === 'string' ? payload.rawCommand.trim() : '';
    if (payload?.phase === 'result') {
      if (typeof rec.uuid === 'string') commandResult = { uuid: rec.uuid, ts };
      return awayRecapEvents(payload.outputHistoryItems, sourceId, ts, typeof rec.parentUuid === 'string' ? rec.parentUuid : undefined);
    }
    if (payload?.phase !== 'invocation' || !raw) return [];
    // A command given the task's words (a skill, a custom command) is a prompt like any other.
    const text = clip(raw, EVENT_TEXT_MAX_CHARS);
    const events: TranscriptEvent[] = [slashCommandIsTask(raw) ? { kind: 'user', text, sourceId, ts } : { kind: 'user', text, command: true, sourceId, ts }];
    if (EXIT_COMMAND.test(raw)) events.push({ kind: 'exit', text: raw, sourceId, ts });
    return events;
  }

  // Qwen Code's own recap (`/recap`, or the automatic one on a return after its threshold): its text.
  function awayRecapEvents(items: unknown, sourceId: string, ts: number | undefined, after: string | undefined): TranscriptEvent[] {
    if (!Array.isArray(items)) return [];
    const recap = (items as Array<{ type?: unknown; text?: unknown }>).findLast((i) => i?.type === 'away_recap' && typeof i.text === 'string' && i.text.trim());
    return recap ? [{ kind: 'agent-recap', text: clip(String(recap.text).trim(), EVENT_TEXT_MAX_CHARS), sourceId, ts, ...(after ? { after } : {}) }] : [];
  }

  function isCommandExpansion(rec: QwenRecord, ts: number | undefined): boolean {
    const result = commandResult;
    if (rec.type !== 'user' || !result || rec.parentUuid !== result.uuid) return false;
    if (typeof rec.subtype === 'string' && rec.subtype !== '') return false;
    return ts !== undefined && result.ts !== undefined && ts - result.ts < COMMAND_EXPANSION_MS;
  }

  function recordMetadata(rec: QwenRecord, sourceId: string, ts: number | undefined): void {
    const payload = rec.systemPayload;
    if (rec.subtype === 'custom_title' && typeof payload?.customTitle === 'string' && payload.customTitle.trim()) {
      const text = clip(payload.customTitle.trim(), EVENT_TEXT_MAX_CHARS);
      // Qwen re-appends the same title to keep it near EOF: only a change is news.
      if (text !== facts.title) {
        facts.title = text;
        addMeta({ kind: 'title', text, sourceId, ts });
      }
    } else if (rec.subtype === 'session_model' && typeof payload?.modelId === 'string' && payload.modelId.trim()) {
      const id = payload.modelId.trim();
      if (id !== facts.model) {
        facts.model = id;
        addMeta({ kind: 'model', model: id, sourceId, ts });
      }
    }
  }

  function push(line: string): void {
    facts.lineNo++;
    // Qwen's own reader salvages lines holding several records (a crash before a newline): so does this.
    withWholeText(options.full, () => pushJsonLine(line, (rec) => pushRecord(rec as QwenRecord), facts.skip, options.onText));
  }

  function snapshot(): SessionSnapshot {
    const events: TranscriptEvent[] = [...preamble, ...tree.branchEvents(leafId)];
    const offBranch = tree.offBranchEvents(leafId);
    return {
      agent: 'qwen',
      ...facts.snapshotFields(),
      events,
      ...(offBranch.length > 0 ? { offBranch } : {}),
      // Telemetry and snapshot records do not change it; any new event, branch or title does.
      stamp: `${events[events.length - 1]?.sourceId ?? facts.id ?? 'empty'}:${events.length}:${metaRevision}:${tree.dropped}`,
      dropped: tree.dropped || undefined,
    };
  }

  return { push, snapshot };
}

// Normalized events of one conversation record; undefined when its shape or subtype is not one qwen writes.
function recordEvents(rec: QwenRecord, sourceId: string, ts: number | undefined): TranscriptEvent[] | undefined {
  // A subagent's rounds are its own conversation, not the main one.
  if (rec.isSidechain === true) return [];
  switch (rec.type) {
    case 'user':
      return userEvents(rec, sourceId, ts);
    case 'assistant':
      return assistantEvents(rec.message, sourceId, ts);
    case 'tool_result':
      return toolResultEvents(rec, sourceId, ts);
    case 'system':
      return systemEvents(rec, sourceId, ts);
    default:
      return undefined;
  }
}

function partsOf(content: QwenContent | undefined): QwenPart[] {
  const parts = content?.parts;
  return Array.isArray(parts) ? parts.filter((p): p is QwenPart => !!p && typeof p === 'object') : [];
}

// Text a person typed: reasoning, injected reminders and expanded @-file contents left out.
function promptText(parts: QwenPart[]): string {
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part.text !== 'string' || part.thought === true) continue;
    let text = part.text.replace(SYSTEM_REMINDER, '');
    const cut = text.indexOf(REFERENCED_FILES_MARKER);
    if (cut >= 0) text = text.slice(0, cut);
    if (text.trim()) texts.push(text.trim());
  }
  return texts.join('\n');
}

function userEvents(rec: QwenRecord, sourceId: string, ts: number | undefined): TranscriptEvent[] | undefined {
  const parts = partsOf(rec.message);
  // Older writers put tool responses in user-role records.
  if (parts.some((p) => p.functionResponse)) return toolResultEvents(rec, sourceId, ts);
  const display = rec.systemPayload?.displayText;
  let text: string;
  const midTurn = rec.subtype === 'mid_turn_user_message';
  if (midTurn) {
    // Typed while tools ran: the person's words are the display text, or the part after qwen's label.
    text = typeof display === 'string' && display.trim() ? display : promptText(parts).replace(MID_TURN_PREFIX, '');
  } else if (typeof rec.subtype !== 'string' || rec.subtype === '') {
    if (typeof rec.provenance === 'string' && rec.provenance !== 'real_user') return [];
    text = typeof display === 'string' && display.trim() ? display : promptText(parts);
  } else if (INJECTED_USER_SUBTYPES.has(rec.subtype)) {
    return [];
  } else return undefined;
  text = clip(text.trim(), EVENT_TEXT_MAX_CHARS);
  return text ? [{ kind: 'user', text, sourceId, ts, ...(midTurn ? { midTurn: true } : {}) }] : [];
}

function assistantEvents(message: QwenContent | undefined, sourceId: string, ts: number | undefined): TranscriptEvent[] {
  const events: TranscriptEvent[] = [];
  let calls = 0;
  for (const part of partsOf(message)) {
    const call = part.functionCall;
    if (call && typeof call === 'object') {
      const name = typeof call.name === 'string' && call.name ? call.name : 'unknown';
      calls++;
      events.push({
        kind: 'tool-call',
        callId: typeof call.id === 'string' ? call.id : undefined,
        name,
        args: compactArgs(call.args, TOOL_ARGS_MAX_CHARS),
        command: commandFromToolCall(name, call.args),
        paths: pathsFromToolCall(name, call.args),
        ...toolInput(call.args),
        sourceId,
        ts,
      });
    } else if (typeof part.text === 'string' && part.text.trim()) {
      if (part.thought === true) events.push(thinkingEvent(part.text.trim(), sourceId, ts));
      else events.push({ kind: 'assistant', text: clip(part.text.trim(), EVENT_TEXT_MAX_CHARS), sourceId, ts });
    }
  }
  // Qwen records no stop reason; a complete model message without tool calls ends the turn.
  if (calls === 0) events.push({ kind: 'turn-end', reason: 'stop', sourceId, ts });
  return events;
}

function responseText(response: Record<string, unknown> | undefined, display: unknown): string {
  const candidates = [response?.output, response?.error, response?.content, display];
  for (const c of candidates) {
    if (typeof c === 'string' && c.trim()) return c.trim();
    if (c && typeof c === 'object' && typeof (c as { message?: unknown }).message === 'string') return String((c as { message: string }).message).trim();
  }
  return '';
}

function toolResultEvents(rec: QwenRecord, sourceId: string, ts: number | undefined): TranscriptEvent[] {
  const meta = rec.toolCallResult && typeof rec.toolCallResult === 'object' ? rec.toolCallResult : undefined;
  const status = typeof meta?.status === 'string' ? meta.status : undefined;
  const events: TranscriptEvent[] = [];
  const responses = partsOf(rec.message).map((p) => p.functionResponse).filter((r) => r && typeof r === 'object');
  for (const fr of responses.length > 0 ? responses : [undefined]) {
    const response = fr?.response && typeof fr.response === 'object' ? fr.response : undefined;
    const ok = status ? status === 'success' : response?.error === undefined && meta?.error === undefined;
    events.push({
      kind: 'tool-result',
      callId: (typeof fr?.id === 'string' ? fr.id : undefined) ?? meta?.callId,
      name: typeof fr?.name === 'string' ? fr.name : undefined,
      ok,
      text: clip(responseText(response, meta?.resultDisplay ?? meta?.error), TOOL_RESULT_MAX_CHARS),
      sourceId,
      ts,
    });
  }
  // The person stopped the turn while the tool ran.
  if (status === 'cancelled') events.push({ kind: 'aborted', text: 'tool call cancelled', sourceId, ts });
  return events;
}

function systemEvents(rec: QwenRecord, sourceId: string, ts: number | undefined): TranscriptEvent[] | undefined {
  const payload = rec.systemPayload && typeof rec.systemPayload === 'object' ? rec.systemPayload : undefined;
  switch (rec.subtype) {
    case 'chat_compression': {
      // The compressed history opens with the summary qwen's model wrote of everything before.
      const history = Array.isArray(payload?.compressedHistory) ? payload.compressedHistory : [];
      const first = history.find((c) => c && typeof c === 'object' && c.role !== 'model');
      const text = clip(promptText(partsOf(first)), EVENT_TEXT_MAX_CHARS);
      return text ? [{ kind: 'summary', source: 'compaction', text, sourceId, ts }] : [];
    }
    case 'ui_telemetry': {
      const ev = payload?.uiEvent;
      if (!ev || typeof ev !== 'object' || ev['event.name'] !== 'qwen-code.api_error') return [];
      const message = String(ev.error_message ?? ev.error ?? 'API error').trim();
      if (ev.error_type === 'APIUserAbortError') return [{ kind: 'aborted', text: message, sourceId, ts }];
      const code = typeof ev.status_code === 'number' && !message.startsWith(String(ev.status_code)) ? `${ev.status_code} ` : '';
      return [{ kind: 'error', text: clip(code + message, EVENT_TEXT_MAX_CHARS), sourceId, ts }];
    }
    case 'turn_result':
      // Daemon sessions settle each prompt with one of these; a completed turn already ended at its answer.
      if (payload?.state === 'cancelled') return [{ kind: 'aborted', sourceId, ts }];
      if (payload?.state === 'error') return [{ kind: 'error', text: clip(String(payload.error?.message ?? 'turn failed'), EVENT_TEXT_MAX_CHARS), sourceId, ts }];
      return [];
    default:
      return typeof rec.subtype === 'string' && QUIET_SYSTEM_SUBTYPES.has(rec.subtype) ? [] : undefined;
  }
}
