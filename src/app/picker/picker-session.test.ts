import { describe, expect, it } from 'vitest';
import type { Disposable } from '../../types.js';
import { pollUntil } from '../../../test/helpers/poll.js';
import { openPicker, type PickerMemory, type PickerRow, type PickerRun, type PickerScreen } from './picker-session.js';
import { PASTE_BEGIN, PASTE_END } from './reference-block.js';

const row = (id: string, name: string, headline: string): PickerRow => ({ id, name, agent: 'codex', cwd: `/p/${name}`, headline, updatedAt: '2026-11-20T10:00:00Z' });
const ROWS = [row('1', 'auth-refactor', 'Split the auth module'), row('2', 'billing-fk', 'Fixed the invoices FK')];

// Fakes around the real picker session: a run that records what reaches the agent, a screen that records draws.
function rig(options: { bracketed?: boolean; memory?: PickerMemory | { error: string }; coverFails?: boolean; lineage?: boolean } = {}) {
  const log: string[] = [];
  let capture: ((data: string) => void) | undefined;
  const listeners = { resize: new Set<(v: never) => void>(), exit: new Set<(v: never) => void>() };
  const sub = (set: Set<(v: never) => void>, fn: (v: never) => void): Disposable => (set.add(fn), { dispose: () => set.delete(fn) });
  let holds = 0;
  const run: PickerRun = {
    cols: 80,
    rows: 24,
    childWantsBracketedPaste: options.bracketed ?? true,
    captureInput(handler) {
      capture = handler;
      return { dispose: () => (capture === handler ? (capture = undefined) : undefined) };
    },
    holdOutput() {
      holds++;
      log.push('hold');
      return { release: () => (holds--, log.push('release')) };
    },
    writeToChild: (data) => log.push(`child:${data}`),
    onResize: (fn) => sub(listeners.resize, fn),
    onExit: (fn) => sub(listeners.exit, fn),
  };
  const draws: string[][] = [];
  const screen: PickerScreen = {
    async cover(rows, beforeDraw) {
      if (options.coverFails) return { drawn: false };
      beforeDraw?.();
      draws.push(rows);
      log.push('cover');
      return { drawn: true };
    },
    uncover: () => log.push('uncover'),
  };
  const searches: string[] = [];
  const memory: PickerMemory = {
    list: () => ROWS,
    search: (q) => (searches.push(q), ROWS.filter((r) => r.name.includes(q.trim()))),
    card: (id) => {
      const r = ROWS.find((x) => x.id === id);
      return r && { ...r, transcript: `/t/${id}.jsonl`, done: ['did it'], next: ['do more'] };
    },
    refresh: async () => undefined,
    close: () => log.push('memory-closed'),
  };
  if (options.lineage) {
    // billing-fk was forked from auth-refactor.
    memory.resolve = (ref) => ROWS.find((r) => `@@${r.name}` === ref || r.id === ref);
    memory.lineage = (id, depth) => (id === '2' && depth > 0 ? [{ ...(ROWS[0] as PickerRow), transcript: '/t/1.jsonl', done: ['split the module'], next: ['move the tests'] }] : []);
  }
  const session = openPicker({ run, screen, openMemory: async () => options.memory ?? memory, now: () => Date.parse('2026-11-22T10:00:00Z'), log: () => {} });
  const type = (data: string) => capture?.(data);
  const lastScreen = () => (draws.at(-1) ?? []).join('\n').replace(/\x1b\[[0-9;]*m/g, '');
  return { session, log, type, draws, lastScreen, searches, listeners, holdCount: () => holds, capturing: () => capture !== undefined };
}

describe('openPicker', () => {
  it('draws at once, lists the index, searches as you type, pastes the chosen card as one bracketed paste', async () => {
    const r = rig();
    await pollUntil(() => r.lastScreen().includes('auth-refactor'), { description: 'the list' });
    r.type('bill');
    await pollUntil(() => /\b1 session(?!s)/.test(r.lastScreen()), { description: 'the search' });
    expect(r.searches.at(-1)).toBe('bill');
    r.type('\r');
    expect(await r.session.closed).toBe('pasted');
    const pasted = r.log.filter((l) => l.startsWith('child:'));
    expect(pasted).toHaveLength(1);
    const bytes = (pasted[0] as string).slice('child:'.length);
    expect(bytes.startsWith(PASTE_BEGIN) && bytes.endsWith(PASTE_END)).toBe(true);
    expect(bytes).toContain('@@billing-fk');
    expect(bytes).toContain('next: do more');
    expect(bytes).not.toContain('\r');
    // Off the screen and the output let go before the paste; the index closed.
    const order = r.log.filter((l) => ['uncover', 'release', 'memory-closed'].includes(l) || l.startsWith('child:'));
    expect(order).toEqual(['uncover', 'release', 'memory-closed', expect.stringMatching(/^child:/)]);
    expect(r.holdCount()).toBe(0);
    expect(r.capturing()).toBe(false);
  });

  it('Esc takes it off and sends the agent nothing', async () => {
    const r = rig();
    await pollUntil(() => r.draws.length > 0, { description: 'a draw' });
    r.type('auth\x1b');
    expect(await r.session.closed).toBe('cancelled');
    expect(r.log.some((l) => l.startsWith('child:'))).toBe(false);
    expect(r.log).toContain('uncover');
    expect(r.holdCount()).toBe(0);
  });

  it('without bracketed paste the block goes as one line with no CR or LF', async () => {
    const r = rig({ bracketed: false });
    await pollUntil(() => r.lastScreen().includes('auth-refactor'), { description: 'the list' });
    r.type('\r');
    await r.session.closed;
    const bytes = (r.log.find((l) => l.startsWith('child:')) as string).slice(6);
    expect(bytes).not.toMatch(/[\r\n\x1b]/);
    expect(bytes).toContain('@@auth-refactor');
  });

  it('an unavailable index is said in the picker, and Esc still closes it', async () => {
    const r = rig({ memory: { error: 'no state folder' } });
    await pollUntil(() => r.lastScreen().includes('index unavailable: no state folder'), { description: 'the note' });
    r.type('\r\x1b');
    expect(await r.session.closed).toBe('cancelled');
    expect(r.log.some((l) => l.startsWith('child:'))).toBe(false);
  });

  it('a resize or the agent exit closes it; a picker that cannot be drawn gives the keys back', async () => {
    const resized = rig();
    await pollUntil(() => resized.draws.length > 0, { description: 'a draw' });
    for (const fn of resized.listeners.resize) fn({ cols: 80, rows: 24 } as never);
    expect(await resized.session.closed).toBe('resized');
    const exited = rig();
    await pollUntil(() => exited.draws.length > 0, { description: 'a draw' });
    for (const fn of exited.listeners.exit) fn({} as never);
    expect(await exited.session.closed).toBe('exited');
    expect(exited.holdCount()).toBe(0);
    const failed = rig({ coverFails: true });
    expect(await failed.session.closed).toBe('not-drawn');
    expect(failed.capturing()).toBe(false);
  });

  it('@@name~1 picks that session and adds the summary of the session it was forked from', async () => {
    const r = rig({ lineage: true });
    await pollUntil(() => r.lastScreen().includes('auth-refactor'), { description: 'the list' });
    r.type('@@billing-fk~1');
    await pollUntil(() => r.lastScreen().includes('1 session'), { description: 'the one session' });
    expect(r.searches).toEqual([]); // resolved, not searched as words
    r.type('\r');
    expect(await r.session.closed).toBe('pasted');
    const bytes = (r.log.find((l) => l.startsWith('child:')) as string).slice('child:'.length);
    expect(bytes).toContain('Earlier session @@billing-fk');
    expect(bytes).toContain('forked from @@auth-refactor (codex, 2026-11-20 10:00 UTC): Split the auth module\nparent done: split the module\nparent next: move the tests');
  });
});
