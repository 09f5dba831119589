import { describe, expect, it } from 'vitest';
import { deriveActivity, isMidTurn } from './activity.js';
import type { TranscriptEvent } from './types.js';

const ev = (kind: TranscriptEvent['kind'], extra: object = {}): TranscriptEvent => ({ kind, sourceId: 'x', text: 't', ...extra }) as TranscriptEvent;
const s = (...events: TranscriptEvent[]) => ({ events, updatedAt: 5 });

describe('activity', () => {
  it('is working while a turn is open', () => {
    expect(isMidTurn(s(ev('user')))).toBe(true);
    expect(isMidTurn(s(ev('user'), ev('assistant'), ev('tool-call', { name: 'bash', args: '', paths: [] })))).toBe(true);
    expect(isMidTurn(s(ev('user'), ev('tool-call', { name: 'b', args: '', paths: [] }), ev('tool-result', { ok: true })))).toBe(true);
    expect(isMidTurn(s(ev('user'), ev('assistant'), ev('turn-end')))).toBe(false);
    expect(isMidTurn(s(ev('user'), ev('aborted')))).toBe(false);
    expect(isMidTurn(s(ev('user'), ev('error')))).toBe(false);
    expect(isMidTurn(s(ev('user'), ev('turn-end'), ev('title')))).toBe(false);
    expect(isMidTurn(s())).toBe(false);
  });

  it('is waiting when the last turn ended on a question', () => {
    expect(deriveActivity(s(ev('user'), ev('assistant', { text: 'Done. Shall I run the tests?' }), ev('turn-end')) as never, { now: 9 }).state).toBe('waiting');
    expect(deriveActivity(s(ev('user'), ev('assistant', { text: 'All tests pass.' }), ev('turn-end')) as never, { now: 9 }).state).toBe('idle');
  });

  it('takes live signals first', () => {
    expect(deriveActivity(s(ev('user'), ev('turn-end')) as never, { now: 9, claudeStatus: 'busy' }).state).toBe('working');
    expect(deriveActivity(s(ev('user')) as never, { now: 9, exited: true })).toEqual({ state: 'exited', since: 9 });
    expect(deriveActivity(undefined, { now: 9 })).toEqual({ state: 'idle', since: 9 });
  });
});
