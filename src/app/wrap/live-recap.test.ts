import { describe, expect, it } from 'vitest';
import { parseHotkey, type Hotkey } from '../../config/hotkey.js';
import type { Session } from '../../transcripts/types.js';
import { displayWidth } from '../../util/text-width.js';
import { startLiveRecap, viewRecapLine, type Timers } from './live-recap.js';

function emitter<T>() {
  const ls = new Set<(v: T) => void>();
  return { on: (l: (v: T) => void) => (ls.add(l), { dispose: () => ls.delete(l) }), fire: (v: T) => ls.forEach((l) => l(v)) };
}

function fakeTimers() {
  let now = 1000;
  const pending: Array<{ at: number; fn: () => void; id: number }> = [];
  let id = 0;
  const timers: Timers = {
    now: () => now,
    setTimeout: (fn, ms) => (pending.push({ at: now + ms, fn, id: ++id }), id),
    clearTimeout: (h) => {
      const i = pending.findIndex((p) => p.id === h);
      if (i >= 0) pending.splice(i, 1);
    },
  };
  const advance = async (ms: number) => {
    now += ms;
    for (;;) {
      pending.sort((a, b) => a.at - b.at);
      const next = pending[0];
      if (!next || next.at > now) break;
      pending.shift();
      next.fn();
      await Promise.resolve();
    }
    await new Promise((r) => setImmediate(r));
  };
  return { timers, advance };
}

const session = (stamp: string, lastKind: 'user' | 'turn-end'): Session => ({
  agent: 'pi', id: 'sid', file: '/f', stamp, skipped: 0,
  events: lastKind === 'user' ? [{ kind: 'user', text: 'add a flag', sourceId: '1' }] : [{ kind: 'user', text: 'add a flag', sourceId: '1' }, { kind: 'assistant', text: 'added', sourceId: '2' }, { kind: 'turn-end', sourceId: '2' }],
});

function setup(hotkey: Hotkey | null = null, room?: () => number | undefined, ownRecaps?: { rule?: undefined }) {
  const focus = emitter<boolean>();
  const input = emitter<string>();
  const output = emitter<string>();
  const exit = emitter<unknown>();
  const sessions = emitter<Session>();
  let current: Session | undefined;
  const shown: string[] = [];
  const quiet: Array<[string, string]> = [];
  const drafts: Array<{ stamp: string; signal: AbortSignal; cells?: number; resolve: (t: string | undefined) => void }> = [];
  const { timers, advance } = fakeTimers();
  const live = startLiveRecap({
    wrap: { onFocus: focus.on, onInput: input.on, onOutput: output.on, onExit: exit.on },
    sessions: { onSession: sessions.on, get current() { return current; } },
    display: { show: (v) => shown.push(v.line), clear: (cause) => shown.push(cause === 'key' ? '<clear>' : '<clear:other>') },
    drafter: {
      draft: (s, signal, cells) => new Promise((resolve) => drafts.push({ stamp: s.stamp, signal, cells, resolve })),
      workingLine: () => 'working: add a flag',
    },
    room,
    onQuietRecap: (text, _s, kind) => quiet.push([kind, text]),
    config: { awayMs: 30_000, idleMs: 0, draftDebounceMs: 1000, ...(ownRecaps ? { ownRecaps } : {}) },
    hotkey,
    resume: false,
    timers,
    log: () => {},
  });
  const setSession = (s: Session) => {
    current = s;
    sessions.fire(s);
  };
  return { focus, input, output, exit, setSession, shown, quiet, drafts, advance, live };
}

