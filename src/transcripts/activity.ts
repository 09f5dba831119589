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
  now: number;
}

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

export function deriveActivity(session: Session | SessionSnapshot | undefined, signals: ActivitySignals): { state: ActivityState; since: number } {
  const since = session?.updatedAt ?? signals.now;
  if (signals.exited) return { state: 'exited', since: signals.now };
  if (signals.claudeStatus === 'busy' || signals.codexState === 'working') return { state: 'working', since };
  if (!session) return { state: 'idle', since };
  if (isMidTurn(session)) return { state: 'working', since };
  const text = lastAssistantText(session.events);
  if (text && QUESTION.test(text.slice(-300))) return { state: 'waiting', since };
  return { state: 'idle', since };
}
