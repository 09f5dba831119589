// The refresh's own folder listing: a folder is read again only when its modification time moved, and a
// full sweep hands back a folder's files only when their sizes or times moved (real folders, a real
// index; times set with utimes).
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../memory/open-store.js';
import { folderSweep, type SweepMode } from './dir-cache.js';

const root = mkdtempSync(join(tmpdir(), 'rw-dircache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function store() {
  const opened = openStore(join(root, 'state', 'index.db'));
  if (!opened.ok) throw new Error(opened.error);
  return opened.store;
}

const all = () => true;
const id = (file: string) => file;
// One sweep of `dir`: the names of the files handed back, and whether the folder was compared.
function sweepOnce(s: ReturnType<typeof store>, dir: string, mode: SweepMode, recent?: Map<string, string[]>) {
  const sweep = folderSweep(s, { mode, recent });
  const names = sweep.list('pi', dir, all, id).map((f) => f.file.slice(dir.length + 1)).sort();
  const result = { names, compared: sweep.compared.has(dir), found: sweep.found };
  sweep.save();
  return result;
}

describe('folderSweep', () => {
  it('answers from the index for a folder whose time did not move, and reads it again when it did', () => {
    const s = store();
    const dir = join(root, 'a');
    mkdirSync(dir);
    writeFileSync(join(dir, 'one.jsonl'), 'x');
    const old = new Date(Date.now() - 60_000);
    utimesSync(dir, old, old);
    expect(sweepOnce(s, dir, 'full')).toEqual({ names: ['one.jsonl'], compared: true, found: 1 });
    // A new file, the folder's time put back: the kept listing answers (so it was not read) …
    writeFileSync(join(dir, 'two.jsonl'), 'x');
    utimesSync(dir, old, old);
    expect(sweepOnce(s, dir, 'full')).toEqual({ names: [], compared: false, found: 1 });
    // … and rebuilding, it is read.
    expect(sweepOnce(s, dir, 'rebuild').names).toEqual(['one.jsonl', 'two.jsonl']);
    // The time moved: read again.
    const later = new Date(Date.now() - 30_000);
    utimesSync(dir, later, later);
    expect(sweepOnce(s, dir, 'full')).toEqual({ names: ['one.jsonl', 'two.jsonl'], compared: true, found: 2 });
    expect(folderSweep(s, { mode: 'full' }).list('pi', join(root, 'missing'), all, id)).toEqual([]);
    s.close();
  });

  it('full: hands back the files of a folder only when one of them grew or changed time', () => {
    const s = store();
    const dir = join(root, 'grow');
    mkdirSync(dir);
    writeFileSync(join(dir, 'one.jsonl'), 'x');
    writeFileSync(join(dir, 'two.jsonl'), 'x');
    const old = new Date(Date.now() - 60_000);
    utimesSync(dir, old, old);
    sweepOnce(s, dir, 'full');
    expect(sweepOnce(s, dir, 'full')).toEqual({ names: [], compared: false, found: 2 });
    // Appended to (the folder's time does not move): the full sweep sees it; a quick refresh does not.
    appendFileSync(join(dir, 'two.jsonl'), 'more');
    expect(sweepOnce(s, dir, 'quick')).toEqual({ names: [], compared: false, found: 0 });
    expect(sweepOnce(s, dir, 'full')).toEqual({ names: ['one.jsonl', 'two.jsonl'], compared: true, found: 2 });
    expect(sweepOnce(s, dir, 'full').names).toEqual([]);
    s.close();
  });

  it('quick: in a folder that did not move, only the recent sessions named are stat-ed', () => {
    const s = store();
    const dir = join(root, 'quick');
    mkdirSync(dir);
    for (const n of ['old.jsonl', 'recent.jsonl']) writeFileSync(join(dir, n), 'x');
    const old = new Date(Date.now() - 60_000);
    utimesSync(dir, old, old);
    sweepOnce(s, dir, 'full');
    expect(sweepOnce(s, dir, 'quick', new Map([[dir, ['recent.jsonl']]]))).toEqual({ names: ['recent.jsonl'], compared: false, found: 1 });
    // A new file moves the folder's time: read whole.
    writeFileSync(join(dir, 'new.jsonl'), 'x');
    expect(sweepOnce(s, dir, 'quick')).toEqual({ names: ['new.jsonl', 'old.jsonl', 'recent.jsonl'], compared: true, found: 3 });
    s.close();
  });

  it('keeps no listing of a folder changed in the last two seconds (an entry made in the same tick would not move its time)', () => {
    const s = store();
    const dir = join(root, 'b');
    mkdirSync(dir);
    writeFileSync(join(dir, 'one.jsonl'), 'x');
    sweepOnce(s, dir, 'full');
    expect(s.dirListings().has(dir)).toBe(false);
    expect(sweepOnce(s, dir, 'full').names).toEqual(['one.jsonl']);
    s.close();
  });

  it('reports the kept folders that no longer exist', () => {
    const s = store();
    const dir = join(root, 'vanishing');
    mkdirSync(dir);
    writeFileSync(join(dir, 'one.jsonl'), 'x');
    const old = new Date(Date.now() - 60_000);
    utimesSync(dir, old, old);
    sweepOnce(s, dir, 'full');
    rmSync(dir, { recursive: true });
    const sweep = folderSweep(s, { mode: 'quick' });
    expect(sweep.vanished()).toContain(dir);
    sweep.save({ drop: sweep.vanished() });
    expect(s.dirListings().has(dir)).toBe(false);
    s.close();
  });
});
