/**
 * What a generator sees of a session: the first request of the task, summaries the agent wrote itself,
 * the recent dialogue cut at a turn boundary, the files touched, commands, errors, and how the last turn
 * ended. Thinking never enters. Pure and deterministic: the same session gives the same context.
 */
import { findQuestion } from './sentences.js';
import { shortenPaths } from './paths.js';
import { emptyEvidence, noteEvidence, noteFolder, noteWritten, projectLabel, type LabelSource } from './project-label.js';
import type { ActivityState } from '../types.js';
import type { RecapEvent, RecapSession } from './types.js';

export const CONTEXT_LIMITS = {
  /** A tool call renders as `name(args)` with args cut to this. */
  toolArgs: 280,
  /** A tool result is cut to this. */
  toolResult: 400,
  /** Any one message is cut to this. */
  message: 1200,
  /** The whole rendered context stays under this. */
  total: 12_000,
  /** At most this many summaries (the newest). */
  summaries: 2,
  /** At most this many touched files, commands and errors are listed (the newest). */
  listed: 12,
} as const;

/** How the last turn ended, as far as the transcript tells. */
export type TurnEnding =
  | 'empty' // nothing asked yet
  | 'finished' // the agent answered and the turn closed (or its last word is an answer)
  | 'question' // the agent's last words ask the user something
  | 'interrupted' // the user aborted the turn
  | 'api-error' // the provider failed (rate limit, auth, credit, overload)
  | 'mid-tool' // the last word is a tool call with no result: running, waiting for approval, or cut off
  | 'mid-turn'; // a prompt or tool result with no answer yet

/** One tool call of a turn, with its result once known. */
export interface ToolStep {
  name: string;
  args: string;
  command?: string;
  paths: readonly string[];
  approval?: boolean;
  ok?: boolean;
  /** The start of its output (≤ 400 chars), when the result arrived. */
  result?: string;
}

/** One turn: the user's prompt and what the agent said and did until the next prompt. */
export interface Turn {
  request?: string;
  /** The prompt was a slash command the user typed (`/review src/app.ts`). */
  command?: boolean;
  assistant: string[];
  tools: ToolStep[];
}

/** A commit the session made, from the git command and its output. */
export interface CommitFact {
  hash?: string;
  subject?: string;
  /** Where it was pushed (the remote repository's name), when a push followed. */
  pushedTo?: string;
  pushed?: boolean;
}

export interface DialogueItem {
  role: 'user' | 'assistant' | 'tool' | 'result' | 'summary' | 'error' | 'aborted';
  text: string;
  ok?: boolean;
}

export interface RecapContext {
  agent: string;
  sessionId: string;
  file: string;
  cwd?: string;
  title?: string;
  stamp: string;
  /** The first user request of the session (the task), cut to the message cap. */
  firstRequest?: string;
  /** The latest user prompt, full (cut to the message cap). */
  lastRequest?: string;
  /** Every user prompt's text, oldest first, cut to 200 chars (the heuristic picks the task from them). */
  requests: string[];
  summaries: string[];
  /** Recent dialogue, oldest first, starting at a turn boundary. */
  dialogue: DialogueItem[];
  /** Whether older dialogue was left out. */
  truncated: boolean;
  filesTouched: string[];
  commands: Array<{ command: string; ok?: boolean }>;
  errors: string[];
  ending: TurnEnding;
  /** The last tool call when the turn ended mid-tool. */
  pendingTool?: string;
  /** The agent's last text of the last turn. */
  lastAssistant?: string;
  activity?: ActivityState;
  /** The last turns, oldest first (at most TURNS_KEPT): the current one is the last. */
  turns: Turn[];
  /** Tool calls at the end with no result yet (running, waiting for approval, or cut off). */
  pendingTools: ToolStep[];
  /** A pending call waits for the user's approval. */
  approval: boolean;
  /** The session ended (the user left or the process ended) after its last turn. */
  exited: boolean;
  /** Commits made in the session, newest last (at most `listed`). */
  commits: CommitFact[];
  /** The project the session is about, as a short label, and the evidence it came from. */
  project?: { label: string; source: LabelSource };
  /** When the session last changed (epoch ms, its last event's time), and the time the recap is made. */
  updatedAt?: number;
  now?: number;
  /** Counts for a status line and for tests. */
  counts: { prompts: number; toolCalls: number; toolErrors: number; events: number };
}

