/**
 * Pure incremental parser for Gemini CLI chat recordings. Since 0.39 a chat is JSON lines, replayed the way
 * Gemini's own loader does: messages live in an insertion-ordered map by id (a re-appended id replaces the
 * message in place: last wins), `{"$set": {"messages": [...]}}` is a checkpoint (clear, then rebuild),
 * `{"$rewindTo": id}` drops that message and everything after it, and other `$set` keys update metadata
 * (`summary` is the title). Before 0.39 the file was one JSON document rewritten whole; `parseGeminiWhole`
 * reads it, and the line parser also collects a pretty-printed document line by line, so a live file of
 * that format is followed too (each rewrite resets the tailer and the parser).
 *
 * A slash command the user typed is recorded as a user message starting with `/`: it is a command prompt,
 * and `/quit` (or `/exit`) ends the session. "System: Please continue." is Gemini's own nudge, not a prompt.
 * A checkpoint whose first message is a `<state_snapshot>` is a compression (`/compress`, automatic): the
 * messages before it stay as history, with the snapshot as the compaction summary where it happened.
 * Past the history limits (history.ts) the oldest messages give way to one head entry.
 *
 * Messages are normalized when they arrive; only their (clipped) events are kept, never the records.
 * Tool results can appear twice (in the model message's `toolCalls`, and as a user `functionResponse`
 * record; a checkpoint adds a synthetic `<id>_response` message): the first per call id counts.
 */
import {
  EVENT_TEXT_MAX_CHARS, TOOL_ARGS_MAX_CHARS, TOOL_RESULT_MAX_CHARS,
  type ParserOptions, type SessionSnapshot, type TranscriptEvent, type TranscriptParser,
} from '../types.js';
import { eventWeight, headEvents, HISTORY_LIMITS, overLimits } from '../history.js';
import { clip, slashCommandIsTask, commandFromToolCall, compactArgs, parseJsonLine, parseJsonObject, pathsFromToolCall, recordTexts, SessionFacts, takeRecords, thinkingEvent, toEpochMs, toolInput, withWholeText } from '../shared-parse.js';
import type { GeminiConversation, GeminiMessage, GeminiPart, GeminiToolCall } from './schema.js';

interface Entry {
  events: TranscriptEvent[];
  model?: string;
}

const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'warning', 'error']);
// User content Gemini itself treats as not a prompt: slash commands, `?` help, injected context.
const NOT_A_PROMPT = /^(?:\?|<session_context>|<hook_context>|System: Please continue\.$)/;
const SLASH_COMMAND = /^\/[A-Za-z][\w.:-]*(?:\s|$)/;
const EXIT_COMMAND = /^\/(?:quit|exit)\s*$/;
const STATE_SNAPSHOT = /<state_snapshot>[\s\S]*<\/state_snapshot>|<state_snapshot>[\s\S]*/;
// Keys of the entries recapwrap adds itself (never a message id Gemini writes).
const HISTORY_KEY = '\u0000history-';
// Where Gemini appends the contents of @-referenced files to the prompt.
const REFERENCED_FILES_MARKER = '\n--- Content from referenced files ---';
// The first workspace folder Gemini lists in the context it injects at the start of a chat.
const WORKSPACE_DIR = /\*\*Workspace Directories:\*\*\s*\n\s*- (.+)|I'm currently working in the directory: (.+)/;
const CANCELLED_INFO = /^\s*Request cancelled/i;
// A pretty-printed whole-file document is not held beyond this (the format is rewritten whole anyway).
const MAX_DOCUMENT_CHARS = 256 * 1024 * 1024;
const TERMINAL_TOOL_STATUSES = new Set(['success', 'error', 'cancelled']);

export interface GeminiParser extends TranscriptParser {
  /** Apply a whole pre-0.39 conversation document. */
  pushDocument(doc: GeminiConversation): void;
}

