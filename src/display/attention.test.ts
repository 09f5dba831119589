import { describe, expect, it } from 'vitest';
import { createAttentionMachine, type AttentionActivity, type AttentionEvent, type AttentionInput, type AttentionOutput } from './attention.js';

const START = 1_000_000;
const MIN_MS = 30_000;
const IDLE_MS = 120_000;

function setup(config: { minIntervalMs?: number; idleMs?: number } = {}) {
  let now = START;
  const m = createAttentionMachine({ minIntervalMs: config.minIntervalMs ?? MIN_MS, idleMs: config.idleMs ?? IDLE_MS, startedAt: START }, { now: () => now });
  const send = (input: AttentionInput) => m.handle(input);
  const advance = (ms: number) => {
    now += ms;
    return send({ type: 'tick' });
  };
  const activity = (state: AttentionActivity, turn?: string) => send({ type: 'activity', state, turn, at: now });
  return { m, send, advance, activity, now: () => now };
}

const notified = (out: AttentionOutput[]) => out.filter((o) => o.type === 'notify').map((o) => (o as { event: AttentionEvent }).event);
const marks = (out: AttentionOutput[]) => out.filter((o) => o.type === 'mark').map((o) => (o as { event: AttentionEvent | null }).event);
const suppressed = (out: AttentionOutput[]) => out.filter((o) => o.type === 'suppressed').map((o) => (o as { reason: string }).reason);

// The event each transition is, written out by hand (the rule, not the code): from → to, on the same
// turn or a new one. `-` is no event.
type From = AttentionActivity;
const SAME = 't1';
const NEW = 't2';
const TRANSITIONS: Array<[From, AttentionActivity, string, AttentionEvent | '-']> = [
  ['working', 'working', NEW, '-'],
  ['working', 'waiting', SAME, 'waiting'],
  ['working', 'idle', SAME, 'done'],
  ['working', 'errored', SAME, 'error'],
  ['working', 'exited', SAME, '-'],
  ['waiting', 'working', SAME, '-'],
  ['waiting', 'waiting', NEW, 'waiting'],
  ['waiting', 'idle', SAME, '-'],
  ['waiting', 'idle', NEW, 'done'],
  ['waiting', 'errored', SAME, 'error'],
  ['waiting', 'exited', SAME, '-'],
  ['idle', 'working', NEW, '-'],
  ['idle', 'waiting', SAME, 'waiting'],
  ['idle', 'idle', NEW, 'done'],
  ['idle', 'errored', NEW, 'error'],
  ['idle', 'exited', SAME, '-'],
  ['errored', 'working', NEW, '-'],
  ['errored', 'waiting', NEW, 'waiting'],
  ['errored', 'idle', SAME, '-'],
  ['errored', 'idle', NEW, 'done'],
  ['errored', 'errored', NEW, 'error'],
  ['errored', 'exited', SAME, '-'],
];

// Where the user is when the transition happens, and how they got there.
type Presence = 'focused' | 'focus-out' | 'typing, no focus reports' | 'idle, no focus reports' | 'idle rule off, no focus reports';
const PRESENCES: Array<{ name: Presence; away: boolean; focusReports: boolean; idleMs?: number; enter(t: ReturnType<typeof setup>): void }> = [
  { name: 'focused', away: false, focusReports: true, enter: (t) => (t.send({ type: 'focus-reports', hold: true }), t.send({ type: 'focus', focused: true })) },
  { name: 'focus-out', away: true, focusReports: true, enter: (t) => (t.send({ type: 'focus-reports', hold: true }), t.send({ type: 'focus', focused: false })) },
  { name: 'typing, no focus reports', away: false, focusReports: false, enter: (t) => t.send({ type: 'input' }) },
  { name: 'idle, no focus reports', away: true, focusReports: false, enter: (t) => t.advance(IDLE_MS) },
  { name: 'idle rule off, no focus reports', away: false, focusReports: false, idleMs: 0, enter: (t) => t.advance(IDLE_MS * 10) },
];