export function cut(text: string, max: number): string {
  const t = text.trim();
  return t.length <= max ? t : t.slice(0, Math.max(0, max - 1)).trimEnd() + '…';
}

/** Keep the head and the tail (an answer's conclusion and question come last). */
export function cutMiddle(text: string, max: number): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const head = Math.floor(max * 0.4);
  const tail = max - head - 3;
  return `${t.slice(0, head).trimEnd()} … ${t.slice(t.length - tail).trimStart()}`;
}

function renderToolCall(e: Extract<RecapEvent, { kind: 'tool-call' }>): string {
  return `${e.name}(${cut(e.args.replace(/\s+/g, ' '), CONTEXT_LIMITS.toolArgs)})`;
}

// One event as a dialogue item; undefined for events that are not dialogue (thinking, titles, models, turn ends).
function toItem(e: RecapEvent): DialogueItem | undefined {
  switch (e.kind) {
    case 'user':
      return { role: 'user', text: cut(e.command ? `(slash command) ${e.text}` : e.text, CONTEXT_LIMITS.message) };
    case 'assistant':
      return e.text.trim() ? { role: 'assistant', text: cutMiddle(e.text, CONTEXT_LIMITS.message) } : undefined;
    case 'tool-call':
      return { role: 'tool', text: renderToolCall(e) };
    case 'tool-result':
      return { role: 'result', ok: e.ok, text: cut(e.text, CONTEXT_LIMITS.toolResult) };
    case 'summary':
      return { role: 'summary', text: cut(e.text, CONTEXT_LIMITS.message) };
    case 'error':
      return { role: 'error', text: cut(e.text, 400) };
    case 'aborted':
      return { role: 'aborted', text: e.text ? cut(e.text, 200) : 'interrupted by the user' };
    default:
      return undefined;
  }
}

export const TURNS_KEPT = 3;
const GIT_COMMIT = /\bgit\s+(?:-C\s+\S+\s+)?commit\b/;
const GIT_PUSH = /\bgit\s+(?:-C\s+\S+\s+)?push\b/;
// `[main 2e593ed] subject` in git commit's output.
const COMMIT_OUTPUT = /\[[^\]\s]+(?: \([^)]*\))? ([0-9a-f]{7,40})\] ([^\n]+?)(?= \d+ files? changed|\n|$)/;
// `To https://github.com/owner/repo.git` / `To git@host:owner/repo.git` in git push's output.
const PUSH_TARGET = /\bTo (?:https?:\/\/|ssh:\/\/|git@)?[^\s]*?[/:]([\w.-]+?)(?:\.git)?(?:\s|$)/;

// The command a tool call runs: the parser's, else one inside code-mode args (`{"cmd":"…"}`).
export function commandOf(step: Pick<ToolStep, 'command' | 'args'>): string | undefined {
  if (step.command) return step.command;
  const m = /"(?:cmd|command)"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(step.args);
  if (!m) return undefined;
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return m[1];
  }
}

function noteCommit(commits: CommitFact[], step: ToolStep): void {
  const command = commandOf(step);
  if (!command || step.ok === false) return;
  const out = step.result ?? '';
  if (GIT_COMMIT.test(command)) {
    const m = COMMIT_OUTPUT.exec(out);
    if (m || step.ok) pushNewest(commits, { hash: m?.[1], subject: m?.[2]?.trim() }, CONTEXT_LIMITS.listed);
  }
  if (GIT_PUSH.test(command) && !/\b(rejected|error|fatal)\b/i.test(out)) {
    const target = PUSH_TARGET.exec(out)?.[1];
    const last = commits[commits.length - 1];
    if (last) {
      last.pushed = true;
      if (target) last.pushedTo = target;
    } else {
      commits.push({ pushed: true, pushedTo: target });
    }
  }
}