export function createGeminiParser(options: ParserOptions = {}): GeminiParser {
  const facts = new SessionFacts();
  const limits = options.limits ?? HISTORY_LIMITS;
  const messages = new Map<string, Entry>();
  // The title event, emitted after the message that was last when the title was set ('' before any).
  let titleEvent: { anchor: string; event: TranscriptEvent } | undefined;
  let revision = 0;
  let doc: string[] | undefined;
  let docChars = 0;
  let cached: SessionSnapshot | undefined;
  let eventCount = 0;
  let weight = 0;
  let dropped = 0;
  let historyKeys = 0;

  const entryWeight = (entry: Entry) => entry.events.reduce((w, e) => w + eventWeight(e), 0);
  function recount(): void {
    eventCount = 0;
    weight = 0;
    for (const entry of messages.values()) {
      eventCount += entry.events.length;
      weight += entryWeight(entry);
    }
  }

  // Past the limits: the oldest messages give way to one head entry (first prompts, summaries), first in order.
  function bound(): void {
    if (!overLimits(eventCount, weight, limits)) return;
    const entries = [...messages.entries()];
    let keepFrom = entries.length;
    let events = 0;
    let w = 0;
    while (keepFrom > 1) {
      const entry = (entries[keepFrom - 1] as [string, Entry])[1];
      const ew = entryWeight(entry);
      if (keepFrom < entries.length && (events + entry.events.length > limits.maxEvents / 2 || w + ew > limits.maxWeight / 2)) break;
      events += entry.events.length;
      w += ew;
      keepFrom--;
    }
    const head = headEvents(entries.slice(0, keepFrom).flatMap(([, entry]) => entry.events));
    dropped += head.dropped;
    messages.clear();
    messages.set(`${HISTORY_KEY}${++historyKeys}`, { events: head.kept });
    for (const [key, entry] of entries.slice(keepFrom)) messages.set(key, entry);
    recount();
  }

  const changed = () => {
    revision++;
    cached = undefined;
  };
  // Times can come out of order here (a whole document, messages written again): the earliest and the latest.
  const seeTime = (ts: number | undefined) => {
    if (ts === undefined) return;
    facts.startedAt = facts.startedAt === undefined ? ts : Math.min(facts.startedAt, ts);
    facts.updatedAt = facts.updatedAt === undefined ? ts : Math.max(facts.updatedAt, ts);
  };

  function setMessage(msg: GeminiMessage): void {
    const ts = toEpochMs(msg.timestamp);
    seeTime(ts);
    const entry = messageEntry(msg, msg.id, ts);
    if (entry === undefined) facts.skipped++;
    if (facts.cwd === undefined && msg.type === 'user') facts.cwd = contextCwd(msg.content);
    const before = messages.get(msg.id);
    if (before) {
      eventCount -= before.events.length;
      weight -= entryWeight(before);
    }
    const next = entry ?? { events: [] };
    messages.set(msg.id, next);
    eventCount += next.events.length;
    weight += entryWeight(next);
    bound();
    changed();
  }

  function rewind(id: string): void {
    let found = false;
    for (const key of [...messages.keys()]) {
      if (key === id) found = true;
      if (found) messages.delete(key);
    }
    // Gemini's loader clears everything when the id is unknown; so do we (but for the history we bounded).
    if (!found) for (const key of [...messages.keys()]) if (!key.startsWith(HISTORY_KEY)) messages.delete(key);
    recount();
    changed();
  }

  function checkpoint(list: unknown[]): void {
    // The snapshot is the first user message, or follows the session context Gemini CLI puts first (0.61, seen
    // in a real /compress: test/fixtures/transcripts/gemini/reader/edit-shell-compress.jsonl).
    const first = list.filter(isMessage).slice(0, 3).find((m) => m.type === 'user' && STATE_SNAPSHOT.test(plainText(partsOf(m.content))));
    const snapshot = first ? STATE_SNAPSHOT.exec(plainText(partsOf(first.content))) : null;
    if (snapshot && messages.size > 0) {
      // A compression: what came before stays, then the snapshot as the summary, then the kept messages.
      const before = [...messages.values()].flatMap((entry) => entry.events);
      const ts = toEpochMs(first?.timestamp);
      const summary: TranscriptEvent = { kind: 'summary', source: 'compaction', text: clip(snapshot[0].trim(), EVENT_TEXT_MAX_CHARS), sourceId: first?.id ?? `L${facts.lineNo}`, ts };
      messages.clear();
      messages.set(`${HISTORY_KEY}${++historyKeys}`, { events: [...before, summary] });
      recount();
      for (const m of list) if (isMessage(m) && m !== first) setMessage(m);
    } else {
      messages.clear();
      recount();
      for (const m of list) if (isMessage(m)) setMessage(m);
    }
    changed();
  }

  function setTitle(text: unknown, sourceId: string, ts: number | undefined): void {
    if (typeof text !== 'string' || !text.trim()) return;
    const next = clip(text.trim().replace(/\s+/g, ' '), EVENT_TEXT_MAX_CHARS);
    if (next === facts.title) return;
    facts.title = next;
    let anchor = '';
    for (const key of messages.keys()) anchor = key;
    titleEvent = { anchor, event: { kind: 'title', text: next, sourceId, ts } };
    changed();
  }

  function applySet(set: Record<string, unknown>): void {
    if (Array.isArray(set.messages)) checkpoint(set.messages);
    if (typeof set.sessionId === 'string' && set.sessionId) facts.id ??= set.sessionId;
    const last = toEpochMs(set.lastUpdated);
    if (last !== undefined) facts.updatedAt = Math.max(facts.updatedAt ?? last, last);
    if ('summary' in set) setTitle(set.summary, `L${facts.lineNo}`, last);
    cached = undefined;
  }

  function pushDocument(d: GeminiConversation): void {
    if (typeof d.sessionId === 'string' && d.sessionId) facts.id ??= d.sessionId;
    seeTime(toEpochMs(d.startTime));
    if (Array.isArray(d.messages)) checkpoint(d.messages);
    const last = toEpochMs(d.lastUpdated);
    if (last !== undefined) facts.updatedAt = Math.max(facts.updatedAt ?? last, last);
    setTitle(d.summary, 'summary', last);
    cached = undefined;
  }

  function pushRecord(rec: Record<string, unknown>): void {
    if (typeof rec.$rewindTo === 'string') rewind(rec.$rewindTo);
    else if (typeof rec.id === 'string' && rec.id) setMessage(rec as unknown as GeminiMessage);
    else if (rec.$set && typeof rec.$set === 'object' && !Array.isArray(rec.$set)) applySet(rec.$set as Record<string, unknown>);
    else if (typeof rec.sessionId === 'string' && typeof rec.projectHash === 'string') pushDocument(rec as GeminiConversation);
    else facts.skipped++;
  }

  function pushDocumentLine(line: string): void {
    const lines = doc as string[];
    lines.push(line);
    docChars += line.length + 1;
    if (docChars > MAX_DOCUMENT_CHARS) {
      facts.skipped++;
      doc = undefined;
      return;
    }
    if (line.trimEnd() !== '}') return;
    const whole = parseJsonObject(lines.join('\n'));
    if (!whole) return; // A `}` closing an inner object at column 0 is not the end yet.
    doc = undefined;
    docChars = 0;
    if (options.onText) recordTexts(whole, options.onText);
    pushDocument(whole as GeminiConversation);
  }

  function push(line: string): void {
    facts.lineNo++;
    try {
      withWholeText(options.full, () => pushLine(line));
    } catch {
      facts.skipped++; // a record this parser cannot take (e.g. nested past the stack): that record only
    }
  }

  function pushLine(line: string): void {
    if (doc) return pushDocumentLine(line);
    const trimmed = line.trim();
    if (!trimmed) return;
    // The older format, pretty-printed, opens with a lone brace (below); anything else is records.
    if (trimmed !== '{' && trimmed.startsWith('{')) {
      const { objects, bad } = parseJsonLine(line);
      if (objects.length > 0) {
        facts.skipped += bad;
        if (options.onText) for (const o of objects) recordTexts(o, options.onText);
        takeRecords(objects, pushRecord, facts.skip);
        return;
      }
    }
    // The older format, pretty-printed: collect the document from its opening brace.
    if (trimmed === '{' && messages.size === 0 && facts.id === undefined) {
      doc = [line];
      docChars = line.length + 1;
      return;
    }
    facts.skipped++;
  }

  function snapshot(): SessionSnapshot {
    if (cached) return cached;
    const events: TranscriptEvent[] = [];
    const calls = new Set<string>();
    const results = new Set<string>();
    let model: string | undefined;
    let lastId: string | undefined;
    if (titleEvent?.anchor === '' || (titleEvent && !messages.has(titleEvent.anchor))) events.push(titleEvent.event);
    for (const [id, entry] of messages) {
      if (entry.model && entry.model !== model) {
        model = entry.model;
        events.push({ kind: 'model', model, sourceId: id, ts: entry.events[0]?.ts });
      }
      for (const e of entry.events) {
        if (e.kind === 'tool-call' && e.callId) {
          if (calls.has(e.callId)) continue;
          calls.add(e.callId);
        } else if (e.kind === 'tool-result' && e.callId) {
          if (results.has(e.callId)) continue;
          results.add(e.callId);
        }
        events.push(e);
      }
      if (entry.events.length > 0) lastId = id;
      if (titleEvent && titleEvent.anchor === id) events.push(titleEvent.event);
    }
    cached = {
      agent: 'gemini',
      ...facts.snapshotFields(),
      // The model of the messages on the branch, not a session-wide one.
      model,
      events,
      stamp: `${lastId ?? facts.id ?? 'empty'}:${events.length}:${revision}`,
      dropped: dropped || undefined,
    };
    return cached;
  }

  return { push, pushDocument: (d) => withWholeText(options.full, () => pushDocument(d)), snapshot };
}

