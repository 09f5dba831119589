import { describe, expect, it } from 'vitest';
import { createTriggerMachine, LATE_SESSION_GRACE_MS, type TriggerAction, type TriggerEvent } from './trigger.js';

const CONFIG = { awayMs: 30_000, idleMs: 120_000, draftDebounceMs: 1500 };

function setup(opts: { resume?: boolean } = {}) {
  let now = 1_000_000;
  const m = createTriggerMachine(CONFIG, { now: () => now }, opts);
  const send = (e: TriggerEvent) => m.handle(e).filter((a) => a.type !== 'timer');
  const advance = (ms: number) => {
    now += ms;
    return send({ type: 'tick' });
  };
  return { m, send, advance, raw: (e: TriggerEvent) => m.handle(e) };
}

const types = (actions: TriggerAction[]) => actions.map((a) => a.type);

describe('focus return', () => {
  it('drafts while away (debounced) and shows the draft at once on return after the threshold', () => {
    const { send, advance } = setup();
    send({ type: 'focus', focused: true });
    send({ type: 'session', stamp: 's1', midTurn: true });
    expect(send({ type: 'focus', focused: false })).toEqual([]);
    expect(send({ type: 'session', stamp: 's2', midTurn: false })).toEqual([]);
    expect(advance(1000)).toEqual([]); // still within the debounce
    expect(advance(600)).toEqual([{ type: 'draft', stamp: 's2' }]);
    expect(send({ type: 'draft-ready', stamp: 's2', text: 'recap two' })).toEqual([]);
    advance(40_000);
    expect(send({ type: 'focus', focused: true })).toEqual([{ type: 'show', text: 'recap two', stamp: 's2', reason: 'focus-return' }]);
  });

  it('shows nothing when the time away is below the threshold', () => {
    const { send, advance } = setup();
    send({ type: 'session', stamp: 's1', midTurn: false });
    send({ type: 'focus', focused: false });
    advance(2000);
    send({ type: 'draft-ready', stamp: 's1', text: 'r' });
    advance(10_000);
    expect(send({ type: 'focus', focused: true })).toEqual([]);
  });

  it('shows nothing when the session did not change since the recap last shown', () => {
    const { send, advance } = setup();
    send({ type: 'session', stamp: 's1', midTurn: false });
    send({ type: 'focus', focused: false });
    advance(2000);
    send({ type: 'draft-ready', stamp: 's1', text: 'r1' });
    advance(40_000);
    expect(types(send({ type: 'focus', focused: true }))).toEqual(['show']);
    send({ type: 'input' });
    send({ type: 'focus', focused: false });
    advance(60_000);
    expect(send({ type: 'focus', focused: true })).toEqual([]);
  });

  it('drafts on return when nothing was drafted yet, and shows when the draft is ready', () => {
    const { send, advance } = setup();
    send({ type: 'session', stamp: 's1', midTurn: false });
    send({ type: 'focus', focused: false });
    advance(40_000);
    send({ type: 'draft-failed', stamp: 's1' });
    expect(send({ type: 'focus', focused: true })).toEqual([{ type: 'draft', stamp: 's1' }]);
    expect(send({ type: 'draft-ready', stamp: 's1', text: 'late recap' })).toEqual([{ type: 'show', text: 'late recap', stamp: 's1', reason: 'focus-return' }]);
  });

  it('mid-turn on return: a working line now, the full recap when the turn ends', () => {
    const { send, advance } = setup();
    send({ type: 'session', stamp: 's1', midTurn: false });
    send({ type: 'focus', focused: false });
    send({ type: 'session', stamp: 's2', midTurn: true });
    advance(40_000);
    expect(send({ type: 'focus', focused: true })).toEqual([{ type: 'show-working' }]);
    expect(send({ type: 'session', stamp: 's3', midTurn: false })).toEqual([{ type: 'clear' }, { type: 'draft', stamp: 's3' }]);
    expect(send({ type: 'draft-ready', stamp: 's3', text: 'done now' })).toEqual([{ type: 'show', text: 'done now', stamp: 's3', reason: 'focus-return' }]);
  });

  it('mid-turn on return, but the user typed: no full recap at turn end', () => {
    const { send, advance } = setup();
    send({ type: 'session', stamp: 's1', midTurn: true });
    send({ type: 'focus', focused: false });
    advance(40_000);
    send({ type: 'session', stamp: 's1b', midTurn: true });
    expect(send({ type: 'focus', focused: true })).toEqual([{ type: 'show-working' }]);
    expect(send({ type: 'input' })).toEqual([{ type: 'clear' }]);
    expect(send({ type: 'session', stamp: 's2', midTurn: false })).toEqual([]);
  });

  it('never shows the same text twice in a row', () => {
    const { send, advance } = setup();
    send({ type: 'session', stamp: 's1', midTurn: false });
    send({ type: 'focus', focused: false });
    advance(2000);
    send({ type: 'draft-ready', stamp: 's1', text: 'same words' });
    advance(40_000);
    expect(types(send({ type: 'focus', focused: true }))).toEqual(['show']);
    send({ type: 'focus', focused: false });
    send({ type: 'session', stamp: 's2', midTurn: false });
    advance(2000);
    send({ type: 'draft-ready', stamp: 's2', text: 'same words' });
    advance(40_000);
    expect(send({ type: 'focus', focused: true })).toEqual([]);
  });
});

