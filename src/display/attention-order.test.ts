import { describe, expect, it } from 'vitest';
import { attentionLabel, compareByAttention, pickNextWaiting, waitKindOf } from './attention-order.js';
import { liveState } from '../../test/helpers/live-state.js';
import type { LiveState } from './state-file.js';

let pid = 100;
function live(fields: Partial<LiveState>): LiveState {
  return liveState({ pid: pid++, stateSince: '2026-11-23T10:00:00.000Z', startedAt: '2026-11-23T09:00:00.000Z', updatedAt: '2026-11-23T10:00:00.000Z', ...fields });
}

describe('which session waits for you', () => {
  const working = live({ state: 'working', tmuxPane: '%1' });
  const doneOld = live({ state: 'idle', attention: { event: 'done', since: '2026-11-23T08:00:00.000Z' }, tmuxPane: '%2' });
  const waitingNew = live({ state: 'waiting', stateSince: '2026-11-23T10:05:00.000Z', attention: { event: 'waiting', since: '2026-11-23T10:05:00.000Z' }, tmuxPane: '%3' });
  const waitingOld = live({ state: 'waiting', stateSince: '2026-11-23T10:01:00.000Z', tmuxPane: '%4' });
  const errored = live({ state: 'idle', attention: { event: 'error', since: '2026-11-23T10:09:00.000Z' }, tmuxPane: '%5' });
  const idle = live({ state: 'idle', tmuxPane: '%6' });

  it('knows why each waits', () => {
    expect([working, doneOld, waitingNew, waitingOld, errored, idle].map(waitKindOf)).toEqual([undefined, 'done', 'waiting', 'waiting', 'error', undefined]);
    expect(waitKindOf({ state: 'exited', attention: { event: 'done', since: '' } })).toBeUndefined();
  });

  it('next: the question that waited longest, then errors, then finished turns; never your own pane', () => {
    const all = [working, doneOld, waitingNew, waitingOld, errored, idle];
    expect(pickNextWaiting(all)?.tmuxPane).toBe('%4');
    expect(pickNextWaiting(all, { exceptPane: '%4' })?.tmuxPane).toBe('%3');
    expect(pickNextWaiting([working, doneOld, errored])?.tmuxPane).toBe('%5');
    expect(pickNextWaiting([working, doneOld, idle])?.tmuxPane).toBe('%2');
    expect(pickNextWaiting([working, idle])).toBeUndefined();
    expect(pickNextWaiting([waitingOld], { exceptPid: waitingOld.pid })).toBeUndefined();
  });

  it('sorts waiting sessions first and keeps the others in their order', () => {
    const sorted = [idle, working, doneOld, waitingNew, waitingOld, errored].sort(compareByAttention);
    expect(sorted.map((s) => s.tmuxPane)).toEqual(['%4', '%3', '%5', '%2', '%6', '%1']);
  });

  it('labels the attention mark for listings', () => {
    expect([doneOld, waitingNew, waitingOld, idle].map(attentionLabel)).toEqual(['!done', '!waiting', '', '']);
  });
});