/** The session of a pre-0.39 whole-file chat (one JSON document). */
export function parseGeminiWhole(content: string, options: ParserOptions = {}): SessionSnapshot {
  const parser = createGeminiParser(options);
  const doc = parseJsonObject(content);
  if (doc && options.onText) recordTexts(doc, options.onText);
  if (doc) parser.pushDocument(doc as GeminiConversation);
  else for (const line of content.split('\n')) parser.push(line);
  return parser.snapshot();
}

function isMessage(m: unknown): m is GeminiMessage {
  return !!m && typeof m === 'object' && typeof (m as { id?: unknown }).id === 'string' && (m as { id: string }).id.length > 0;
}

function partsOf(content: unknown): GeminiPart[] {
  if (typeof content === 'string') return [{ text: content }];
  if (Array.isArray(content)) {
    return content.flatMap((p): GeminiPart[] => (typeof p === 'string' ? [{ text: p }] : p && typeof p === 'object' ? [p as GeminiPart] : []));
  }
  return content && typeof content === 'object' ? [content as GeminiPart] : [];
}

function plainText(parts: GeminiPart[]): string {
  return parts
    .filter((p) => typeof p.text === 'string' && p.thought !== true)
    .map((p) => p.text as string)
    .join('');
}

function contextCwd(content: unknown): string | undefined {
  const text = plainText(partsOf(content));
  if (!text.trimStart().startsWith('<session_context>')) return undefined;
  const m = WORKSPACE_DIR.exec(text);
  const dir = (m?.[1] ?? m?.[2])?.trim().replace(/\.$/, '');
  return dir && dir.startsWith('/') ? dir : undefined;
}