describe('gates', () => {
  it('typing while a draft is in flight aborts it, and the state can be drafted again', () => {
    const { send, advance, m } = setup();
    send({ type: 'session', stamp: 's1', midTurn: false });
    send({ type: 'focus', focused: false });
    expect(advance(2000)).toEqual([{ type: 'draft', stamp: 's1' }]);
    expect(send({ type: 'input' })).toEqual([{ type: 'abort-draft' }]);
    expect(m.inspect().drafting).toBeUndefined();
    expect(send({ type: 'manual' })).toEqual([{ type: 'draft', stamp: 's1' }]);
  });

  it('a new turn clears a shown recap and aborts a stale draft', () => {
    const { send } = setup();
    send({ type: 'session', stamp: 's1', midTurn: false });
    send({ type: 'manual' });
    send({ type: 'draft-ready', stamp: 's1', text: 'r' });
    expect(send({ type: 'session', stamp: 's2', midTurn: true })).toEqual([{ type: 'clear' }]);
    const fresh = setup();
    fresh.send({ type: 'session', stamp: 'a', midTurn: false });
    fresh.send({ type: 'focus', focused: false });
    fresh.advance(2000);
    expect(fresh.send({ type: 'session', stamp: 'b', midTurn: true })).toEqual([{ type: 'abort-draft' }]);
  });

  it('drafts each state at most once while away (LLM generators)', () => {
    const { send, advance } = setup();
    send({ type: 'session', stamp: 's1', midTurn: false });
    send({ type: 'focus', focused: false });
    expect(advance(2000)).toEqual([{ type: 'draft', stamp: 's1' }]);
    send({ type: 'draft-ready', stamp: 's1', text: 'r' });
    send({ type: 'session', stamp: 's1', midTurn: false });
    expect(advance(5000)).toEqual([]);
  });

  it('exit aborts the draft and clears the recap', () => {
    const { send } = setup();
    send({ type: 'session', stamp: 's1', midTurn: false });
    send({ type: 'manual' });
    expect(send({ type: 'exit' })).toEqual([{ type: 'abort-draft' }]);
  });

  it('asks for a timer when something is due', () => {
    const { raw } = setup();
    raw({ type: 'session', stamp: 's1', midTurn: false });
    raw({ type: 'focus', focused: false });
    expect(raw({ type: 'session', stamp: 's2', midTurn: false })).toEqual([{ type: 'timer', at: 1_000_000 + 1500 }]);
  });
});

