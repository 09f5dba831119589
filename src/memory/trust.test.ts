// The memory's promises under a bad day, on real SQLite with real second processes: a reader never waits
// for a writer; a forgotten session stays forgotten (a missing file, a corrupt index rebuilt, a reader
// holding the log); forget acts only on an exact reference.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdIndex, type Holder } from '../../test/helpers/sqlite-holder.js';
import { openStore } from './open-store.js';
import type { Store } from './store.js';
import { sessionWriteFixture } from '../../test/helpers/session-write.js';

let dir: string;
let file: string;
const stores: Store[] = [];
const holders: Holder[] = [];

function open(busyMs?: number): Store {
  const r = openStore(file, { busyMs });
  if (!r.ok) throw new Error(r.error);
  stores.push(r.store);
  return r.store;
}

const write = sessionWriteFixture;

const inFiles = (word: string) => readdirSync(dir).filter((f) => statSync(join(dir, f)).isFile() && readFileSync(join(dir, f)).includes(word));

beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'rw-trust-')), 'state');
  file = join(dir, 'index.db');
});
afterEach(async () => {
  for (const h of holders.splice(0)) await h.release();
  for (const s of stores.splice(0)) s.close();
  rmSync(join(dir, '..'), { recursive: true, force: true });
});

describe('readers never wait for writers', () => {
  it('opens and reads the last commit in ≤ 250 ms while another process holds the write lock', async () => {
    const first = open();
    first.upsert(write({ id: 'a1' }));
    first.close();
    holders.push(await holdIndex(file, 'write', "UPDATE sessions SET name = 'uncommitted-name'"));
    const started = Date.now();
    const reader = open(3000);
    const rows = reader.list();
    const ms = Date.now() - started;
    expect(rows.map((r) => r.name)).toEqual(['shop-fix-checkout-page']);
    expect(ms).toBeLessThanOrEqual(250);
  });
});

describe('a forgotten session stays forgotten', () => {
  it('through a refresh that misses its transcript: the mark stays, the file back is not indexed', () => {
    const store = open();
    store.upsert(write({ id: 'a1' }));
    expect(store.forget(['a1']).count).toBe(1);
    store.markGone(['/t/a1.jsonl']); // an unmounted disk, a renamed folder: one refresh without the file
    expect(store.isForgotten('/t/a1.jsonl')).toBe(true);
    store.upsert(write({ id: 'a1', text: '> back again' }));
    expect(store.get('a1')).toBeUndefined();
  });

  it('through a corrupt index rebuilt, and through an index deleted by hand: the forgotten list outlives it', () => {
    let store = open();
    store.upsert(write({ id: 'a1' }));
    store.upsert(write({ id: 'a2', transcript: '/t/a2.jsonl' }));
    store.forget(['a1']);
    store.close();
    const list = join(dir, 'forgotten');
    expect(statSync(list).mode & 0o777).toBe(0o600);
    expect(readFileSync(list, 'utf8')).toContain('/t/a1.jsonl');
    expect(readFileSync(list, 'utf8')).not.toContain('checkout'); // names the file, holds no text
    writeFileSync(file, 'this is not a database '.repeat(400));
    const r = openStore(file);
    if (!r.ok) throw new Error(r.error);
    stores.push(r.store);
    expect(r.warning).toMatch(/kept it as .*corrupt-.*forget/);
    store = r.store;
    for (const id of ['a1', 'a2']) store.upsert(write({ id, transcript: `/t/${id}.jsonl` })); // the rebuild reads both files
    expect(store.list().map((s) => s.id)).toEqual(['a2']);
    store.close();
    for (const f of readdirSync(dir).filter((n) => n.startsWith('index.db'))) rmSync(join(dir, f));
    store = open();
    store.upsert(write({ id: 'a1' }));
    expect(store.count()).toBe(0);
  });

  it('and its text goes from the damaged copies of the index too (a forget deletes them, and says so)', () => {
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(file, 'damaged pages that still hold zanzibarword text '.repeat(200), { mode: 0o600 });
    const store = open();
    expect(inFiles('zanzibarword')).toHaveLength(1);
    store.upsert(write({ id: 'a1', text: '> the zanzibarword project' }));
    const outcome = store.forget(['a1']);
    expect(outcome).toMatchObject({ count: 1, purged: true });
    expect(outcome.removedCopies).toHaveLength(1);
    expect(outcome.removedCopies[0]).toMatch(/index\.db\.corrupt-/);
    store.close();
    expect(inFiles('zanzibarword')).toEqual([]);
    expect(existsSync(file)).toBe(true);
  });
});

describe('forget acts only on an exact reference', () => {
  it('takes an id, a unique id prefix or the exact name; a loose name match only lists candidates', () => {
    const store = open();
    store.upsert(write({ id: 'f00d1234-aaaa', nameHints: { task: 'platypusbeta item0', files: [], commands: [] }, project: 'proj-work' }));
    const loose = store.resolve('eta', { exact: true });
    expect(loose).toMatchObject({ ok: false, kind: 'none' });
    expect(loose.ok ? [] : loose.candidates.map((c) => c.name)).toEqual(['proj-work-platypusbeta-item0']);
    expect(store.resolve('eta')).toMatchObject({ ok: true }); // show and resume keep the loose match
    for (const ref of ['f00d1234-aaaa', 'f00d', 'proj-work-platypusbeta-item0', '@@proj-work-platypusbeta-item0']) {
      expect(store.resolve(ref, { exact: true }), ref).toMatchObject({ ok: true, row: { id: 'f00d1234-aaaa' } });
    }
  });
});

describe('forgotten text and the write-ahead log', () => {
  it('says when another process reading the index keeps the text in the log, and purges it once that reader is gone', async () => {
    const store = open();
    store.upsert(write({ id: 'a1', text: '> the quokkaword migration' }));
    store.upsert(write({ id: 'a2', transcript: '/t/a2.jsonl' }));
    const reader = await holdIndex(file, 'read');
    holders.push(reader);
    const started = Date.now();
    const outcome = store.forget(['a1']);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(outcome).toMatchObject({ count: 1, purged: false });
    expect(inFiles('quokkaword').length).toBeGreaterThan(0);
    await reader.release();
    expect(store.checkpoint(1000)).toBe(true);
    expect(inFiles('quokkaword')).toEqual([]);
  });
});

describe('a forgotten session at a new path', () => {
  it('is still forgotten: a renamed folder puts the same session (agent and id) elsewhere', () => {
    const store = open();
    store.upsert(write({ id: 'a1' }));
    store.forget(['a1']);
    store.upsert(write({ id: 'a1', transcript: '/t-renamed/a1.jsonl' }));
    expect(store.get('a1')).toBeUndefined();
    expect(store.isForgotten('/t-renamed/a1.jsonl')).toBe(true);
    store.upsert(write({ id: 'a1', agent: 'codex', transcript: '/t/codex-a1.jsonl' })); // another agent's session with that id is another session
    expect(store.get('a1')?.agent).toBe('codex');
  });
});
