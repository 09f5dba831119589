// The refresh's folder listings: a folder is read again only when its modification time moved (real
// folders, a real index; times set with utimes).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../memory/open-store.js';
import { dirNamesCache } from './dir-cache.js';

const root = mkdtempSync(join(tmpdir(), 'rw-dircache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function store() {
  const opened = openStore(join(root, 'state', 'index.db'));
  if (!opened.ok) throw new Error(opened.error);
  return opened.store;
}

describe('dirNamesCache', () => {
  it('answers from the index for a folder whose time did not move, and reads it again when it did', () => {
    const s = store();
    const dir = join(root, 'a');
    mkdirSync(dir);
    writeFileSync(join(dir, 'one.jsonl'), '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(dir, old, old);
    const first = dirNamesCache(s, { trust: true });
    expect(first.names(dir)).toEqual(['one.jsonl']);
    first.save();
    // A new file, the folder's time put back: the kept listing answers (so it was not read) …
    writeFileSync(join(dir, 'two.jsonl'), '');
    utimesSync(dir, old, old);
    expect(dirNamesCache(s, { trust: true }).names(dir)).toEqual(['one.jsonl']);
    // … and untrusted (index --rebuild) it is read.
    expect(dirNamesCache(s, { trust: false }).names(dir).sort()).toEqual(['one.jsonl', 'two.jsonl']);
    // The time moved: read again.
    const later = new Date(Date.now() - 30_000);
    utimesSync(dir, later, later);
    expect(dirNamesCache(s, { trust: true }).names(dir).sort()).toEqual(['one.jsonl', 'two.jsonl']);
    expect(dirNamesCache(s, { trust: true }).names(join(root, 'missing'))).toEqual([]);
    s.close();
  });

  it('keeps no listing of a folder changed in the last two seconds (an entry made in the same tick would not move its time)', () => {
    const s = store();
    const dir = join(root, 'b');
    mkdirSync(dir);
    writeFileSync(join(dir, 'one.jsonl'), '');
    const cache = dirNamesCache(s, { trust: true });
    expect(cache.names(dir)).toEqual(['one.jsonl']);
    cache.save();
    expect(s.dirListings().has(dir)).toBe(false);
    s.close();
  });
});
