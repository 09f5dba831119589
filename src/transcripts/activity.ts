/**
 * What the agent is doing, from the transcript plus cheap live signals: working (a turn is open),
 * waiting (the turn ended on a question or a pending approval), idle (the turn ended), exited.
 * Pure: the caller passes the signals and the time.
 *
 * A transcript that ends on `exit` (the user typed /exit or /quit, or the file records the agent
 * ending) is `exited`, since the exit: the session was closed, whatever the process does next (a
 * wrapper's child exits right after; a recap of the file later should say it was closed). A session
 * resumed after an exit has events after it, and reads as usual.
 */
import type { ActivityState, AnnouncedState } from '../types.js';
import type { Session, SessionSnapshot, TranscriptEvent } from './types.js';

export interface ActivitySignals {
  exited?: boolean;
  /** The busy state the agent announces in its output (its adapter's outputSignal, e.g. Codex's OSC 7501). */
  announcedState?: AnnouncedState;
  /** When the agent last printed anything to its terminal (epoch ms); agents animate while they work. */
  lastOutputAt?: number;
  now: number;
}

/**
 * A tool call without a result and a screen this quiet means the agent is showing an approval prompt:
 * agents redraw a spinner several times a second while a tool really runs.
 */
export const APPROVAL_QUIET_MS = 15_000;
/**
 * A call that asked for approval may run at once (Codex approves a command prefix the user saved): while
 * the screen still animates within this time the agent is taken to run it, not to wait.
 */
export const APPROVAL_ANIMATED_MS = 3_000;

// Events that close a turn: after them the agent waits for the user.
const TURN_CLOSERS = new Set<TranscriptEvent['kind']>(['turn-end', 'aborted', 'error']);
// Events that say the agent is (still) at work when they come last.
const TURN_OPENERS = new Set<TranscriptEvent['kind']>(['user', 'tool-call', 'tool-result', 'thinking']);
// Events that say nothing about the turn: a compaction summary, a title, a model change, the agent's own recap.
const NEUTRAL = new Set<TranscriptEvent['kind']>(['summary', 'title', 'model', 'agent-recap']);
const QUESTION = /\?\s*$|\b(shall|should|would you like|do you want|want me to|let me know|which (one|option))\b/i;

/** The last event that says something about the turn (titles, model changes and summaries do not). */
function lastTurnEvent(events: readonly TranscriptEvent[]): TranscriptEvent | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as TranscriptEvent;
    if (TURN_CLOSERS.has(e.kind) || TURN_OPENERS.has(e.kind) || e.kind === 'assistant') return e;
  }
  return undefined;
}

/** The session's last word is that it was closed (`exit`), nothing after it but summaries or titles. */
export function exitEvent(events: readonly TranscriptEvent[]): TranscriptEvent | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as TranscriptEvent;
    if (e.kind === 'exit') return e;
    if (!NEUTRAL.has(e.kind)) return undefined;
  }
  return undefined;
}

/**
 * The tool call of the open turn that asked for the user's approval (`approval`) and has no result
 * yet, if any: the agent waits for the user until it gets one.
 */
export function pendingApproval(events: readonly TranscriptEvent[]): TranscriptEvent | undefined {
  const results = new Set<string>();
  let anyResult = false;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as TranscriptEvent;
    if (TURN_CLOSERS.has(e.kind) || e.kind === 'user' || e.kind === 'exit') return undefined;
    if (e.kind === 'tool-result') {
      anyResult = true;
      if (e.callId !== undefined) results.add(e.callId);
    } else if (e.kind === 'tool-call' && e.approval === true) {
      const answered = e.callId !== undefined ? results.has(e.callId) : anyResult;
      if (!answered) return e;
    }
  }
  return undefined;
}

/** A turn is open: the user spoke or a tool ran, and nothing closed the turn since. */
export function isMidTurn(session: Pick<SessionSnapshot, 'events'>): boolean {
  const last = lastTurnEvent(session.events);
  return last !== undefined && TURN_OPENERS.has(last.kind);
}

/** The agent's last words, when the turn ended on them. */
function lastAssistantText(events: readonly TranscriptEvent[]): string | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as TranscriptEvent;
    if (e.kind === 'assistant') return e.text;
    if (e.kind === 'user') return undefined;
  }
  return undefined;
}

/** The turn's last word is a tool call that has no result yet. */
function toolCallPending(events: readonly TranscriptEvent[]): boolean {
  return lastTurnEvent(events)?.kind === 'tool-call';
}

// Live signals first (exited), then a call that asked for approval and has no result (waiting, unless the
// screen still animates: it runs), agent-reported busy, then the transcript: a session closed by `exit` is
// exited; an open turn is working unless a tool call waits for approval (the agent says idle, or its
// output went quiet); a closed turn that ended on a question is waiting, otherwise idle.
export function deriveActivity(session: Session | SessionSnapshot | undefined, signals: ActivitySignals): { state: ActivityState; since: number } {
  const since = session?.updatedAt ?? signals.now;
  if (signals.exited) return { state: 'exited', since: signals.now };
  const approval = session ? pendingApproval(session.events) : undefined;
  const animated = signals.lastOutputAt !== undefined && signals.now - signals.lastOutputAt < APPROVAL_ANIMATED_MS;
  if (approval && !animated) return { state: 'waiting', since: approval.ts ?? since };
  if (signals.announcedState === 'working') return { state: 'working', since };
  if (!session) return { state: 'idle', since };
  const exit = exitEvent(session.events);
  if (exit) return { state: 'exited', since: exit.ts ?? since };
  if (isMidTurn(session)) {
    if (toolCallPending(session.events)) {
      const agentIdle = signals.announcedState === 'idle' || signals.announcedState === 'done';
      const quiet = signals.lastOutputAt !== undefined && signals.now - signals.lastOutputAt >= APPROVAL_QUIET_MS;
      if (agentIdle || quiet) return { state: 'waiting', since: signals.lastOutputAt ?? since };
    }
    return { state: 'working', since };
  }
  const text = lastAssistantText(session.events);
  if (text && QUESTION.test(text.slice(-300))) return { state: 'waiting', since };
  return { state: 'idle', since };
}