function itemSize(item: DialogueItem): number {
  return item.text.length + 12;
}


/** How the last turn ended, from the events alone. */
export function turnEnding(events: readonly RecapEvent[]): { ending: TurnEnding; pendingTool?: string; lastAssistant?: string } {
  let lastAssistant: string | undefined;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as RecapEvent;
    if (e.kind === 'assistant' && e.text.trim()) {
      lastAssistant ??= e.text;
      continue;
    }
    if (e.kind === 'thinking' || e.kind === 'title' || e.kind === 'model' || e.kind === 'summary' || e.kind === 'exit' || e.kind === 'agent-recap') continue;
    if (e.kind === 'turn-end') continue; // look at what the turn ended on
    if (e.kind === 'aborted') return { ending: 'interrupted', lastAssistant };
    if (e.kind === 'error') return lastAssistant ? { ending: endingOf(lastAssistant), lastAssistant } : { ending: 'api-error' };
    if (lastAssistant !== undefined) return { ending: endingOf(lastAssistant), lastAssistant };
    if (e.kind === 'tool-call') return { ending: 'mid-tool', pendingTool: renderToolCall(e) };
    return { ending: 'mid-turn' };
  }
  return lastAssistant !== undefined ? { ending: endingOf(lastAssistant), lastAssistant } : { ending: 'empty' };
}

function endingOf(text: string): TurnEnding {
  return findQuestion(text) ? 'question' : 'finished';
}

function pushNewest<T>(list: T[], value: T, max: number): void {
  list.push(value);
  if (list.length > max * 2) list.splice(0, list.length - max);
}

