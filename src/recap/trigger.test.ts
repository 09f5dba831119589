import { describe, expect, it } from 'vitest';
import type { OwnRecapRule } from '../types.js';
import type { OwnRecapFacts } from './own-recap.js';
import { createTriggerMachine, LATE_SESSION_GRACE_MS, type TriggerAction, type TriggerConfig, type TriggerEvent } from './trigger.js';

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

  it('is off while focus reports hold', () => {
    const { send, advance } = setup();
    send({ type: 'focus-reports', hold: true });
    send({ type: 'focus', focused: true });
    send({ type: 'session', stamp: 's1', midTurn: true });
    send({ type: 'session', stamp: 's2', midTurn: false });
    expect(advance(200_000)).toEqual([]);
  });

  // #43: a tmux attach sends one focus-in even with focus-events off; it proves nothing, and the idle
  // timer must keep recapping every later turn.
  it('stays on after focus reports that do not hold (a tmux attach), turn after turn', () => {
    const { send, advance } = setup();
    send({ type: 'session', stamp: 's1', midTurn: true });
    send({ type: 'session', stamp: 's2', midTurn: false });
    expect(advance(120_000)).toEqual([{ type: 'draft', stamp: 's2' }]);
    send({ type: 'draft-ready', stamp: 's2', text: 'first' });
    send({ type: 'focus', focused: true }); // the attach
    send({ type: 'input' });
    send({ type: 'session', stamp: 's3', midTurn: true });
    send({ type: 'session', stamp: 's4', midTurn: false });
    expect(advance(120_000)).toEqual([{ type: 'draft', stamp: 's4' }]);
    expect(send({ type: 'draft-ready', stamp: 's4', text: 'second' })).toEqual([{ type: 'show', text: 'second', stamp: 's4', reason: 'idle' }]);
  });

  it('takes over again when focus reports stop holding, for a closed turn not yet recapped', () => {
    const { send, advance } = setup();
    send({ type: 'focus-reports', hold: true });
    send({ type: 'session', stamp: 's1', midTurn: true });
    send({ type: 'session', stamp: 's2', midTurn: false });
    expect(advance(200_000)).toEqual([]);
    send({ type: 'focus-reports', hold: false });
    expect(advance(119_000)).toEqual([]);
    expect(advance(1_000)).toEqual([{ type: 'draft', stamp: 's2' }]);
  });

  it('waits for the return while a focus-out says you are away (a tmux detach), and the return shows it', () => {
    const { send, advance } = setup();
    send({ type: 'session', stamp: 's1', midTurn: true });
    send({ type: 'session', stamp: 's2', midTurn: false });
    send({ type: 'focus', focused: false }); // detach
    const drafted = advance(120_000);
    expect(drafted.filter((a) => a.type === 'show')).toEqual([]);
    expect(drafted).toEqual([{ type: 'draft', stamp: 's2' }]); // drafted while away, shown on return
    expect(send({ type: 'draft-ready', stamp: 's2', text: 'r' })).toEqual([]);
    expect(send({ type: 'focus', focused: true })).toEqual([{ type: 'show', text: 'r', stamp: 's2', reason: 'focus-return' }]);
  });

  it('runs again after a short absence that shows nothing', () => {
    const { send, advance } = setup();
    send({ type: 'session', stamp: 's1', midTurn: true });
    send({ type: 'session', stamp: 's2', midTurn: false });
    send({ type: 'focus', focused: false });
    expect(advance(5_000)).toEqual([{ type: 'draft', stamp: 's2' }]);
    expect(send({ type: 'draft-ready', stamp: 's2', text: 'r' })).toEqual([]);
    expect(send({ type: 'focus', focused: true })).toEqual([]); // back before awayMs
    expect(advance(119_000)).toEqual([]);
    expect(advance(1_000)).toEqual([{ type: 'show', text: 'r', stamp: 's2', reason: 'idle' }]);
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

describe("the agent's own recap (#34)", () => {
  const CLAUDE: OwnRecapRule = { when: 'while-away', delayMs: 180_000, from: 'turn-end', minBlurMs: 2000, staleAfterMs: 270_000, counts: 'user-messages', minCount: 3, minSinceLast: 2, writes: true };
  const CODEX: OwnRecapRule = { when: 'while-away', delayMs: 30 * 60_000, from: 'turn-or-blur', counts: 'turns', minCount: 3, minSinceLast: 2, writes: false };
  const QWEN: OwnRecapRule = { when: 'on-return', delayMs: 5 * 60_000, counts: 'prompts', minCount: 3, minSinceLast: 2, writes: true };
  const START = 1_000_000;

  function ownSetup(ownRecaps: TriggerConfig['ownRecaps']) {
    let now = START;
    const m = createTriggerMachine({ ...CONFIG, ownRecaps }, { now: () => now });
    const send = (e: TriggerEvent) => m.handle(e).filter((a) => a.type !== 'timer');
    const advance = (ms: number) => {
      now += ms;
      return send({ type: 'tick' });
    };
    return { m, send, advance, now: () => now, timers: (e: TriggerEvent) => m.handle(e).filter((a) => a.type === 'timer') };
  }
  // Facts of an idle session whose last turn ended at `turnEndAt`, with `count` of the rule's unit.
  const idle = (turnEndAt: number, count = 6, extra: Partial<OwnRecapFacts> = {}): OwnRecapFacts => ({ turnEndAt, count, sinceLast: count, anyOwn: false, ...extra });
  const withOwn = (turnEndAt: number, text: string): OwnRecapFacts => idle(turnEndAt, 6, { fresh: { text }, sinceLast: 0, anyOwn: true });

  it("Claude writes its recap while you are away: recapwrap waits for it, asks no model, draws no bar, and the agent's words are the recap", () => {
    const { send, advance, now } = ownSetup({ rule: CLAUDE });
    send({ type: 'session', stamp: 's1', midTurn: true });
    const endAt = now();
    expect(send({ type: 'session', stamp: 's2', midTurn: false, own: idle(endAt) })).toEqual([]);
    send({ type: 'focus', focused: false });
    // Past the debounce: no draft, Claude makes its own at 3 min (+ the time it takes).
    expect(advance(2000)).toEqual([]);
    expect(advance(100_000)).toEqual([]);
    // 3 minutes after the turn end, Claude's away summary is in the file.
    advance(80_000);
    expect(send({ type: 'session', stamp: 's3', midTurn: false, own: withOwn(endAt, 'Goal: g. Next: n.') })).toEqual([{ type: 'own-recap', text: 'recap: Goal: g. Next: n.', stamp: 's3' }]);
    expect(advance(600_000)).toEqual([]);
    // Back after 13 minutes: no second bar.
    expect(send({ type: 'focus', focused: true })).toEqual([]);
    expect(send({ type: 'manual' })).toEqual([{ type: 'show', text: 'recap: Goal: g. Next: n.', stamp: 's3', reason: 'manual' }]);
  });

  it('Claude: a return before its recap is due gets recapwrap’s bar at once (drafted on the return)', () => {
    const { send, advance, now } = ownSetup({ rule: CLAUDE });
    send({ type: 'session', stamp: 's1', midTurn: true });
    send({ type: 'session', stamp: 's2', midTurn: false, own: idle(now()) });
    send({ type: 'focus', focused: false });
    expect(advance(60_000)).toEqual([]);
    expect(send({ type: 'focus', focused: true })).toEqual([{ type: 'draft', stamp: 's2' }]);
    expect(send({ type: 'draft-ready', stamp: 's2', text: 'ours' })).toEqual([{ type: 'show', text: 'ours', stamp: 's2', reason: 'focus-return' }]);
  });

  it('Claude made no recap when it was due (its file says so): recapwrap drafts after and shows its bar', () => {
    const { send, advance, now } = ownSetup({ rule: CLAUDE });
    send({ type: 'session', stamp: 's1', midTurn: true });
    send({ type: 'session', stamp: 's2', midTurn: false, own: idle(now()) });
    send({ type: 'focus', focused: false });
    expect(advance(189_000)).toEqual([]);
    expect(advance(2000)).toEqual([{ type: 'draft', stamp: 's2' }]);
    send({ type: 'draft-ready', stamp: 's2', text: 'ours' });
    advance(300_000);
    expect(send({ type: 'focus', focused: true })).toEqual([{ type: 'show', text: 'ours', stamp: 's2', reason: 'focus-return' }]);
  });

  it("Claude's rule does not apply (too few messages): recapwrap drafts after the debounce as ever", () => {
    const { send, advance, now } = ownSetup({ rule: CLAUDE });
    send({ type: 'session', stamp: 's1', midTurn: true });
    send({ type: 'session', stamp: 's2', midTurn: false, own: idle(now(), 2) });
    send({ type: 'focus', focused: false });
    expect(advance(2000)).toEqual([{ type: 'draft', stamp: 's2' }]);
  });

  it("recapwrap's recap came first: the agent's later one replaces it, and that return draws no bar", () => {
    const { send, advance, now } = ownSetup({ rule: undefined });
    send({ type: 'session', stamp: 's1', midTurn: true });
    const endAt = now();
    send({ type: 'session', stamp: 's2', midTurn: false, own: idle(endAt) });
    send({ type: 'focus', focused: false });
    expect(advance(2000)).toEqual([{ type: 'draft', stamp: 's2' }]);
    send({ type: 'draft-ready', stamp: 's2', text: 'ours' });
    advance(180_000);
    expect(send({ type: 'session', stamp: 's3', midTurn: false, own: withOwn(endAt, 'theirs') })).toEqual([{ type: 'own-recap', text: 'recap: theirs', stamp: 's3' }]);
    advance(60_000);
    expect(send({ type: 'focus', focused: true })).toEqual([]);
  });

  it("the agent's recap arrives while recapwrap's bar is up (Qwen makes its own on the return): the bar goes, theirs is the recap", () => {
    const { send, advance, now } = ownSetup({ rule: undefined });
    send({ type: 'session', stamp: 's1', midTurn: false, own: idle(now()) });
    send({ type: 'focus', focused: false });
    advance(2000);
    send({ type: 'draft-ready', stamp: 's1', text: 'ours' });
    advance(60_000);
    expect(types(send({ type: 'focus', focused: true }))).toEqual(['show']);
    expect(send({ type: 'session', stamp: 's2', midTurn: false, own: withOwn(now(), 'theirs') })).toEqual([{ type: 'clear' }, { type: 'own-recap', text: 'recap: theirs', stamp: 's2' }]);
  });

  it('an own recap being drafted over is aborted: no model call finishes for its state', () => {
    const { send, advance, now } = ownSetup({ rule: undefined });
    send({ type: 'session', stamp: 's1', midTurn: false, own: idle(now()) });
    send({ type: 'focus', focused: false });
    expect(advance(2000)).toEqual([{ type: 'draft', stamp: 's1' }]);
    expect(send({ type: 'session', stamp: 's2', midTurn: false, own: withOwn(now(), 'theirs') })).toEqual([{ type: 'abort-draft' }, { type: 'own-recap', text: 'recap: theirs', stamp: 's2' }]);
    expect(advance(10_000)).toEqual([]);
  });

  it('a stale own recap (a turn followed it) is never the recap: the new state gets recapwrap’s bar', () => {
    const { send, advance, now } = ownSetup({ rule: undefined });
    send({ type: 'session', stamp: 's1', midTurn: false, own: withOwn(now(), 'theirs') });
    send({ type: 'session', stamp: 's2', midTurn: true, own: idle(now(), 7, { turnEndAt: undefined, anyOwn: true, sinceLast: 1 }) });
    send({ type: 'focus', focused: false });
    send({ type: 'session', stamp: 's3', midTurn: false, own: idle(now(), 9, { anyOwn: true, sinceLast: 3 }) });
    expect(advance(2000)).toEqual([{ type: 'draft', stamp: 's3' }]);
    send({ type: 'draft-ready', stamp: 's3', text: 'ours' });
    advance(60_000);
    expect(send({ type: 'focus', focused: true })).toEqual([{ type: 'show', text: 'ours', stamp: 's3', reason: 'focus-return' }]);
  });

  it('agentRecaps both (no ownRecaps): the own recap is ignored, the bar is drawn as before', () => {
    const { send, advance, now } = ownSetup(undefined);
    send({ type: 'session', stamp: 's1', midTurn: false, own: withOwn(now(), 'theirs') });
    send({ type: 'focus', focused: false });
    expect(advance(2000)).toEqual([{ type: 'draft', stamp: 's1' }]);
    send({ type: 'draft-ready', stamp: 's1', text: 'ours' });
    advance(600_000);
    expect(send({ type: 'focus', focused: true })).toEqual([{ type: 'show', text: 'ours', stamp: 's1', reason: 'focus-return' }]);
  });

  it('an agent that shows its recap but does not write it (Codex): a return its rule covers gets no bar, recapwrap’s recap goes to tmux and the state file', () => {
    const { send, advance, now } = ownSetup({ rule: CODEX });
    send({ type: 'session', stamp: 's1', midTurn: true });
    send({ type: 'session', stamp: 's2', midTurn: false, own: idle(now(), 3) });
    send({ type: 'focus', focused: false });
    expect(advance(2000)).toEqual([{ type: 'draft', stamp: 's2' }]);
    send({ type: 'draft-ready', stamp: 's2', text: 'ours' });
    advance(31 * 60_000);
    expect(send({ type: 'focus', focused: true })).toEqual([{ type: 'publish', text: 'ours', stamp: 's2' }]);
    // One more turn: its "2 since the last recap" is not met, so the next long return gets recapwrap's bar.
    send({ type: 'session', stamp: 's3', midTurn: true });
    send({ type: 'session', stamp: 's4', midTurn: false, own: idle(now(), 4) });
    send({ type: 'focus', focused: false });
    advance(2000);
    send({ type: 'draft-ready', stamp: 's4', text: 'ours 2' });
    advance(31 * 60_000);
    expect(send({ type: 'focus', focused: true })).toEqual([{ type: 'show', text: 'ours 2', stamp: 's4', reason: 'focus-return' }]);
  });

  it('Codex: a shorter return than its rule gets recapwrap’s bar', () => {
    const { send, advance, now } = ownSetup({ rule: CODEX });
    send({ type: 'session', stamp: 's2', midTurn: false, own: idle(now(), 3) });
    send({ type: 'focus', focused: false });
    advance(2000);
    send({ type: 'draft-ready', stamp: 's2', text: 'ours' });
    advance(10 * 60_000);
    expect(types(send({ type: 'focus', focused: true }))).toEqual(['show']);
  });

  it('Qwen makes its own on the return: recapwrap publishes its own without a bar, then the agent’s replaces it', () => {
    const { send, advance, now } = ownSetup({ rule: QWEN });
    send({ type: 'session', stamp: 's1', midTurn: false, own: idle(now(), 3) });
    send({ type: 'focus', focused: false });
    advance(2000);
    send({ type: 'draft-ready', stamp: 's1', text: 'ours' });
    advance(6 * 60_000);
    expect(send({ type: 'focus', focused: true })).toEqual([{ type: 'publish', text: 'ours', stamp: 's1' }]);
    expect(send({ type: 'session', stamp: 's2', midTurn: false, own: withOwn(now(), 'theirs') })).toEqual([{ type: 'own-recap', text: 'recap: theirs', stamp: 's2' }]);
  });

  it('Qwen: a covered return with nothing drafted yet drafts, then publishes (no bar)', () => {
    const { send, advance, now } = ownSetup({ rule: QWEN });
    send({ type: 'focus', focused: false });
    advance(6 * 60_000);
    send({ type: 'session', stamp: 's1', midTurn: false, own: idle(now(), 3) });
    expect(send({ type: 'focus', focused: true })).toEqual([{ type: 'draft', stamp: 's1' }]);
    expect(send({ type: 'draft-ready', stamp: 's1', text: 'ours' })).toEqual([{ type: 'publish', text: 'ours', stamp: 's1' }]);
  });

  it('mid-turn returns are never covered: the working line, then the bar at the turn end', () => {
    const { send, advance, now } = ownSetup({ rule: QWEN });
    send({ type: 'session', stamp: 's1', midTurn: true, own: idle(now(), 3, { turnEndAt: undefined }) });
    send({ type: 'focus', focused: false });
    advance(6 * 60_000);
    expect(types(send({ type: 'focus', focused: true }))).toEqual(['show-working']);
  });

  it('a session found with its own recap already fresh (a resumed file): no resume bar, the agent shows its history', () => {
    let now = START;
    const m = createTriggerMachine({ ...CONFIG, ownRecaps: {} }, { now: () => now }, { resume: true });
    m.handle({ type: 'first-screen' });
    expect(m.handle({ type: 'session', stamp: 's1', midTurn: false, own: withOwn(now, 'theirs') })).toEqual([{ type: 'own-recap', text: 'recap: theirs', stamp: 's1' }]);
    now += 60_000;
    expect(m.handle({ type: 'tick' })).toEqual([]);
  });
});
