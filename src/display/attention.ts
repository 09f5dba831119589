/**
 * When a session needs you: a pure rule machine. Activity transitions, focus changes and input go in;
 * out come the attention marker (what `ls`, `next`, the tmux option show) and notifications (bell,
 * desktop, command). No I/O and no timers here: the clock is injected, a wanted tick is an output.
 * Which channels carry a notification, and how, is decided elsewhere.
 */
import type { ActivityState } from '../types.js';

/** What the session is doing, as the app reports it (the shared activity, plus errored: the turn ended on an API/provider error). */
export type AttentionActivity = ActivityState | 'errored';

/** Why a session wants you: a question or an approval, a finished turn, an error. */
export type AttentionEvent = 'waiting' | 'done' | 'error';

export const ATTENTION_EVENTS: readonly AttentionEvent[] = ['waiting', 'done', 'error'];

export interface AttentionConfig {
  /** At most one notification per this long (notifyMinSeconds). */
  minIntervalMs: number;
  /** While focus reports do not hold: away after this long with no input (idleSeconds; 0 = never). */
  idleMs: number;
  /** The wrapper's start: transitions from before it (a resumed session's history) are never news. */
  startedAt: number;
}

export interface AttentionClock {
  now(): number;
}

export type AttentionInput =
  /**
   * The session's activity. `turn` names the turn (or approval) it is about, so a second finished turn
   * is a new transition even though the state word stays `idle`; `at` is when it happened, if known.
   */
  | { type: 'activity'; state: AttentionActivity; turn?: string; at?: number }
  | { type: 'focus'; focused: boolean }
  /** Whether focus reports can be trusted to say where you are (focus/focus-evidence.ts decides); until then, the idle rule. */
  | { type: 'focus-reports'; hold: boolean }
  /** The user typed into the pane. */
  | { type: 'input' }
  | { type: 'tick' };

export type SuppressReason = 'focused' | 'rate-limited' | 'history';

export type AttentionOutput =
  /** Tell the user now, on every channel. */
  | { type: 'notify'; event: AttentionEvent }
  /** The marker changed: set (the session wants you since `since`) or cleared (null). */
  | { type: 'mark'; event: AttentionEvent | null; since: number }
  /** A transition that is not notified, and why (for the debug log and tests). */
  | { type: 'suppressed'; event: AttentionEvent; reason: SuppressReason }
  /** Send a tick at (or after) this time; replaces any earlier request. */
  | { type: 'timer'; at: number };

export interface AttentionMachine {
  handle(input: AttentionInput): AttentionOutput[];
  /** A copy of the state, for tests and the debug log. */
  inspect(): Readonly<AttentionState>;
}

interface AttentionState {
  /** Until focus reports hold, presence is judged from input (the idle rule), a focus-out aside. */
  focusReportsHold: boolean;
  focused: boolean;
  lastInputAt: number;
  last?: { state: AttentionActivity; turn?: string };
  lastNotifiedAt?: number;
  mark: AttentionEvent | null;
  /** A transition seen while the idle rule still counted the user as present: notify once they are not. */
  pending?: { event: AttentionEvent; dueAt: number };
}

// Which event a transition into `state` is; undefined when it is none (working, exited, or an idle
// that only follows a question or error of the same turn being closed).
function eventFor(prev: AttentionState['last'], state: AttentionActivity, turn: string | undefined): AttentionEvent | undefined {
  switch (state) {
    case 'waiting':
      return 'waiting';
    case 'errored':
      return 'error';
    case 'idle':
      return !prev || prev.state === 'working' || prev.turn !== turn ? 'done' : undefined;
    case 'working':
    case 'exited':
      return undefined;
    default:
      return state satisfies never;
  }
}

export function createAttentionMachine(config: AttentionConfig, clock: AttentionClock): AttentionMachine {
  const s: AttentionState = { focusReportsHold: false, focused: true, lastInputAt: config.startedAt, mark: null };

  function setMark(event: AttentionEvent | null, out: AttentionOutput[]): void {
    if (event === null && s.mark === null) return;
    s.mark = event;
    out.push({ type: 'mark', event, since: clock.now() });
  }

  // The user is away: focus-out where focus reports hold; else a focus-out (a tmux detach) or no input for idleMs.
  function isAway(now: number): boolean {
    if (s.focusReportsHold || !s.focused) return !s.focused;
    return config.idleMs > 0 && now - s.lastInputAt >= config.idleMs;
  }

  // Away now: mark it, and notify unless one went out less than minIntervalMs ago.
  function alert(event: AttentionEvent, now: number, out: AttentionOutput[]): void {
    setMark(event, out);
    if (s.lastNotifiedAt !== undefined && now - s.lastNotifiedAt < config.minIntervalMs) {
      out.push({ type: 'suppressed', event, reason: 'rate-limited' });
      return;
    }
    s.lastNotifiedAt = now;
    out.push({ type: 'notify', event });
  }

  function onActivity(state: AttentionActivity, turn: string | undefined, at: number | undefined, out: AttentionOutput[]): void {
    const prev = s.last;
    if (prev && prev.state === state && prev.turn === turn) return;
    s.last = { state, turn };
    s.pending = undefined;
    const event = eventFor(prev, state, turn);
    if (!event) {
      setMark(null, out); // back at work, or gone: nothing waits for you
      return;
    }
    // The first state seen is where the session stood when we started, unless it provably happened since.
    const history = at !== undefined ? at < config.startedAt : prev === undefined;
    if (history) {
      out.push({ type: 'suppressed', event, reason: 'history' });
      return;
    }
    const now = clock.now();
    if (isAway(now)) {
      alert(event, now, out);
      return;
    }
    setMark(null, out); // an older marker is stale: you are looking at the newer state
    out.push({ type: 'suppressed', event, reason: 'focused' });
    // Without focus reports you may still walk away: notify once idleMs pass with no input.
    if (!s.focusReportsHold && config.idleMs > 0) s.pending = { event, dueAt: s.lastInputAt + config.idleMs };
  }

  function handle(input: AttentionInput): AttentionOutput[] {
    const out: AttentionOutput[] = [];
    switch (input.type) {
      case 'activity':
        onActivity(input.state, input.turn, input.at, out);
        break;
      case 'focus':
        s.pending = undefined;
        s.focused = input.focused;
        // A focus-in that proves nothing (a tmux attach) still says you just arrived, as a key would.
        if (input.focused && !s.focusReportsHold) s.lastInputAt = clock.now();
        if (input.focused) setMark(null, out);
        break;
      case 'focus-reports':
        s.focusReportsHold = input.hold;
        break;
      case 'input':
        // With focus reports, focus says where you are (tmux send-keys can type into a pane you do not see).
        if (s.focusReportsHold) break;
        s.lastInputAt = clock.now();
        s.pending = undefined;
        setMark(null, out);
        break;
      case 'tick': {
        const now = clock.now();
        if (s.pending && now >= s.pending.dueAt) {
          const { event } = s.pending;
          s.pending = undefined;
          if (isAway(now)) alert(event, now, out);
        }
        break;
      }
      default:
        return input satisfies never;
    }
    if (s.pending) out.push({ type: 'timer', at: s.pending.dueAt });
    return out;
  }

  return { handle, inspect: () => ({ ...s }) };
}
