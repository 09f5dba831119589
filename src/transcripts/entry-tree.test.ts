import { describe, expect, it } from 'vitest';
import { EntryTree } from './entry-tree.js';
import { activeBranch } from './shared-parse.js';
import type { TranscriptEvent } from './types.js';

const ev = (id: string, n = 0): TranscriptEvent => ({ kind: 'assistant', text: `${id}#${n}`, sourceId: id });
const texts = (events: TranscriptEvent[]) => events.map((e) => (e as { text: string }).text);

function build(entries: [string, string | null, number][]): EntryTree {
  const tree = new EntryTree();
  for (const [id, parent, n] of entries) tree.add(id, parent, Array.from({ length: n }, (_, i) => ev(id, i)));
  return tree;
}

describe('EntryTree', () => {
  it('gives every event in order on a linear chain, entries without events included', () => {
    const tree = build([['a', null, 2], ['b', 'a', 0], ['c', 'b', 1]]);
    expect(texts(tree.branchEvents('c'))).toEqual(['a#0', 'a#1', 'c#0']);
    expect(tree.size).toBe(3);
    expect(tree.has('b')).toBe(true);
    expect(tree.has('z')).toBe(false);
    expect(tree.lastId).toBe('c');
    expect(new EntryTree().lastId).toBeUndefined();
  });

  it('keeps only the root→leaf path of a branched tree', () => {
    const tree = build([['a', null, 1], ['b', 'a', 1], ['c', 'b', 1], ['d', 'b', 2]]);
    expect(texts(tree.branchEvents('d'))).toEqual(['a#0', 'b#0', 'd#0', 'd#1']);
    expect(texts(tree.branchEvents('c'))).toEqual(['a#0', 'b#0', 'c#0']);
  });

  it('gives the events off the root→leaf path in file order (none on a linear chain, replaced entries left out)', () => {
    expect(build([['a', null, 1], ['b', 'a', 1]]).offBranchEvents('b')).toEqual([]);
    const tree = build([['a', null, 1], ['b', 'a', 1], ['c', 'b', 2], ['d', 'a', 1], ['e', 'd', 1]]);
    expect(texts(tree.offBranchEvents('e'))).toEqual(['b#0', 'c#0', 'c#1']);
    expect(texts(tree.offBranchEvents('c'))).toEqual(['d#0', 'e#0']);
    const replaced = build([['a', null, 1], ['b', 'a', 1], ['b', 'a', 2], ['c', 'a', 1]]);
    expect(texts(replaced.offBranchEvents('c'))).toEqual(['b#0', 'b#1']);
  });

  it('ends the walk at a missing parent, a cycle, or an unknown leaf', () => {
    expect(texts(build([['a', 'gone', 1], ['b', 'a', 1]]).branchEvents('b'))).toEqual(['a#0', 'b#0']);
    expect(texts(build([['x', 'y', 1], ['y', 'x', 1]]).branchEvents('x'))).toEqual(['y#0', 'x#0']);
    expect(build([['a', null, 1]]).branchEvents('zz')).toEqual([]);
    expect(build([['a', null, 1]]).branchEvents(undefined)).toEqual([]);
    expect(new EntryTree().branchEvents(undefined)).toEqual([]);
  });

  it('lets a later entry with the same id replace the earlier one', () => {
    const tree = build([['a', null, 1], ['b', 'a', 1], ['b', 'a', 2], ['c', 'b', 1]]);
    expect(texts(tree.branchEvents('c'))).toEqual(['a#0', 'b#0', 'b#1', 'c#0']);
  });

  it('resolves a parent that is written after its child', () => {
    const tree = build([['child', 'late', 1], ['late', null, 1]]);
    expect(texts(tree.branchEvents('child'))).toEqual(['late#0', 'child#0']);
  });

  it('agrees with activeBranch on random trees with branches, repeats, gaps and cycles', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const entries: [string, string | null, number][] = [];
      const size = 1 + rand(30);
      for (let i = 0; i < size; i++) {
        const id = `n${rand(size + 3)}`;
        const r = rand(10);
        const parent = r === 0 ? null : r === 1 ? `n${rand(size + 5)}` : entries.length ? (entries[rand(entries.length)] as [string, string | null, number])[0] : null;
        entries.push([id, parent, rand(3)]);
      }
      const map = new Map<string, { parentId: string | null; events: TranscriptEvent[] }>();
      entries.forEach(([id, parentId, n]) => map.set(id, { parentId, events: Array.from({ length: n }, (_, i) => ev(id, i)) }));
      const leaf = rand(4) === 0 ? `n${rand(size + 3)}` : (entries[entries.length - 1] as [string, string | null, number])[0];
      const expected = activeBranch(map, leaf).flatMap((id) => map.get(id)?.events ?? []);
      expect(texts(build(entries).branchEvents(leaf)), JSON.stringify({ entries, leaf })).toEqual(texts(expected));
    }
  });
});