export function buildContext(session: RecapSession, activity?: ActivityState, clock?: { now: number }): RecapContext {
  const events = session.events;
  const evidence = emptyEvidence();
  const requests: string[] = [];
  const summaries: string[] = [];
  const files: string[] = [];
  const commands: Array<{ command: string; ok?: boolean; callId?: string }> = [];
  const errors: string[] = [];
  let firstRequest: string | undefined;
  let lastRequest: string | undefined;
  let prompts = 0;
  let toolCalls = 0;
  let toolErrors = 0;
  const commandByCall = new Map<string, { ok?: boolean }>();
  const turns: Turn[] = [{ assistant: [], tools: [] }];
  const stepByCall = new Map<string, ToolStep>();
  const commits: CommitFact[] = [];
  let open: ToolStep[] = [];
  let exited = false;
  let current = turns[0] as Turn;
  for (const e of events) {
    if (e.kind !== 'exit' && e.kind !== 'title' && e.kind !== 'model' && e.kind !== 'thinking' && e.kind !== 'agent-recap') exited = false;
    switch (e.kind) {
      case 'exit':
        exited = true;
        break;
      case 'assistant':
        if (e.text.trim()) pushNewest(current.assistant, e.text, 8);
        break;
      case 'user':
        current = { request: e.text, command: e.command, assistant: [], tools: [] };
        turns.push(current);
        if (turns.length > TURNS_KEPT * 2) turns.splice(0, turns.length - TURNS_KEPT);
        open = [];
        // A slash command (`/clear`, `/model opus`) manages the session: it is no request and no prompt.
        if (e.command) break;
        prompts++;
        firstRequest ??= cut(e.text, CONTEXT_LIMITS.message);
        lastRequest = e.text;
        pushNewest(requests, cut(e.text, 200), 50);
        break;
      case 'summary':
        pushNewest(summaries, cut(e.text, CONTEXT_LIMITS.message), CONTEXT_LIMITS.summaries);
        break;
      case 'tool-call': {
        toolCalls++;
        {
          const step: ToolStep = { name: e.name, args: e.args, command: e.command, paths: e.paths, approval: e.approval };
          noteFolder(evidence, step, session.cwd);
          noteWritten(evidence, step, session.cwd);
          pushNewest(current.tools, step, 40);
          open.push(step);
          if (open.length > 16) open.shift();
          if (e.callId) {
            stepByCall.set(e.callId, step);
            if (stepByCall.size > 64) stepByCall.delete(stepByCall.keys().next().value as string);
          }
        }
        for (const p of e.paths) {
          const i = files.indexOf(p);
          if (i >= 0) files.splice(i, 1);
          files.push(p);
        }
        if (e.command) {
          const entry: { command: string; ok?: boolean; callId?: string } = { command: cut(e.command.replace(/\s+/g, ' '), 200), callId: e.callId };
          pushNewest(commands, entry, CONTEXT_LIMITS.listed);
          if (e.callId) commandByCall.set(e.callId, entry);
        }
        break;
      }
      case 'tool-result': {
        if (!e.ok) toolErrors++;
        {
          // A result without a call id closes the oldest open call (results come in call order).
          const step = e.callId ? stepByCall.get(e.callId) : open[0];
          if (step) {
            step.ok = e.ok;
            step.result = e.text.slice(0, 400);
            open = open.filter((s) => s !== step);
            noteCommit(commits, step);
            noteEvidence(evidence, step, session.cwd);
          } else if (!e.callId) {
            open = [];
          }
        }
        const entry = e.callId ? commandByCall.get(e.callId) : undefined;
        if (entry) entry.ok = e.ok;
        if (!e.ok) pushNewest(errors, cut(e.text, 300), CONTEXT_LIMITS.listed);
        break;
      }
      case 'error':
        pushNewest(errors, cut(e.text, 300), CONTEXT_LIMITS.listed);
        open = [];
        break;
      case 'aborted':
        open = [];
        break;
      default:
        break;
    }
  }

  // Recent dialogue, newest first until the budget is spent, then cut to start at a turn boundary.
  const fixed = (firstRequest?.length ?? 0) + summaries.slice(-CONTEXT_LIMITS.summaries).reduce((n, s) => n + s.length, 0) + 1500;
  let budget = CONTEXT_LIMITS.total - fixed;
  const recent: DialogueItem[] = [];
  let i = events.length - 1;
  for (; i >= 0; i--) {
    const item = toItem(events[i] as RecapEvent);
    if (!item || item.role === 'summary') continue;
    const size = itemSize(item);
    if (size > budget && recent.length > 0) break;
    budget -= size;
    recent.push(item);
  }
  recent.reverse();
  const truncated = i >= 0;
  if (truncated) {
    // Start at the first user prompt in the window; without one, at least not on a result whose call was cut.
    const firstUser = recent.findIndex((it) => it.role === 'user');
    let start = firstUser >= 0 ? firstUser : recent.findIndex((it) => it.role !== 'result');
    if (start < 0) start = 0;
    if (start > 0) recent.splice(0, start);
  }

  const { ending, pendingTool, lastAssistant } = turnEnding(events);
  return {
    agent: session.agent,
    sessionId: session.id,
    file: session.file,
    cwd: session.cwd,
    title: session.title,
    stamp: session.stamp,
    firstRequest,
    lastRequest: lastRequest === undefined ? undefined : cut(lastRequest, CONTEXT_LIMITS.message),
    requests: requests.slice(-50),
    summaries: summaries.slice(-CONTEXT_LIMITS.summaries),
    dialogue: recent,
    truncated,
    filesTouched: files.slice(-CONTEXT_LIMITS.listed),
    commands: commands.slice(-CONTEXT_LIMITS.listed).map(({ command, ok }) => (ok === undefined ? { command } : { command, ok })),
    errors: errors.slice(-CONTEXT_LIMITS.listed),
    ending,
    pendingTool,
    lastAssistant: lastAssistant === undefined ? undefined : cutMiddle(lastAssistant, CONTEXT_LIMITS.message),
    activity,
    turns: turns.slice(-TURNS_KEPT),
    pendingTools: ending === 'mid-tool' ? open.slice(-4) : [],
    approval: ending === 'mid-tool' && open.some((s) => s.approval),
    exited,
    commits: commits.slice(-CONTEXT_LIMITS.listed),
    project: projectLabel(evidence, session.cwd, requests),
    updatedAt: session.updatedAt,
    now: clock?.now,
    counts: { prompts, toolCalls, toolErrors, events: events.length },
  };
}

