/**
 * Pure incremental parser for pi session files (v1, v2, v3). Entries form an id/parentId tree; the leaf
 * is the last entry in file order and only the root→leaf path is summarized. v1 files have no ids: each
 * entry's parent is the entry before it (what pi's own v1→v2 migration does). A `compaction` entry is a
 * link of the tree like any other (its parent is the leaf it compacted), so the branch it ends goes on
 * past it: the history it summarized stays, on whichever branch was active, with the summary where it
 * happened. A prompt the user typed as a command (`/name args`, pi sends unknown ones to the model) is a
 * command prompt; a skill invocation (`/skill:name args`, which pi expands to `<skill name=…>…</skill>`
 * and the arguments) is read back to the command as typed.
 */
import {
  EVENT_TEXT_MAX_CHARS, TOOL_ARGS_MAX_CHARS, TOOL_RESULT_MAX_CHARS,
  type ParserOptions, type SessionSnapshot, type TranscriptEvent, type TranscriptParser,
} from '../types.js';
import { EntryTree } from '../entry-tree.js';
import { clip, slashCommandIsTask, toolInput, withWholeText, commandFromToolCall, compactArgs, pathsFromToolCall, pushJsonLine, SessionFacts, textFromParts, thinkingEvent, toEpochMs } from '../shared-parse.js';
import type { PiEntry, PiHeader, PiMessage } from './schema.js';

// Entry types pi writes that carry nothing a recap needs (known, so not counted as skipped).
const QUIET_ENTRY_TYPES = new Set(['thinking_level_change', 'label', 'custom', 'custom_message']);
// `/name` or `/skill:name` then its arguments; `/var/folders/…` (a path) is not a command.
const SLASH_COMMAND = /^\/[A-Za-z][\w.:-]*(?:\s|$)/;
const SKILL_BLOCK = /^<skill name="([^"]+)"[^>]*>[\s\S]*?<\/skill>\s*/;

/** A user prompt: the text as typed, and whether it was a command. */
function promptOf(text: string): { text: string; command: boolean } {
  const skill = SKILL_BLOCK.exec(text);
  if (skill) {
    const args = text.slice(skill[0].length).trim();
    const typed = `/skill:${skill[1] as string}${args ? ` ${args}` : ''}`;
    return { text: typed, command: !slashCommandIsTask(typed) };
  }
  // A command given the task's words (a prompt template, a custom command) is a prompt like any other.
  return { text, command: SLASH_COMMAND.test(text) && !slashCommandIsTask(text) };
}

export function createPiParser(options: ParserOptions = {}): TranscriptParser {
  const facts = new SessionFacts();
  const tree = new EntryTree(options.limits, options.wholeFile === true);
  let header: PiHeader | undefined;

  let glued = 0;
  function add(entry: PiEntry, events: TranscriptEvent[]): void {
    // v1 entries have no id: chain them in file order (a second record on one line gets its own id).
    const id = typeof entry.id === 'string' && entry.id ? entry.id : `L${facts.lineNo}${tree.lastId === `L${facts.lineNo}` || tree.has(`L${facts.lineNo}`) ? `.${++glued}` : ''}`;
    const parentId = typeof entry.id === 'string' && entry.id ? (entry.parentId ?? null) : (tree.lastId ?? null);
    // A full read's caller keeps the events it is handed: the tree keeps only the links.
    tree.add(id, parentId, options.onEntry ? [] : events);
    options.onEntry?.({ id, parentId, events });
  }

  function push(line: string): void {
    facts.lineNo++;
    withWholeText(options.full, () => pushJsonLine(line, pushEntry, facts.skip, options.onText));
  }

  function pushEntry(raw: Record<string, unknown>): void {
    const entry = raw as PiEntry;
    const ts = toEpochMs(entry.timestamp);
    facts.seeTime(ts);
    const sourceId = typeof entry.id === 'string' ? entry.id : `L${facts.lineNo}`;
    switch (entry.type) {
      case 'session':
        header = raw as unknown as PiHeader;
        return;
      case 'message': {
        const events = messageEvents(entry.message, sourceId, ts);
        if (events === undefined) {
          facts.skipped++;
          return;
        }
        const m = entry.message;
        if (m?.role === 'assistant' && typeof m.model === 'string') facts.model = m.model;
        add(entry, events);
        return;
      }
      case 'model_change': {
        if (typeof entry.modelId === 'string') facts.model = entry.modelId;
        add(entry, typeof entry.modelId === 'string' ? [{ kind: 'model', model: entry.modelId, provider: entry.provider, sourceId, ts }] : []);
        return;
      }
      case 'compaction':
      case 'branch_summary': {
        const text = typeof entry.summary === 'string' ? clip(entry.summary, EVENT_TEXT_MAX_CHARS) : '';
        add(entry, text ? [{ kind: 'summary', source: entry.type === 'compaction' ? 'compaction' : 'branch', text, sourceId, ts }] : []);
        return;
      }
      case 'session_info': {
        if (typeof entry.name === 'string' && entry.name.trim()) {
          facts.title = entry.name.trim();
          add(entry, [{ kind: 'title', text: facts.title, sourceId, ts }]);
        } else add(entry, []);
        return;
      }
      default:
        if (typeof entry.type === 'string' && QUIET_ENTRY_TYPES.has(entry.type)) {
          add(entry, []);
          return;
        }
        facts.skipped++;
    }
  }

  function snapshot(): SessionSnapshot {
    const leafId = tree.lastId;
    const events = tree.branchEvents(leafId);
    const offBranch = tree.offBranchEvents(leafId);
    return {
      agent: 'pi',
      ...facts.snapshotFields(),
      // pi's header line holds the session's id, folder and start.
      id: typeof header?.id === 'string' ? header.id : '',
      cwd: typeof header?.cwd === 'string' ? header.cwd : undefined,
      // A forked or branched session's header names the file it came from.
      ...(typeof header?.parentSession === 'string' && header.parentSession ? { parent: header.parentSession } : {}),
      events,
      ...(offBranch.length > 0 ? { offBranch } : {}),
      stamp: `${leafId ?? (typeof header?.id === 'string' ? header.id : 'empty')}${tree.dropped ? `:${tree.dropped}` : ''}`,
      dropped: tree.dropped || undefined,
      startedAt: toEpochMs(header?.timestamp) ?? facts.startedAt,
    };
  }

  return { push, snapshot };
}

