import { describe, expect, it } from 'vitest';
import { APPROVAL_QUIET_MS, deriveActivity, isMidTurn } from './activity.js';
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
    expect(deriveActivity(s(ev('user'), ev('turn-end')) as never, { now: 9, announcedState: 'working' }).state).toBe('working');
    expect(deriveActivity(s(ev('user')) as never, { now: 9, exited: true })).toEqual({ state: 'exited', since: 9 });
    expect(deriveActivity(undefined, { now: 9 })).toEqual({ state: 'idle', since: 9 });
  });

  it('is waiting on a tool call that has no result when the agent says idle or its output went quiet', () => {
    const call = ev('tool-call', { name: 'Bash', args: 'rm -rf build', paths: [] });
    const pending = s(ev('user'), ev('assistant'), call) as never;
    expect(deriveActivity(pending, { now: 9, announcedState: 'done' }).state).toBe('waiting');
    expect(deriveActivity(pending, { now: 9, announcedState: 'idle' }).state).toBe('waiting');
    expect(deriveActivity(pending, { now: 100_000, lastOutputAt: 100_000 - APPROVAL_QUIET_MS }).state).toBe('waiting');
    // Still animating, or no signal at all: the tool is running.
    expect(deriveActivity(pending, { now: 100_000, lastOutputAt: 100_000 - 200 }).state).toBe('working');
    expect(deriveActivity(pending, { now: 9 }).state).toBe('working');
    // A result came back: the agent is at work on it, however quiet.
    const answered = s(ev('user'), call, ev('tool-result', { ok: true })) as never;
    expect(deriveActivity(answered, { now: 100_000, lastOutputAt: 0 }).state).toBe('working');
  });

  it('waits while a call that asked for approval has no result, works once it has one (#16)', () => {
    const call = (id: string, approval?: boolean) => ev('tool-call', { name: 'exec_command', args: '', paths: [], callId: id, ts: 7, ...(approval ? { approval } : {}) });
    const result = (id: string) => ev('tool-result', { ok: true, callId: id });
    const now = 100_000;
    expect(deriveActivity(s(ev('user'), call('c1', true)) as never, { now })).toEqual({ state: 'waiting', since: 7 });
    expect(deriveActivity(s(ev('user'), call('c1', true), result('c1')) as never, { now }).state).toBe('working');
    // Parallel calls: the approval one still open while another finished.
    expect(deriveActivity(s(ev('user'), call('c1', true), call('c2'), result('c2')) as never, { now }).state).toBe('waiting');
    // The agent reports busy: the approval wait still wins, unless the screen animates (an approved prefix runs).
    expect(deriveActivity(s(ev('user'), call('c1', true)) as never, { now, announcedState: 'working', lastOutputAt: now - 10_000 }).state).toBe('waiting');
    expect(deriveActivity(s(ev('user'), call('c1', true)) as never, { now, announcedState: 'working', lastOutputAt: now - 100 }).state).toBe('working');
    // A later turn closes the question.
    expect(deriveActivity(s(ev('user'), call('c1', true), ev('aborted')) as never, { now }).state).toBe('idle');
  });

  it('a transcript that ends on exit is exited, since the exit; a resumed one reads as usual (#16)', () => {
    const now = 100_000;
    expect(deriveActivity(s(ev('user'), ev('assistant'), ev('turn-end'), ev('user', { command: true, text: '/exit' }), ev('exit', { ts: 42 })) as never, { now })).toEqual({ state: 'exited', since: 42 });
    expect(deriveActivity(s(ev('exit', { ts: 42 }), ev('title')) as never, { now }).state).toBe('exited');
    expect(deriveActivity(s(ev('exit', { ts: 42 }), ev('user')) as never, { now }).state).toBe('working');
  });
});