const LABEL_SOURCE_WORDS: Record<LabelSource, string> = { user: "the user's own words", remote: 'the git remote', manifest: 'the package manifest', readme: 'the README title', folder: 'the working folder' };

/** The context as the text a model reads (inside the prompt's <transcript> block). */
export function renderContext(ctx: RecapContext): string {
  const out: string[] = [];
  out.push(`agent: ${ctx.agent}`);
  if (ctx.project) out.push(`project: ${ctx.project.label} (from ${LABEL_SOURCE_WORDS[ctx.project.source]})`);
  // The folder itself is said once, here (with ~ for a home); paths below are relative to it.
  const folder = ctx.cwd ? `project folder: ${shortenPaths(ctx.cwd)}` : undefined;
  if (ctx.title) out.push(`session title: ${cut(ctx.title, 120)}`);
  // Without a cut the first request is already the dialogue's first line.
  if (ctx.firstRequest && ctx.truncated) out.push('', '## First request of the session', ctx.firstRequest);
  for (const s of ctx.summaries) out.push('', '## Summary the agent wrote of earlier work', s);
  out.push('', ctx.truncated ? '## Recent dialogue (earlier turns left out)' : '## Dialogue');
  for (const item of ctx.dialogue) {
    const label = item.role === 'result' ? (item.ok ? 'tool result' : 'tool error') : item.role === 'tool' ? 'tool call' : item.role;
    out.push(`[${label}] ${item.text}`);
  }
  if (ctx.filesTouched.length) out.push('', `## Files changed: ${ctx.filesTouched.join(', ')}`);
  if (ctx.commands.length) out.push(`## Commands run: ${ctx.commands.map((c) => `${c.command}${c.ok === false ? ' (failed)' : ''}`).join('; ')}`);
  if (ctx.errors.length) out.push(`## Errors: ${ctx.errors.slice(-4).join(' | ')}`);
  const idle = ctx.now !== undefined && ctx.updatedAt !== undefined && !ctx.activity ? ctx.now - ctx.updatedAt : 0;
  const old = idle > 30 * 60_000 ? `; the file has not changed for ${idle >= 2 * 86_400_000 ? `${Math.floor(idle / 86_400_000)} days` : `${Math.max(1, Math.floor(idle / 3_600_000))} h`}, so nothing is running now` : '';
  out.push('', `## State: ${describeEnding(ctx)}${ctx.exited ? '; then the session was closed' : ''}${old}`);
  // Paths as the recap shows them (relative to the project folder, ~ for homes): no user names leave the machine.
  const text = shortenPaths(out.join('\n'), ctx.cwd);
  if (!folder) return text;
  const lines = text.split('\n');
  lines.splice(ctx.project ? 2 : 1, 0, folder);
  return lines.join('\n');
}

export function describeEnding(ctx: Pick<RecapContext, 'ending' | 'activity' | 'pendingTool'> & { approval?: boolean }): string {
  const live = ctx.activity ? ` (agent now: ${ctx.activity})` : '';
  switch (ctx.ending) {
    case 'empty':
      return `nothing asked yet${live}`;
    case 'finished':
      return `the last turn finished${live}`;
    case 'question':
      return `the agent asked the user a question and waits for the answer${live}`;
    case 'interrupted':
      return `the user interrupted the last turn${live}`;
    case 'api-error':
      return `the last turn stopped on a provider/API error${live}`;
    case 'mid-tool':
      if (ctx.approval) return `the agent waits for the user's approval of a tool call${ctx.pendingTool ? ` ${ctx.pendingTool}` : ''}${live}`;
      return `the last turn is in the middle of a tool call${ctx.pendingTool ? ` ${ctx.pendingTool}` : ''}${live}`;
    case 'mid-turn':
      return `the last turn is still in progress${live}`;
  }
}