// Normalized events of one message; undefined when its type is not one Gemini writes.
function messageEntry(msg: GeminiMessage, sourceId: string, ts: number | undefined): Entry | undefined {
  const type = typeof msg.type === 'string' ? msg.type : '';
  if (!MESSAGE_TYPES.has(type)) return undefined;
  switch (type) {
    case 'user':
      return { events: userEvents(msg, sourceId, ts) };
    case 'gemini':
      return { events: modelEvents(msg, sourceId, ts), model: typeof msg.model === 'string' && msg.model ? msg.model : undefined };
    case 'error': {
      const text = clip(plainText(partsOf(msg.content)).trim() || 'error', EVENT_TEXT_MAX_CHARS);
      return { events: [{ kind: 'error', text, sourceId, ts }] };
    }
    case 'info': {
      // Notices Gemini shows in the UI; a cancelled request is the one a recap needs.
      const text = plainText(partsOf(msg.content)).trim();
      return { events: CANCELLED_INFO.test(text) ? [{ kind: 'aborted', text: clip(text, EVENT_TEXT_MAX_CHARS), sourceId, ts }] : [] };
    }
    default:
      return { events: [] };
  }
}

function userEvents(msg: GeminiMessage, sourceId: string, ts: number | undefined): TranscriptEvent[] {
  const parts = partsOf(msg.content);
  const events: TranscriptEvent[] = [];
  for (const p of parts) {
    const fr = p.functionResponse;
    if (!fr || typeof fr !== 'object') continue;
    const response = fr.response && typeof fr.response === 'object' ? fr.response : undefined;
    events.push({
      kind: 'tool-result',
      callId: typeof fr.id === 'string' ? fr.id : undefined,
      name: typeof fr.name === 'string' ? fr.name : undefined,
      ok: response?.error === undefined,
      text: clip(responseText(response, undefined), TOOL_RESULT_MAX_CHARS),
      sourceId,
      ts,
    });
  }
  if (events.length > 0) return events;
  const display = msg.displayContent !== undefined ? plainText(partsOf(msg.displayContent)) : '';
  let text = display.trim() ? display : plainText(parts);
  const cut = text.indexOf(REFERENCED_FILES_MARKER);
  if (cut >= 0) text = text.slice(0, cut);
  text = text.trim();
  if (!text || NOT_A_PROMPT.test(text)) return [];
  // A command given the task's words (a skill, a custom command) is a prompt like any other.
  if (SLASH_COMMAND.test(text) && !slashCommandIsTask(text)) {
    const events: TranscriptEvent[] = [{ kind: 'user', text: clip(text, EVENT_TEXT_MAX_CHARS), command: true, sourceId, ts }];
    if (EXIT_COMMAND.test(text)) events.push({ kind: 'exit', text, sourceId, ts });
    return events;
  }
  return [{ kind: 'user', text: clip(text, EVENT_TEXT_MAX_CHARS), sourceId, ts }];
}

