/**
 * What the agent is doing, from the transcript plus cheap live signals: working (a turn is open),
 * waiting (the turn ended on a question or a pending approval), idle (the turn ended), exited.
 * Pure: the caller passes the signals and the time.
 */
import type { ActivityState, Session, SessionSnapshot, TranscriptEvent } from './types.js';

export interface ActivitySignals {
  exited?: boolean;
  /** Claude's ~/.claude/sessions/<pid>.json status. */
  claudeStatus?: 'busy' | 'idle';
  /** Codex's OSC 7501 state. */
  codexState?: 'working' | 'idle' | 'done';
  /** When the agent last printed anything to its terminal (epoch ms); agents animate while they work. */
  lastOutputAt?: number;
  now: number;
}

/**
 * A tool call without a result and a screen this quiet means the agent is showing an approval prompt:
 * agents redraw a spinner several times a second while a tool really runs.
 */
export const APPROVAL_QUIET_MS = 15_000;

// Events that close a turn: after them the agent waits for the user.
const TURN_CLOSERS = new Set<TranscriptEvent['kind']>(['turn-end', 'aborted', 'error']);
// Events that say the agent is (still) at work when they come last.
const TURN_OPENERS = new Set<TranscriptEvent['kind']>(['user', 'tool-call', 'tool-result', 'thinking']);
const QUESTION = /\?\s*$|\b(shall|should|would you like|do you want|want me to|let me know|which (one|option))\b/i;

/** The last event that says something about the turn (titles, model changes and summaries do not). */
function lastTurnEvent(events: readonly TranscriptEvent[]): TranscriptEvent | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as TranscriptEvent;
    if (TURN_CLOSERS.has(e.kind) || TURN_OPENERS.has(e.kind) || e.kind === 'assistant') return e;
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

// Live signals first (exited, agent-reported busy), then the transcript: an open turn is working unless a
// tool call waits for approval (the agent says idle, or its output went quiet); a closed turn that ended
// on a question is waiting, otherwise idle.
export function deriveActivity(session: Session | SessionSnapshot | undefined, signals: ActivitySignals): { state: ActivityState; since: number } {
  const since = session?.updatedAt ?? signals.now;
  if (signals.exited) return { state: 'exited', since: signals.now };
  if (signals.claudeStatus === 'busy' || signals.codexState === 'working') return { state: 'working', since };
  if (!session) return { state: 'idle', since };
  if (isMidTurn(session)) {
    if (toolCallPending(session.events)) {
      const agentIdle = signals.claudeStatus === 'idle' || signals.codexState === 'idle' || signals.codexState === 'done';
      const quiet = signals.lastOutputAt !== undefined && signals.now - signals.lastOutputAt >= APPROVAL_QUIET_MS;
      if (agentIdle || quiet) return { state: 'waiting', since: signals.lastOutputAt ?? since };
    }
    return { state: 'working', since };
  }
  const text = lastAssistantText(session.events);
  if (text && QUESTION.test(text.slice(-300))) return { state: 'waiting', since };
  return { state: 'idle', since };
}