describe('every transition × where you are × the rate limit', () => {
  for (const [from, to, turn, expected] of TRANSITIONS) {
    for (const presence of PRESENCES) {
      for (const recentlyNotified of [false, true]) {
        const name = `${from} → ${to} (${turn === SAME ? 'same turn' : 'new turn'}), ${presence.name}, ${recentlyNotified ? 'notified 5 s ago' : 'no recent notification'}`;
        it(name, () => {
          const t = setup({ idleMs: presence.idleMs });
          t.advance(1000);
          t.activity('working', 't0'); // a baseline after the start
          if (recentlyNotified && presence.focusReports) {
            // One notification, from away (focus-out), 5 s before the transition under test.
            t.send({ type: 'focus', focused: false });
            expect(notified(t.activity('idle', 't0'))).toEqual(['done']);
            t.send({ type: 'focus', focused: true });
          } else if (recentlyNotified && presence.idleMs !== 0) {
            // No focus reports: one notification after idleSeconds without a key; then you type again.
            t.advance(IDLE_MS);
            expect(notified(t.activity('idle', 't0'))).toEqual(['done']);
            t.send({ type: 'input' });
          }
          t.activity('working', 't0b');
          // Put the session in `from` while you look at it (no notification), then move to where you are.
          t.activity(from, SAME);
          t.advance(5000);
          if (!presence.focusReports) t.send({ type: 'input' }); // you were there: nothing pending for `from`
          presence.enter(t);
          const out = t.activity(to, turn);
          if (expected === '-' || !presence.away) {
            expect(notified(out)).toEqual([]);
            expect(marks(out).filter((e) => e !== null)).toEqual([]);
            if (expected !== '-') expect(suppressed(out)).toEqual(['focused']);
            return;
          }
          expect(marks(out)).toEqual([expected]);
          // The rate limit: the earlier notification was 5 s + the time to get away (for `idle`: 120 s) ago.
          const withinLimit = recentlyNotified && presence.name === 'focus-out';
          expect(notified(out)).toEqual(withinLimit ? [] : [expected]);
          if (withinLimit) expect(suppressed(out)).toEqual(['rate-limited']);
        });
      }
    }
  }
});