function modelEvents(msg: GeminiMessage, sourceId: string, ts: number | undefined): TranscriptEvent[] {
  const events: TranscriptEvent[] = [];
  for (const t of Array.isArray(msg.thoughts) ? msg.thoughts : []) {
    if (!t || typeof t !== 'object') continue;
    const text = [t.subject, t.description].filter((s): s is string => typeof s === 'string' && s.trim() !== '').join(': ');
    if (text) events.push(thinkingEvent(text, sourceId, ts));
  }
  const parts = partsOf(msg.content);
  const inlineCalls: GeminiToolCall[] = [];
  const texts: string[] = [];
  for (const p of parts) {
    if (p.functionCall && typeof p.functionCall === 'object') inlineCalls.push(p.functionCall);
    else if (typeof p.text === 'string' && p.text.trim()) {
      if (p.thought === true) events.push(thinkingEvent(p.text.trim(), sourceId, ts));
      else texts.push(p.text);
    }
  }
  const text = texts.join('').trim();
  if (text) events.push({ kind: 'assistant', text: clip(text, EVENT_TEXT_MAX_CHARS), sourceId, ts });
  // `toolCalls` (with results and status) when recorded; the checkpoint form has functionCall parts.
  const toolCalls = Array.isArray(msg.toolCalls) && msg.toolCalls.length > 0 ? msg.toolCalls : inlineCalls;
  let cancelled = false;
  for (const call of toolCalls) {
    if (!call || typeof call !== 'object') continue;
    const name = typeof call.name === 'string' && call.name ? call.name : 'unknown';
    const callId = typeof call.id === 'string' && call.id ? call.id : undefined;
    const callTs = toEpochMs(call.timestamp) ?? ts;
    // The tool scheduler's status while the user is asked to confirm the call (recorded if the message is
    // written while it waits); every recording seen so far holds calls that already ended.
    const approval = call.status === 'awaiting_approval';
    events.push({
      kind: 'tool-call',
      callId,
      name,
      args: compactArgs(call.args, TOOL_ARGS_MAX_CHARS),
      command: commandFromToolCall(name, call.args),
      paths: pathsFromToolCall(name, call.args),
      ...toolInput(call.args),
      ...(approval ? { approval } : {}),
      sourceId,
      ts: callTs,
    });
    const status = typeof call.status === 'string' ? call.status : undefined;
    if (call.result === undefined && !(status && TERMINAL_TOOL_STATUSES.has(status))) continue;
    const response = firstResponse(call.result);
    events.push({
      kind: 'tool-result',
      callId,
      name,
      ok: status ? status === 'success' : response?.error === undefined,
      text: clip(typeof call.result === 'string' ? call.result.trim() : responseText(response, call.resultDisplay), TOOL_RESULT_MAX_CHARS),
      sourceId,
      ts: callTs,
    });
    if (status === 'cancelled') cancelled = true;
  }
  if (cancelled) events.push({ kind: 'aborted', text: 'tool call cancelled', sourceId, ts });
  // Gemini records no stop reason: a model message that calls no tool ends the turn.
  else if (toolCalls.length === 0 && (text || events.length > 0)) events.push({ kind: 'turn-end', reason: 'stop', sourceId, ts });
  return events;
}

function firstResponse(result: unknown): Record<string, unknown> | undefined {
  const parts = Array.isArray(result) ? result : result && typeof result === 'object' ? [result] : [];
  for (const p of parts) {
    const r = (p as GeminiPart | undefined)?.functionResponse?.response;
    if (r && typeof r === 'object') return r;
  }
  return undefined;
}

function responseText(response: Record<string, unknown> | undefined, display: unknown): string {
  for (const c of [response?.output, response?.error, response?.content, display]) {
    if (typeof c === 'string' && c.trim()) return c.trim();
    if (c && typeof c === 'object') {
      const o = c as Record<string, unknown>;
      const s = o.message ?? o.summary ?? o.fileName;
      if (typeof s === 'string' && s.trim()) return s.trim();
    }
  }
  return '';
}
