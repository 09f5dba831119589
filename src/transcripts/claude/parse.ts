/**
 * Pure incremental parser for Claude Code session files (1.0.x and 2.1.x). Chain entries (user,
 * assistant, attachment, system) form a uuid/parentUuid tree; an assistant message is written as one
 * line per content block. The leaf is the last chain entry, unless a later `last-prompt` names another
 * (a rewind). A compaction starts a new chain (`compact_boundary`, parent null) whose
 * `logicalParentUuid` names the last entry before it; the boundary is linked there, so the active branch
 * runs through every compaction and the history before it stays, with the summary (`isCompactSummary`)
 * where the compaction happened. Person-typed prompts are told apart from meta, caveat,
 * task-notification and summary messages; a slash command (`<command-name>` and `<command-args>` tags,
 * in a user entry or, since 2.1.9x, a `system/local_command` entry) is a prompt whose text is the command
 * as typed, and `/exit` or `/quit` also ends the session (`exit`). Its local output stays out. An away
 * summary (`system/away_summary`, Claude Code's own recap) is an `agent-recap` event without its UI hint.
 */
import {
  EVENT_TEXT_MAX_CHARS, TOOL_ARGS_MAX_CHARS, TOOL_RESULT_MAX_CHARS,
  type ParserOptions, type SessionSnapshot, type TranscriptEvent, type TranscriptParser,
} from '../types.js';
import { EntryTree } from '../entry-tree.js';
import { clip, slashCommandIsTask, toolInput, withWholeText, commandFromToolCall, compactArgs, pathsFromToolCall, pushJsonLine, SessionFacts, textFromParts, thinkingEvent, toEpochMs } from '../shared-parse.js';
import type { ClaudeBlock, ClaudeEntry } from './schema.js';

// Chain entry types (they carry uuid/parentUuid).
const CHAIN_TYPES = new Set(['user', 'assistant', 'attachment', 'system', 'progress']);
// Metadata lines recapwrap reads nothing from (known, so not counted as skipped).
const QUIET_TYPES = new Set([
  'queue-operation', 'file-history-snapshot', 'mode', 'permission-mode', 'atis-latch', 'api-request-shape',
  'api-request-blob', 'api-request', 'tools-used', 'cost-state', 'tag', 'agent-name', 'pr-link', 'worktree-state',
  'content-replacement', 'progress',
]);
// User text that a person did not type.
const SYNTHETIC_USER = /^\s*<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|task-notification|system-reminder|bash-input|bash-stdout|bash-stderr|user-prompt-submit-hook)>/;
const INTERRUPTED = /^\[Request interrupted by user[^\]]*\]$/;
const COMMAND_NAME = /<command-name>\s*([^<]*?)\s*<\/command-name>/;
const COMMAND_ARGS = /<command-args>([\s\S]*?)<\/command-args>/;
const EXIT_COMMANDS = new Set(['/exit', '/quit']);
const NO_RESPONSE = 'No response requested.';
// The hint Claude Code appends to its first away summaries: for its screen, not part of the recap.
const AWAY_SUMMARY_HINT = /\s*\((?:disable|turn off) recaps in \/config\)\s*$/i;
// What the VS Code extension adds to a prompt (the file open, the selection): context, not typed.
const IDE_CONTEXT = /<ide_(opened_file|selection|diagnostics)>[\s\S]*?<\/ide_\1>\s*/g;

/**
 * The slash command a user entry records (`<command-name>/x</command-name>` with `<command-args>`), as
 * typed: `/x args`; undefined for any other text.
 */
export function claudeCommandText(text: string): string | undefined {
  if (!/^\s*<command-(name|message|args)>/.test(text)) return undefined;
  const name = COMMAND_NAME.exec(text)?.[1]?.trim();
  if (!name) return undefined;
  const args = (COMMAND_ARGS.exec(text)?.[1] ?? '').trim();
  return (name.startsWith('/') ? name : `/${name}`) + (args ? ` ${args}` : '');
}

