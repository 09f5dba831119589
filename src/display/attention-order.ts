/**
 * Which live sessions wait for you, and in what order, from their state files: for `recapwrap next`,
 * `ls` and `board`. A session waits when it asked you something (state `waiting`) or when it wants you
 * since a transition you did not see (its attention mark). Questions and approvals come first, then
 * errors, then finished turns; within each, the one that has waited longest. Pure.
 */
import type { LiveState } from './state-file.js';

export type WaitKind = 'waiting' | 'error' | 'done';

const RANK: Record<WaitKind, number> = { waiting: 0, error: 1, done: 2 };

/** Why the session waits for you, or undefined when it does not. */
export function waitKindOf(state: Pick<LiveState, 'state' | 'attention'>): WaitKind | undefined {
  if (state.state === 'exited') return undefined;
  if (state.state === 'waiting' || state.attention?.event === 'waiting') return 'waiting';
  return state.attention?.event;
}

/** Since when it waits (epoch ms): the attention mark's time, else when the state began. */
export function waitingSince(state: Pick<LiveState, 'attention' | 'stateSince'>): number {
  const t = Date.parse(state.attention?.since ?? state.stateSince);
  return Number.isFinite(t) ? t : Number.POSITIVE_INFINITY;
}

/** For sort(): sessions that wait first (questions, errors, finished turns; longest first), then the rest in their order. */
export function compareByAttention(a: LiveState, b: LiveState): number {
  const ka = waitKindOf(a);
  const kb = waitKindOf(b);
  if (!ka || !kb) return ka ? -1 : kb ? 1 : 0;
  return RANK[ka] - RANK[kb] || waitingSince(a) - waitingSince(b) || a.pid - b.pid;
}

/** The session that has waited longest for you (questions first), skipping the pane you are in. */
export function pickNextWaiting(states: readonly LiveState[], options: { exceptPane?: string; exceptPid?: number } = {}): LiveState | undefined {
  const waiting = states.filter((s) => waitKindOf(s) && !(options.exceptPane && s.tmuxPane === options.exceptPane) && s.pid !== options.exceptPid);
  return [...waiting].sort(compareByAttention)[0];
}

/** A short marker for listings: `!waiting`, `!error`, `!done`, or ''. */
export function attentionLabel(state: Pick<LiveState, 'state' | 'attention'>): string {
  return state.attention && state.state !== 'exited' ? `!${state.attention.event}` : '';
}