describe('idle fallback', () => {
  it('shows after a turn ends and idleSeconds pass without input, only without focus reports', () => {
    const { send, advance } = setup();
    send({ type: 'session', stamp: 's1', midTurn: true });
    send({ type: 'session', stamp: 's2', midTurn: false });
    expect(advance(119_000)).toEqual([]);
    expect(advance(1_000)).toEqual([{ type: 'draft', stamp: 's2' }]);
    expect(send({ type: 'draft-ready', stamp: 's2', text: 'idle recap' })).toEqual([{ type: 'show', text: 'idle recap', stamp: 's2', reason: 'idle' }]);
  });

  it('is off once the terminal has sent a focus report', () => {
    const { send, advance } = setup();
    send({ type: 'focus', focused: true });
    send({ type: 'session', stamp: 's1', midTurn: true });
    send({ type: 'session', stamp: 's2', midTurn: false });
    expect(advance(200_000)).toEqual([]);
  });

  it('input after the turn ends cancels it', () => {
    const { send, advance } = setup();
    send({ type: 'session', stamp: 's1', midTurn: true });
    send({ type: 'session', stamp: 's2', midTurn: false });
    advance(60_000);
    send({ type: 'input' });
    expect(advance(100_000)).toEqual([]);
  });
});

describe('resume and manual', () => {
  it('shows the prior session once the first screen is drawn', () => {
    const { send } = setup({ resume: true });
    send({ type: 'session', stamp: 'old', midTurn: false });
    expect(send({ type: 'first-screen' })).toEqual([{ type: 'draft', stamp: 'old' }]);
    expect(send({ type: 'draft-ready', stamp: 'old', text: 'where you were' })).toEqual([{ type: 'show', text: 'where you were', stamp: 'old', reason: 'resume' }]);
  });

  it('waits for the transcript when the screen comes first', () => {
    const { send } = setup({ resume: true });
    expect(send({ type: 'first-screen' })).toEqual([]);
    expect(send({ type: 'session', stamp: 'old', midTurn: false })).toEqual([{ type: 'draft', stamp: 'old' }]);
  });

  it('manual shows the current draft even if it was shown before, and a working line mid-turn', () => {
    const { send } = setup();
    send({ type: 'session', stamp: 's1', midTurn: false });
    expect(send({ type: 'manual' })).toEqual([{ type: 'draft', stamp: 's1' }]);
    expect(types(send({ type: 'draft-ready', stamp: 's1', text: 'r' }))).toEqual(['show']);
    send({ type: 'input' });
    expect(send({ type: 'manual' })).toEqual([{ type: 'show', text: 'r', stamp: 's1', reason: 'manual' }]);
    send({ type: 'session', stamp: 's2', midTurn: true });
    expect(send({ type: 'manual' })).toEqual([{ type: 'show-working' }]);
    const none = setup();
    expect(none.send({ type: 'manual' })).toEqual([]);
  });
});

// #18/#21/#29: an unpinned session's file is found by discovery, seconds late: after the user came back.
describe('a session found after the return', () => {
  it('is recapped for that return, as if it had been known then', () => {
    const { send, advance } = setup();
    send({ type: 'focus', focused: true });
    send({ type: 'focus', focused: false });
    advance(40_000);
    expect(send({ type: 'focus', focused: true })).toEqual([]); // nothing known yet
    advance(2500);
    expect(send({ type: 'session', stamp: 's1', midTurn: false })).toEqual([{ type: 'draft', stamp: 's1' }]);
    expect(send({ type: 'draft-ready', stamp: 's1', text: 'recap one' })).toEqual([{ type: 'show', text: 'recap one', stamp: 's1', reason: 'focus-return' }]);
  });

  it('mid-turn: the working line now, the recap when the turn ends', () => {
    const { send, advance } = setup();
    send({ type: 'focus', focused: true });
    send({ type: 'focus', focused: false });
    advance(40_000);
    send({ type: 'focus', focused: true });
    expect(types(send({ type: 'session', stamp: 's1', midTurn: true }))).toEqual(['show-working']);
    expect(types(send({ type: 'session', stamp: 's2', midTurn: false }))).toEqual(['clear', 'draft']);
  });

  it('not after a key, not after the grace, not after a short absence', () => {
    for (const between of ['key', 'late', 'short'] as const) {
      const { send, advance } = setup();
      send({ type: 'focus', focused: true });
      send({ type: 'focus', focused: false });
      advance(between === 'short' ? 5000 : 40_000);
      send({ type: 'focus', focused: true });
      if (between === 'key') send({ type: 'input' });
      if (between === 'late') advance(LATE_SESSION_GRACE_MS + 1);
      expect(send({ type: 'session', stamp: 's1', midTurn: false }), between).toEqual([]);
    }
  });
});
