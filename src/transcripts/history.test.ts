import { describe, expect, it } from 'vitest';
import { EntryTree } from './entry-tree.js';
import { boundLinear, eventWeight, HEAD_PROMPTS, headEvents, HISTORY_LIMITS, windowStart } from './history.js';
import type { TranscriptEvent } from './types.js';

const user = (n: number): TranscriptEvent => ({ kind: 'user', text: `prompt ${n}`, sourceId: `u${n}` });
const said = (n: number): TranscriptEvent => ({ kind: 'assistant', text: `answer ${n}`, sourceId: `a${n}` });
const summary = (n: number): TranscriptEvent => ({ kind: 'summary', source: 'compaction', text: `summary ${n}`, sourceId: `s${n}` });
const texts = (events: readonly TranscriptEvent[]) => events.map((e) => ('text' in e ? e.text : e.kind));
const small = { maxEvents: 20, maxWeight: 1e9 };

describe('headEvents', () => {
  it('keeps the first prompts, the newest summaries and the last title and model, in order; counts the rest', () => {
    const events: TranscriptEvent[] = [
      { kind: 'title', text: 'old title', sourceId: 't1' },
      user(1), said(1), summary(1), user(2), said(2), user(3), user(4),
      { kind: 'model', model: 'm1', sourceId: 'm1' },
      { kind: 'title', text: 'new title', sourceId: 't2' },
      summary(2),
    ];
    const head = headEvents(events);
    expect(texts(head.kept)).toEqual(['prompt 1', 'summary 1', 'prompt 2', 'prompt 3', 'model', 'new title', 'summary 2']);
    expect(head.dropped).toBe(events.length - head.kept.length);
    expect(HEAD_PROMPTS).toBe(3);
  });
});

describe('windowStart and boundLinear', () => {
  it('keeps the newest half of the limits and always drops something', () => {
    const events = Array.from({ length: 30 }, (_, i) => said(i));
    expect(windowStart(events, small)).toBe(20);
    const heavy = { maxEvents: 1000, maxWeight: eventWeight(said(10)) * 5 };
    expect(windowStart(events, heavy)).toBe(28); // 2 of these weigh half the limit
    expect(windowStart([said(1)], small)).toBe(1);
  });

  it('a bounded linear history starts with the first prompt and ends with the newest events', () => {
    const events = [user(0), ...Array.from({ length: 40 }, (_, i) => said(i))];
    const bounded = boundLinear(events, small);
    expect(bounded.events[0]).toEqual(user(0));
    expect(texts(bounded.events.slice(1))).toEqual(texts(events.slice(-10)));
    expect(bounded.dropped).toBe(events.length - bounded.events.length);
  });

  it('the default limits hold a 100 MB transcript of ordinary turns whole', () => {
    // bench/lib/pi-transcript.mjs: ~19,000 turns of 7 events (≈1.4 KB of kept text) in 100 MB.
    expect(HISTORY_LIMITS.maxEvents).toBeGreaterThan(19_000 * 7);
    expect(HISTORY_LIMITS.maxWeight).toBeGreaterThan(19_000 * (7 * 130 + 1400));
  });
});

describe('EntryTree bounded', () => {
  it('past the limits keeps the first prompt and summaries of the active branch, and the newest entries', () => {
    const tree = new EntryTree(small);
    tree.add('u0', null, [user(0)]);
    let parent = 'u0';
    for (let i = 0; i < 50; i++) {
      const id = `e${i}`;
      tree.add(id, parent, i === 10 ? [summary(1)] : [said(i)]);
      parent = id;
    }
    const events = tree.branchEvents(tree.lastId);
    expect(events[0]).toEqual(user(0));
    expect(texts(events)).toContain('summary 1');
    expect(texts(events).at(-1)).toBe('answer 49');
    expect(events.length).toBeLessThanOrEqual(small.maxEvents);
    expect(tree.dropped).toBe(51 - events.length);
    expect(tree.size).toBeLessThanOrEqual(small.maxEvents + 1);
  });

  it('after a prune, an entry whose parent was dropped, or a new root, hangs from the kept head', () => {
    const tree = new EntryTree(small);
    tree.add('u0', null, [user(0)]);
    for (let i = 0; i < 30; i++) tree.add(`e${i}`, i === 0 ? 'u0' : `e${i - 1}`, [said(i)]);
    expect(tree.dropped).toBeGreaterThan(0);
    // A rewind to an entry long gone (Claude, pi /tree): the first request is still on the branch.
    tree.add('r', 'e1', [user(99)]);
    expect(texts(tree.branchEvents('r'))).toEqual(['prompt 0', 'prompt 99']);
    tree.add('root', null, [said(100)]);
    expect(texts(tree.branchEvents('root'))).toEqual(['prompt 0', 'answer 100']);
  });

  it('a branch off an entry that is still in the window keeps its own path', () => {
    const tree = new EntryTree(small);
    tree.add('u0', null, [user(0)]);
    for (let i = 0; i < 30; i++) tree.add(`e${i}`, i === 0 ? 'u0' : `e${i - 1}`, [said(i)]);
    tree.add('b', 'e27', [user(1)]);
    const events = tree.branchEvents('b');
    expect(texts(events).slice(-3)).toEqual(['answer 26', 'answer 27', 'prompt 1']);
    expect(texts(events)).not.toContain('answer 28');
    expect(events[0]).toEqual(user(0));
  });

  it('events added to an entry later (metadata) are kept with it, and through a prune', () => {
    const tree = new EntryTree(small);
    tree.add('u0', null, [user(0)]);
    expect(tree.addTo('u0', [{ kind: 'title', text: 'the title', sourceId: 't' }])).toBe(true);
    expect(tree.addTo('nope', [said(1)])).toBe(false);
    tree.add('a', 'u0', [said(1)]);
    expect(texts(tree.branchEvents('a'))).toEqual(['prompt 0', 'the title', 'answer 1']);
    for (let i = 0; i < 30; i++) tree.add(`e${i}`, i === 0 ? 'a' : `e${i - 1}`, [said(i)]);
    expect(texts(tree.branchEvents(tree.lastId)).slice(0, 2)).toEqual(['prompt 0', 'the title']);
  });
});