// Normalized events of one message entry; undefined when the message is not one pi writes.
function messageEvents(m: PiMessage | undefined, sourceId: string, ts: number | undefined): TranscriptEvent[] | undefined {
  if (!m || typeof m !== 'object') return undefined;
  switch (m.role) {
    case 'user': {
      const prompt = promptOf(textFromParts(m.content).trim());
      const text = clip(prompt.text, EVENT_TEXT_MAX_CHARS);
      if (!text) return [];
      return [prompt.command ? { kind: 'user', text, command: true, sourceId, ts } : { kind: 'user', text, sourceId, ts }];
    }
    case 'assistant':
      return assistantEvents(m, sourceId, ts);
    case 'toolResult':
      return [{
        kind: 'tool-result',
        callId: m.toolCallId,
        name: m.toolName,
        ok: m.isError !== true,
        text: clip(textFromParts(m.content).trim(), TOOL_RESULT_MAX_CHARS),
        sourceId,
        ts,
      }];
    case 'bashExecution': {
      // A `!command` the user ran in pi's editor: a tool call and its result, by the user.
      const command = typeof m.command === 'string' ? m.command : '';
      const ok = m.cancelled !== true && (m.exitCode === 0 || m.exitCode === undefined || m.exitCode === null);
      return [
        { kind: 'tool-call', name: 'bash', args: clip(`command=${JSON.stringify(command)}`, TOOL_ARGS_MAX_CHARS), command, paths: [], ...toolInput({ command }), sourceId, ts },
        { kind: 'tool-result', name: 'bash', ok, text: clip(String(m.output ?? '').trim(), TOOL_RESULT_MAX_CHARS), ...(typeof m.exitCode === 'number' ? { exitCode: m.exitCode } : {}), sourceId, ts },
      ];
    }
    case 'branchSummary':
    case 'compactionSummary': {
      const text = clip(String(m.summary ?? textFromParts(m.content)).trim(), EVENT_TEXT_MAX_CHARS);
      return text ? [{ kind: 'summary', source: m.role === 'branchSummary' ? 'branch' : 'compaction', text, sourceId, ts }] : [];
    }
    case 'custom':
    case 'hookMessage':
      // Extension-injected messages (v2 called them hookMessage): not typed by a person.
      return [];
    default:
      return undefined;
  }
}

function assistantEvents(m: PiMessage, sourceId: string, ts: number | undefined): TranscriptEvent[] {
  const events: TranscriptEvent[] = [];
  const parts = Array.isArray(m.content) ? m.content : typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : [];
  for (const part of parts) {
    if (!part || typeof part !== 'object') continue;
    if (part.type === 'thinking' && typeof part.thinking === 'string' && part.thinking.trim()) {
      events.push(thinkingEvent(part.thinking.trim(), sourceId, ts));
    } else if (part.type === 'text' && typeof part.text === 'string' && part.text.trim()) {
      events.push({ kind: 'assistant', text: clip(part.text.trim(), EVENT_TEXT_MAX_CHARS), sourceId, ts });
    } else if (part.type === 'toolCall' && typeof part.name === 'string') {
      events.push({
        kind: 'tool-call',
        callId: part.id,
        name: part.name,
        args: compactArgs(part.arguments, TOOL_ARGS_MAX_CHARS),
        command: commandFromToolCall(part.name, part.arguments),
        paths: pathsFromToolCall(part.name, part.arguments),
        ...toolInput(part.arguments),
        sourceId,
        ts,
      });
    }
  }
  switch (m.stopReason) {
    case 'stop':
    case 'length':
      events.push({ kind: 'turn-end', reason: m.stopReason, sourceId, ts });
      break;
    case 'error':
      events.push({ kind: 'error', text: clip(String(m.errorMessage ?? 'provider error').trim(), EVENT_TEXT_MAX_CHARS), sourceId, ts });
      break;
    case 'aborted':
      events.push({ kind: 'aborted', text: typeof m.errorMessage === 'string' ? m.errorMessage : undefined, sourceId, ts });
      break;
    default:
      break;
  }
  return events;
}