/** An away summary's text without the hint Claude Code adds for its screen ("(disable recaps in /config)"). */
export function stripAgentRecapHint(text: string): string {
  return text.replace(AWAY_SUMMARY_HINT, '').trim();
}

function commandEvents(command: string, sourceId: string, ts: number | undefined, local = false): TranscriptEvent[] {
  // A command given the task's words (a skill, a custom command) is a prompt like any other; one Claude
  // Code ran itself (a `local_command` entry) never is.
  const text = clip(command, EVENT_TEXT_MAX_CHARS);
  const events: TranscriptEvent[] = [!local && slashCommandIsTask(command) ? { kind: 'user', text, sourceId, ts } : { kind: 'user', text, command: true, sourceId, ts }];
  if (EXIT_COMMANDS.has(command.split(/\s/, 1)[0] as string)) events.push({ kind: 'exit', text: command, sourceId, ts });
  return events;
}

function blocksOf(content: unknown): ClaudeBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content.filter((b) => b && typeof b === 'object') as ClaudeBlock[]) : [];
}

function apiErrorText(entry: ClaudeEntry): string {
  const e = entry.error as { status?: number; message?: string; error?: { message?: string; error?: { message?: string } } } | undefined;
  const message = e?.error?.error?.message ?? e?.error?.message ?? e?.message ?? (typeof entry.content === 'string' ? entry.content : undefined);
  return clip(`${e?.status ? `API error ${e.status}` : 'API error'}${message ? `: ${message}` : ''}`, EVENT_TEXT_MAX_CHARS);
}

