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
import type { SessionWrite } from './types.js';

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

function write(over: Partial<SessionWrite> & { id: string }): SessionWrite {
  return {
    agent: 'claude', transcript: `/t/${over.id}.jsonl`, cwd: '/home/u/shop', project: 'shop', headline: 'headline', line: 'recap: x',
    updatedAt: Date.parse('2026-11-20T10:00:00Z'), counts: { prompts: 1, turns: 1, toolCalls: 0 }, status: 'idle', language: 'en', tags: [],
    generator: { type: 'heuristic' }, done: [], next: [], artifacts: [], text: '> fix the checkout page', nameHints: { task: 'fix the checkout page', files: [], commands: [] },
    mark: { size: 10, mtimeMs: 1, entry: 's1' },
    ...over,
  };
}

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