describe('attention rules', () => {
  it('notifies once per transition: the same state and turn again is nothing', () => {
    const t = setup();
    t.activity('working', 'a');
    t.send({ type: 'focus', focused: false });
    expect(notified(t.activity('waiting', 'a'))).toEqual(['waiting']);
    t.advance(60_000);
    expect(t.activity('waiting', 'a')).toEqual([]);
  });

  it('never notifies for the wrapper’s own start: the first state seen is history', () => {
    const t = setup();
    t.send({ type: 'focus', focused: false });
    expect(t.send({ type: 'activity', state: 'waiting', turn: 'old' })).toEqual([{ type: 'suppressed', event: 'waiting', reason: 'history' }]);
    // A resumed session's turn that ended before the start, even when it is not the first state seen.
    expect(suppressed(t.send({ type: 'activity', state: 'idle', turn: 'older', at: START - 1 }))).toEqual(['history']);
  });

  it('the first state seen counts when it provably happened after the start (a whole turn before the tracker found the file)', () => {
    const t = setup();
    t.send({ type: 'focus', focused: false });
    expect(notified(t.send({ type: 'activity', state: 'idle', turn: 'x', at: START + 10 }))).toEqual(['done']);
  });

  it('a focus-out alone notifies nothing, even when the session already waits', () => {
    const t = setup();
    t.activity('working', 'a');
    t.activity('waiting', 'a');
    expect(t.send({ type: 'focus', focused: false })).toEqual([]);
  });

  it('focus-in clears the marker; a marker stays while you are away', () => {
    const t = setup();
    t.activity('working', 'a');
    t.send({ type: 'focus', focused: false });
    t.activity('idle', 'a');
    expect(t.m.inspect().mark).toBe('done');
    t.advance(10_000);
    expect(t.m.inspect().mark).toBe('done');
    expect(marks(t.send({ type: 'focus', focused: true }))).toEqual([null]);
    expect(t.send({ type: 'focus', focused: true })).toEqual([]);
  });

  it('the marker follows the latest transition while away, and goes when the agent works again', () => {
    const t = setup({ minIntervalMs: 0 });
    t.activity('working', 'a');
    t.send({ type: 'focus', focused: false });
    expect(marks(t.activity('waiting', 'a'))).toEqual(['waiting']);
    expect(marks(t.activity('errored', 'b'))).toEqual(['error']);
    expect(marks(t.activity('working', 'c'))).toEqual([null]);
    t.activity('idle', 'c');
    expect(marks(t.activity('exited', 'c'))).toEqual([null]);
  });

  it('a rate-limited transition still moves the marker (ls and next stay right)', () => {
    const t = setup();
    t.activity('working', 'a');
    t.send({ type: 'focus', focused: false });
    expect(notified(t.activity('idle', 'a'))).toEqual(['done']);
    t.advance(1000);
    const out = t.activity('waiting', 'b');
    expect(notified(out)).toEqual([]);
    expect(marks(out)).toEqual(['waiting']);
    t.advance(MIN_MS);
    expect(notified(t.activity('errored', 'c'))).toEqual(['error']);
  });

  it('with focus reports that hold, typing into an unfocused pane (tmux send-keys) changes nothing', () => {
    const t = setup();
    t.send({ type: 'focus-reports', hold: true });
    t.activity('working', 'a');
    t.send({ type: 'focus', focused: false });
    t.activity('waiting', 'a');
    expect(t.send({ type: 'input' })).toEqual([]);
    expect(t.m.inspect().mark).toBe('waiting');
  });

  describe('without focus reports (the idle rule)', () => {
    it('a turn that ends soon after your last key notifies once idleSeconds have passed with no input', () => {
      const t = setup();
      t.send({ type: 'input' });
      t.activity('working', 'a');
      t.advance(40_000);
      const out = t.activity('idle', 'a');
      expect(notified(out)).toEqual([]);
      expect(out).toContainEqual({ type: 'timer', at: START + IDLE_MS });
      expect(t.advance(IDLE_MS - 40_001)).toEqual([{ type: 'timer', at: START + IDLE_MS }]);
      const late = t.advance(1);
      expect(notified(late)).toEqual(['done']);
      expect(marks(late)).toEqual(['done']);
      expect(t.advance(IDLE_MS)).toEqual([]);
    });

    it('a key before idleSeconds cancels the pending notification', () => {
      const t = setup();
      t.activity('working', 'a');
      t.advance(10_000);
      t.activity('waiting', 'a');
      t.advance(20_000);
      expect(t.send({ type: 'input' })).toEqual([]);
      expect(notified(t.advance(IDLE_MS))).toEqual([]);
    });

    it('the agent working again cancels the pending notification', () => {
      const t = setup();
      t.activity('working', 'a');
      t.activity('idle', 'a');
      t.activity('working', 'b');
      expect(notified(t.advance(IDLE_MS))).toEqual([]);
    });

    it('focus reports that hold turn the idle rule off', () => {
      const t = setup();
      t.activity('working', 'a');
      t.activity('idle', 'a');
      t.send({ type: 'focus-reports', hold: true });
      t.send({ type: 'focus', focused: true });
      expect(notified(t.advance(IDLE_MS * 2))).toEqual([]);
      t.activity('working', 'b');
      t.advance(IDLE_MS * 2);
      expect(notified(t.activity('idle', 'b'))).toEqual([]);
    });

    // #43: a tmux attach sends a focus-in even with focus-events off, where switching panes is never seen.
    it('a focus-in that proves nothing (a tmux attach) counts as arriving, and the idle rule goes on', () => {
      const t = setup();
      t.advance(IDLE_MS * 2);
      t.send({ type: 'focus', focused: true });
      t.activity('working', 'a');
      expect(notified(t.activity('idle', 'a'))).toEqual([]);
      expect(notified(t.advance(IDLE_MS))).toEqual(['done']);
      t.send({ type: 'input' });
      t.activity('working', 'b');
      t.advance(IDLE_MS);
      expect(notified(t.activity('idle', 'b'))).toEqual(['done']);
    });

    it('a focus-out (a tmux detach) is away at once', () => {
      const t = setup();
      t.send({ type: 'input' });
      t.activity('working', 'a');
      t.send({ type: 'focus', focused: false });
      expect(notified(t.activity('idle', 'a'))).toEqual(['done']);
    });

    it('input clears the marker (you are back)', () => {
      const t = setup();
      t.activity('working', 'a');
      t.advance(IDLE_MS);
      t.activity('waiting', 'a');
      expect(t.m.inspect().mark).toBe('waiting');
      expect(marks(t.send({ type: 'input' }))).toEqual([null]);
    });
  });
});