export function createClaudeParser(options: ParserOptions = {}): TranscriptParser {
  const facts = new SessionFacts();
  const tree = new EntryTree(options.limits, options.wholeFile === true);
  let lastPromptLeaf: string | undefined;
  let promptAfterChain = false;
  let customTitle: string | undefined;
  /** The last session an answer copied from another session was asked in (a `--fork-session` fork). */
  let requestedBy: string | undefined;

  function userEvents(entry: ClaudeEntry, sourceId: string, ts: number | undefined): TranscriptEvent[] {
    const message = entry.message;
    const blocks = blocksOf(message?.content);
    const events: TranscriptEvent[] = [];
    if (entry.isCompactSummary === true) {
      const text = clip(textFromParts(message?.content).trim(), EVENT_TEXT_MAX_CHARS);
      return text ? [{ kind: 'summary', source: 'compaction', text, sourceId, ts }] : [];
    }
    const person = entry.isMeta !== true && entry.promptSource !== 'system' && entry.origin?.kind !== 'task-notification' && entry.isVisibleInTranscriptOnly !== true;
    const texts: string[] = [];
    for (const b of blocks) {
      if (b.type === 'tool_result') {
        const content = typeof b.content === 'string' ? b.content : textFromParts(b.content);
        events.push({ kind: 'tool-result', callId: b.tool_use_id, ok: b.is_error !== true, text: clip(content.trim(), TOOL_RESULT_MAX_CHARS), sourceId, ts });
      } else if (b.type === 'text' && typeof b.text === 'string') {
        texts.push(b.text);
      }
    }
    const text = texts.join('\n').replace(IDE_CONTEXT, '').trim();
    const command = text ? claudeCommandText(text) : undefined;
    if (command !== undefined && entry.origin?.kind !== 'task-notification') {
      events.push(...commandEvents(command, sourceId, ts));
    } else if (text) {
      if (INTERRUPTED.test(text)) events.push({ kind: 'aborted', text, sourceId, ts });
      else if (person && !SYNTHETIC_USER.test(text)) events.push({ kind: 'user', text: clip(text, EVENT_TEXT_MAX_CHARS), sourceId, ts });
    }
    return events;
  }

  function assistantEvents(entry: ClaudeEntry, sourceId: string, ts: number | undefined): TranscriptEvent[] {
    const message = entry.message;
    if (typeof message?.model === 'string' && message.model !== '<synthetic>') facts.model = message.model;
    // Claude's placeholder after a local command (/exit): nobody answered anything.
    if (message?.model === '<synthetic>' && entry.isApiErrorMessage !== true && textFromParts(message.content).trim() === NO_RESPONSE) return [];
    const events: TranscriptEvent[] = [];
    let hasText = false;
    for (const b of blocksOf(message?.content)) {
      if (b.type === 'thinking' && typeof b.thinking === 'string' && b.thinking.trim()) {
        events.push(thinkingEvent(b.thinking.trim(), sourceId, ts));
      } else if (b.type === 'text' && typeof b.text === 'string' && b.text.trim()) {
        hasText = true;
        // An API error Claude Code shows as an assistant message (e.g. "Credit balance is too low").
        if (entry.isApiErrorMessage === true) events.push({ kind: 'error', text: clip(b.text.trim(), EVENT_TEXT_MAX_CHARS), sourceId, ts });
        else events.push({ kind: 'assistant', text: clip(b.text.trim(), EVENT_TEXT_MAX_CHARS), sourceId, ts });
      } else if (b.type === 'tool_use' && typeof b.name === 'string') {
        events.push({
          kind: 'tool-call',
          callId: b.id,
          name: b.name,
          args: compactArgs(b.input, TOOL_ARGS_MAX_CHARS),
          command: commandFromToolCall(b.name, b.input),
          paths: pathsFromToolCall(b.name, b.input),
          ...toolInput(b.input),
          sourceId,
          ts,
        });
      }
    }
    // Every line of a message repeats its stop reason: the turn ends after the text line of an end_turn.
    const stop = message?.stop_reason;
    if (hasText && entry.isApiErrorMessage !== true && (stop === 'end_turn' || stop === 'stop_sequence' || stop === 'max_tokens')) {
      events.push({ kind: 'turn-end', reason: stop, sourceId, ts });
    }
    return events;
  }

  function systemEvents(entry: ClaudeEntry, sourceId: string, ts: number | undefined): TranscriptEvent[] {
    switch (entry.subtype) {
      case 'api_error':
        return [{ kind: 'error', text: apiErrorText(entry), sourceId, ts }];
      case 'turn_duration':
        return [{ kind: 'turn-end', sourceId, ts }];
      case 'away_summary': {
        // Claude Code's own recap ("※ recap:"), written while you were away (docs/agent-recaps.md).
        const text = typeof entry.content === 'string' ? stripAgentRecapHint(entry.content) : '';
        const after = typeof entry.parentUuid === 'string' ? { after: entry.parentUuid } : {};
        return text ? [{ kind: 'agent-recap', text: clip(text, EVENT_TEXT_MAX_CHARS), sourceId, ts, ...after }] : [];
      }
      case 'local_command': {
        // 2.1.9x records a local command (`/mcp`, `/exit`) as a system entry; its output is another one.
        const command = typeof entry.content === 'string' ? claudeCommandText(entry.content) : undefined;
        return command === undefined ? [] : commandEvents(command, sourceId, ts, true);
      }
      default:
        return [];
    }
  }

  function push(line: string): void {
    withWholeText(options.full, () => pushJsonLine(line, (raw) => pushEntry(raw as ClaudeEntry), facts.skip, options.onText));
  }

  function pushEntry(entry: ClaudeEntry): void {
    const type = typeof entry.type === 'string' ? entry.type : '';
    const ts = toEpochMs(entry.timestamp);
    if (typeof entry.sessionId === 'string' && !facts.id) facts.id = entry.sessionId;
    if (typeof entry.cwd === 'string' && !facts.cwd) facts.cwd = entry.cwd;
    facts.seeBranch((entry as { gitBranch?: unknown }).gitBranch);
    // A fork copies the old conversation: /branch's copies name where they came from (`forkedFrom`);
    // `--resume ID --fork-session`'s copied answers keep the id of the session that asked for them
    // (`requestSessionId`): the last one that is not this session's is the parent (earlier ones may
    // name the parent's own parent, when the parent was a fork too).
    facts.seeParent((entry as { forkedFrom?: { sessionId?: unknown } }).forkedFrom?.sessionId);
    const requested = (entry as { requestSessionId?: unknown }).requestSessionId;
    if (typeof requested === 'string' && requested && requested !== entry.sessionId && requested.length <= 200) requestedBy = requested;
    if (typeof entry.uuid === 'string' && CHAIN_TYPES.has(type)) {
      // Subagent lines of old versions: not the main conversation (unless a sub-agent's own file is read).
      const sidechain = entry.isSidechain === true && !options.sidechain;
      if (sidechain && !options.onEntry) return;
      const sourceId = entry.uuid;
      const model = facts.model;
      const events = type === 'user' ? userEvents(entry, sourceId, ts) : type === 'assistant' ? assistantEvents(entry, sourceId, ts) : type === 'system' ? systemEvents(entry, sourceId, ts) : [];
      if (sidechain) {
        // A full read sees it (the reader shows it under the call that started it); the tree does not.
        facts.model = model;
        options.onEntry?.({ id: entry.uuid, parentId: typeof entry.parentUuid === 'string' ? entry.parentUuid : null, events, sidechain: true });
        return;
      }
      facts.seeTime(ts);
      const parentId = entry.subtype === 'compact_boundary' ? compactParent(entry) : typeof entry.parentUuid === 'string' ? entry.parentUuid : null;
      // A full read's caller keeps the events it is handed: the tree keeps only the links.
      tree.add(entry.uuid, parentId, options.onEntry ? [] : events);
      options.onEntry?.({ id: entry.uuid, parentId, events });
      promptAfterChain = false;
      return;
    }
    switch (type) {
      case 'last-prompt':
        if (typeof entry.leafUuid === 'string') {
          lastPromptLeaf = entry.leafUuid;
          promptAfterChain = true;
        }
        return;
      case 'ai-title':
        if (typeof entry.aiTitle === 'string' && entry.aiTitle.trim()) facts.title = entry.aiTitle.trim();
        return;
      case 'custom-title':
        if (typeof entry.customTitle === 'string' && entry.customTitle.trim()) customTitle = entry.customTitle.trim();
        return;
      case 'summary':
        // 1.0.x: a title for the conversation that ends at leafUuid.
        if (typeof entry.summary === 'string' && entry.summary.trim()) facts.title ??= entry.summary.trim();
        return;
      default:
        if (QUIET_TYPES.has(type)) return;
        facts.skipped++;
    }
  }

  // The history a compaction summarized goes on: the entry the boundary names, else the last one before it.
  function compactParent(entry: ClaudeEntry): string | null {
    if (typeof entry.parentUuid === 'string') return entry.parentUuid;
    if (typeof entry.logicalParentUuid === 'string' && tree.has(entry.logicalParentUuid)) return entry.logicalParentUuid;
    return tree.lastId ?? null;
  }

  function leaf(): string | undefined {
    // A last-prompt written after the last chain entry may point elsewhere (a rewind to an older turn).
    if (promptAfterChain && lastPromptLeaf && tree.has(lastPromptLeaf)) return lastPromptLeaf;
    return tree.lastId;
  }

  function snapshot(): SessionSnapshot {
    const leafId = leaf();
    const events = tree.branchEvents(leafId);
    const offBranch = tree.offBranchEvents(leafId);
    const name = customTitle ?? facts.title;
    if (name) events.unshift({ kind: 'title', text: name, sourceId: 'title' });
    const fields = facts.snapshotFields();
    if (!fields.parent && requestedBy && requestedBy !== fields.id) fields.parent = requestedBy;
    return {
      agent: 'claude',
      ...fields,
      title: name,
      events,
      ...(offBranch.length > 0 ? { offBranch } : {}),
      // What is summarized: the last event of the branch and how many there are (noise lines do not count).
      stamp: `${events[events.length - 1]?.sourceId ?? 'empty'}:${events.length}`,
      dropped: tree.dropped || undefined,
    };
  }

  return { push, snapshot };
}