describe('live recap wiring', () => {
  it("an own recap in the session's events is adopted: no draft, no bar, the quiet recap is the agent's (#34)", async () => {
    const t = setup(null, undefined, {});
    t.focus.fire(false);
    const s = session('s1', 'turn-end');
    t.setSession({ ...s, stamp: 's2', events: [...s.events, { kind: 'agent-recap', text: 'Goal: a flag. Next action: test it.', sourceId: '3' }] });
    await t.advance(60_000);
    expect(t.drafts).toEqual([]);
    t.focus.fire(true);
    expect(t.shown).toEqual([]);
    expect(t.quiet).toEqual([['own', 'recap: Goal: a flag. Next action: test it.']]);
  });

  it('without ownRecaps (agentRecaps both) the same session gets a draft and a bar', async () => {
    const t = setup();
    t.focus.fire(false);
    const s = session('s1', 'turn-end');
    t.setSession({ ...s, stamp: 's2', events: [...s.events, { kind: 'agent-recap', text: 'Goal: a flag.', sourceId: '3' }] });
    await t.advance(1000);
    expect(t.drafts.map((d) => d.stamp)).toEqual(['s2']);
    t.drafts[0]!.resolve('recap: ours');
    await t.advance(60_000);
    t.focus.fire(true);
    expect(t.shown).toEqual(['recap: ours']);
    expect(t.quiet).toEqual([]);
  });

  it('drafts while away and shows on return; a key clears it', async () => {
    const t = setup();
    t.focus.fire(true);
    t.setSession(session('s1', 'user'));
    t.focus.fire(false);
    t.setSession(session('s2', 'turn-end'));
    await t.advance(1000);
    expect(t.drafts.map((d) => d.stamp)).toEqual(['s2']);
    t.drafts[0]!.resolve('recap: added a flag. Next: test it.');
    await t.advance(40_000);
    t.focus.fire(true);
    expect(t.shown).toEqual(['recap: added a flag. Next: test it.']);
    t.input.fire('x');
    expect(t.shown.at(-1)).toBe('<clear>');
  });

  it('drafts for the room the display has now (#29: the model was told 213 cells whatever the pane)', async () => {
    let cells = 151;
    const t = setup(null, () => cells);
    t.setSession(session('s1', 'turn-end'));
    t.focus.fire(false);
    await t.advance(1000);
    expect(t.drafts.map((d) => d.cells)).toEqual([151]);
    cells = 71; // resized
    t.drafts[0]!.resolve(undefined);
    t.setSession(session('s2', 'turn-end'));
    await t.advance(1000);
    expect(t.drafts.at(-1)?.cells).toBe(71);
  });

  it('aborts an in-flight draft when the user types', async () => {
    const t = setup();
    t.setSession(session('s1', 'turn-end'));
    t.focus.fire(false);
    await t.advance(1000);
    expect(t.drafts).toHaveLength(1);
    t.input.fire('k');
    expect(t.drafts[0]!.signal.aborted).toBe(true);
    t.drafts[0]!.resolve('late');
    await t.advance(10);
    expect(t.shown).toEqual([]);
  });

  it('the hotkey asks for a recap now; mid-turn it shows the working line', async () => {
    const hotkey = parseHotkey('ctrl-]') as Hotkey;
    const t = setup(hotkey);
    t.setSession(session('s1', 'user'));
    t.input.fire('\x1d');
    expect(t.shown).toEqual(['working: add a flag']);
    t.setSession(session('s2', 'turn-end'));
    t.input.fire('\x1b[93;5u');
    t.drafts.at(-1)!.resolve('recap: done');
    await t.advance(1);
    expect(t.shown.at(-1)).toBe('recap: done');
  });

  // #19.13: the hotkey mid-turn showed "working: …", which stayed up after the turn ended.
  it('takes the working line off when the turn ends, and a key still clears as a key', async () => {
    const hotkey = parseHotkey('ctrl-]') as Hotkey;
    const t = setup(hotkey);
    t.setSession(session('s1', 'user'));
    t.input.fire('\x1d');
    expect(t.shown).toEqual(['working: add a flag']);
    t.setSession(session('s1b', 'user')); // still mid-turn: stays
    expect(t.shown).toEqual(['working: add a flag']);
    t.setSession(session('s2', 'turn-end'));
    expect(t.shown).toEqual(['working: add a flag', '<clear:other>']);
    t.live.requestManual();
    t.drafts.at(-1)!.resolve('recap: added a flag. Next: test it.');
    await t.advance(1);
    expect(t.shown.at(-1)).toBe('recap: added a flag. Next: test it.');
    t.input.fire('x');
    expect(t.shown.at(-1)).toBe('<clear>');
  });

  it('hands displays a view that composes the recap for the cells they have, keeping Next:', () => {
    const view = viewRecapLine('recap: migrated four of the seven billing tables to the new schema. Next: fix the foreign key.');
    expect(view.line).toMatch(/^recap: /);
    const narrow = view.compose(50);
    expect(displayWidth(narrow)).toBeLessThanOrEqual(50);
    expect(narrow).toContain('Next: fix');
    expect(view.compose(500)).toBe('migrated four of the seven billing tables to the new schema. Next: fix the foreign key.');
  });

  it('stops everything on dispose', async () => {
    const t = setup();
    t.setSession(session('s1', 'turn-end'));
    t.live.requestManual();
    t.live.dispose();
    expect(t.drafts[0]!.signal.aborted).toBe(true);
    t.focus.fire(false);
    await t.advance(60_000);
    expect(t.drafts).toHaveLength(1);
  });
});
