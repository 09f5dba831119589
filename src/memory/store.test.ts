import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from './open-store.js';
import { migrate, SCHEMA_VERSION } from './schema.js';
import type { Store } from './store.js';
import { HIT_END, HIT_START } from './types.js';
import { sessionWriteFixture } from '../../test/helpers/session-write.js';

let dir: string;
let file: string;
const stores: Store[] = [];

function open(): Store {
  const r = openStore(file);
  if (!r.ok) throw new Error(r.error);
  stores.push(r.store);
  return r.store;
}

const write = sessionWriteFixture;

beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'rw-store-')), 'state');
  file = join(dir, 'index.db');
});
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  rmSync(join(dir, '..'), { recursive: true, force: true });
});

describe('the session store', () => {
  it('creates a private WAL database at the latest schema', () => {
    const store = open();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    store.upsert(write({ id: 'a1' }));
    for (const f of readdirSync(dir)) expect(statSync(join(dir, f)).mode & 0o077, f).toBe(0);
  });

  it('merges its text indexes and gives the freed pages back to the disk (compact)', () => {
    const store = open();
    expect(store.db.pragma('auto_vacuum', { simple: true })).toBe(2);
    // Many small writes (each its own segments), then each session written again (the old versions linger).
    const words = (i: number) => Array.from({ length: 300 }, (_, k) => `w${i}x${k}`).join(' ');
    for (let round = 0; round < 2; round++) for (let i = 0; i < 120; i++) store.upsert(write({ id: `s${i}`, transcript: `/t/s${i}.jsonl`, text: `> task ${i} round ${round} ${words(i + round)}`, words: words(i + round) }));
    store.checkpoint(0);
    const pages = () => store.db.pragma('page_count', { simple: true }) as number;
    const before = pages();
    store.compact();
    store.checkpoint(0);
    expect(store.db.pragma('freelist_count', { simple: true })).toBe(0);
    expect(pages()).toBeLessThan(before * 0.9);
    expect(statSync(file).size).toBe(pages() * (store.db.pragma('page_size', { simple: true }) as number));
    // Still found after it: the last version of each, not the first.
    const found = store.search('w7x3');
    expect('hits' in found ? found.hits.map((h) => h.id) : found).toEqual(['s6']);
  });

  it('names sessions from project and task, unique per folder, and keeps a user name', () => {
    const store = open();
    store.upsert(write({ id: 'a1' }));
    store.upsert(write({ id: 'a2', transcript: '/t/a2.jsonl' }));
    store.upsert(write({ id: 'a3', transcript: '/t/a3.jsonl', cwd: '/home/u/other' }));
    expect(store.get('a1')?.name).toBe('shop-fix-checkout-page');
    expect(store.get('a2')?.name).toBe('shop-fix-checkout-page-2');
    expect(store.get('a3')?.name).toBe('shop-fix-checkout-page');
    expect(store.rename('a2', 'Checkout v2')).toEqual({ ok: true, name: 'checkout-v2' });
    expect(store.rename('a1', 'checkout-v2')).toMatchObject({ ok: false });
    store.upsert(write({ id: 'a2', transcript: '/t/a2.jsonl', text: '> later prompt', mark: { size: 20, mtimeMs: 2, entry: 's2' } }));
    store.setModelSummary('a2', { name: 'model-name', description: 'd', summary: 's', tags: ['t'], next: 'n' }, { type: 'openai', model: 'm' });
    expect(store.get('a2')).toMatchObject({ name: 'checkout-v2', userNamed: true, summary: 's' });
    store.setModelSummary('a1', { name: 'Checkout Flow Fix', description: 'd', summary: 's', tags: ['t'], next: 'n' }, { type: 'openai', model: 'm' });
    expect(store.get('a1')).toMatchObject({ name: 'checkout-flow-fix', generator: { type: 'openai', model: 'm' }, next: ['n'] });
  });

  it('resolves id, id prefix, exact name, fuzzy name and @@name; ambiguity lists the candidates', () => {
    const store = open();
    store.upsert(write({ id: 'abcdef-1' }));
    store.upsert(write({ id: 'abcxyz-2', transcript: '/t/2.jsonl', nameHints: { task: 'add dark mode', files: [], commands: [] } }));
    expect(store.resolve('abcdef-1')).toMatchObject({ ok: true, row: { id: 'abcdef-1' } });
    expect(store.resolve('abcx')).toMatchObject({ ok: true, row: { id: 'abcxyz-2' } });
    expect(store.resolve('abc')).toMatchObject({ ok: false }); // too short for a prefix; no name has it either
    expect(store.resolve('@@shop-add-dark-mode')).toMatchObject({ ok: true, row: { id: 'abcxyz-2' } });
    expect(store.resolve('dark')).toMatchObject({ ok: true, row: { id: 'abcxyz-2' } });
    const amb = store.resolve('shop');
    expect(amb).toMatchObject({ ok: false, kind: 'ambiguous' });
    expect(amb.ok ? [] : amb.candidates.map((c) => c.id).sort()).toEqual(['abcdef-1', 'abcxyz-2']);
    expect(store.resolve('nothing-like-it')).toMatchObject({ ok: false, kind: 'none' });
    // A fuzzy match says it is one (show says so, a writer refuses it); an exact one does not.
    expect(store.resolve('dark')).toMatchObject({ loose: true });
    expect(store.resolve('@@dark')).toMatchObject({ loose: true });
    for (const exact of ['abcdef-1', 'abcx', 'shop-add-dark-mode', '@@shop-add-dark-mode']) expect(store.resolve(exact), exact).not.toHaveProperty('loose');
    expect(store.resolve('dark', { exact: true })).toMatchObject({ ok: false, kind: 'none', candidates: [{ id: 'abcxyz-2' }] });
  });

  it('refuses a user name another session holds in any folder, and names no session after one later', () => {
    const store = open();
    store.upsert(write({ id: 'b1' }));
    store.upsert(write({ id: 'b2', transcript: '/t/b2.jsonl', cwd: '/home/u/other' }));
    expect(store.rename('b2', 'shop-fix-checkout-page')).toEqual({ ok: false, error: 'the name shop-fix-checkout-page is taken by claude session b1 in /home/u/shop; choose another' });
    expect(store.rename('b2', 'my-login')).toEqual({ ok: true, name: 'my-login' });
    expect(store.rename('b2', 'My Login')).toEqual({ ok: true, name: 'my-login' }); // its own name again
    expect(store.rename('b1', 'my-login')).toMatchObject({ ok: false, error: expect.stringContaining('/home/u/other') });
    // An automatic name in a third folder steps around the name the user gave.
    store.upsert(write({ id: 'b3', transcript: '/t/b3.jsonl', cwd: '/home/u/third', project: 'my', nameHints: { task: 'login', files: [], commands: [] } }));
    expect(store.get('b3')?.name).toBe('my-login-2');
    expect(store.resolve('my-login')).toMatchObject({ ok: true, row: { id: 'b2' } });
  });

  it('searches plain words with bm25 and a highlighted snippet; odd queries never throw', () => {
    const store = open();
    store.upsert(write({ id: 'a1', text: '> migrate the billing tables\nThe invoices table fails its FK constraint' }));
    store.upsert(write({ id: 'a2', transcript: '/t/a2.jsonl', text: '> billing dashboard colours' }));
    const r = store.search('invoices constraint');
    expect('hits' in r && r.hits.map((h) => h.id)).toEqual(['a1']);
    const hit = 'hits' in r ? r.hits[0] : undefined;
    expect(hit?.snippet).toContain(`${HIT_START}invoices${HIT_END}`);
    for (const q of ['"foo', '(bar', '-x', 'a*', 'AND', 'OR NOT', 'NEAR(', "'; DROP TABLE sessions; --", 'billing)']) {
      expect(() => store.search(q), q).not.toThrow();
    }
    expect('hits' in store.search('billing)') && (store.search('billing)') as { hits: unknown[] }).hits).toHaveLength(2);
    expect(store.search('')).toMatchObject({ error: expect.stringContaining('Expected words') });
    expect(store.search('  "  ')).toMatchObject({ error: expect.any(String) });
    expect(store.count()).toBe(2);
  });

  it('filters by agent, folder (and below) and time', () => {
    const store = open();
    store.upsert(write({ id: 'a1', cwd: '/home/u/shop' }));
    store.upsert(write({ id: 'a2', transcript: '/t/a2.jsonl', agent: 'codex', cwd: '/home/u/shop/web', updatedAt: Date.parse('2026-11-01T00:00:00Z') }));
    store.upsert(write({ id: 'a3', transcript: '/t/a3.jsonl', cwd: '/home/u/shopping' }));
    expect(store.list({ folder: '/home/u/shop' }).map((s) => s.id).sort()).toEqual(['a1', 'a2']);
    expect(store.list({ agent: 'codex' }).map((s) => s.id)).toEqual(['a2']);
    expect(store.list({ since: Date.parse('2026-11-10T00:00:00Z') }).map((s) => s.id).sort()).toEqual(['a1', 'a3']);
    expect(store.list({ limit: 1 })).toHaveLength(1);
    // search: ranked, limited and filtered alike, every hit with its own snippet
    store.upsert(write({ id: 'a4', transcript: '/t/a4.jsonl', agent: 'codex', cwd: '/home/u/shop', text: '> refund refund refund flow' }));
    store.upsert(write({ id: 'a5', transcript: '/t/a5.jsonl', cwd: '/home/u/shop', text: '> refund flow, then the shipping page and the cart and more words' }));
    const ids = (f: Parameters<Store['search']>[1]) => (store.search('refund', f) as { hits: Array<{ id: string; snippet: string }> }).hits.map((h) => `${h.id}:${h.snippet.includes(`${HIT_START}refund${HIT_END}`)}`);
    expect(ids({})).toEqual(['a4:true', 'a5:true']);
    expect(ids({ limit: 1 })).toEqual(['a4:true']);
    expect(ids({ agent: 'claude' })).toEqual(['a5:true']);
    expect(ids({ folder: '/home/u/shopping' })).toEqual([]);
  });

  it('masks secrets in everything it stores: nothing of the key is in the files', () => {
    const key = 'sk-proj-Zq8XwV7uT6sR5qP4oN3mL2kJ1iH0gF9e';
    const store = open();
    store.upsert(write({ id: 'a1', headline: `use ${key}`, text: `> my key is ${key} please wire up the weather widget`, nameHints: { task: `wire ${key}`, files: [], commands: [] } }));
    expect('hits' in store.search('weather') && (store.search('weather') as { hits: unknown[] }).hits).toHaveLength(1);
    expect((store.search(key) as { hits: unknown[] }).hits).toHaveLength(0);
    store.close();
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f)).includes('Zq8XwV7uT6sR5qP4oN3mL2kJ1iH0gF9e'), f).toBe(false);
  });

  it('forgets for good: row, text and the text in the files; the file is remembered as forgotten', () => {
    const store = open();
    store.upsert(write({ id: 'a1', text: '> the zanzibar-unique-word project' }));
    store.upsert(write({ id: 'a2', transcript: '/t/a2.jsonl' }));
    expect(store.forget(['a1']).count).toBe(1);
    expect(store.get('a1')).toBeUndefined();
    expect((store.search('zanzibar') as { hits: unknown[] }).hits).toHaveLength(0);
    expect(store.isForgotten('/t/a1.jsonl')).toBe(true);
    store.upsert(write({ id: 'a1', text: '> again' }));
    expect(store.get('a1')).toBeUndefined();
    expect(store.forgetFolder('/home/u').count).toBe(1);
    expect(store.count()).toBe(0);
    store.close();
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f)).includes('zanzibar'), f).toBe(false);
  });

  it('forgets every version of a session\'s text, the ones its updates replaced included', () => {
    let store = open();
    store.upsert(write({ id: 'a1', text: '> tune the xylophonequark widget' }));
    store.upsert(write({ id: 'a1', text: '> tune the widget, second version' })); // the session grew: its text replaced
    store.upsert(write({ id: 'a2', transcript: '/t/a2.jsonl', text: '> another session' }));
    expect((store.search('xylophonequark') as { hits: unknown[] }).hits).toHaveLength(0);
    store.close();
    // Replacing text leaves the old version's words in the index's older segments (no secure-delete on updates) …
    const inFiles = () => readdirSync(dir).some((f) => readFileSync(join(dir, f)).includes('xylophonequark'));
    expect(inFiles()).toBe(true);
    store = open();
    expect(store.forget(['a1']).count).toBe(1);
    store.close();
    // … and forgetting the session removes them too.
    expect(inFiles()).toBe(false);
    store = open();
    expect((store.search('another') as { hits: unknown[] }).hits).toHaveLength(1);
  });

  it('keeps rows whose transcript is gone, marked so', () => {
    const store = open();
    store.upsert(write({ id: 'a1' }));
    store.markGone(['/t/a1.jsonl']);
    expect(store.get('a1')).toMatchObject({ transcriptExists: false });
    expect(store.fileMarks().get('/t/a1.jsonl')?.state).toBe('gone');
  });

  it('migrates a version-1 database and keeps the names users gave', () => {
    mkdirSync(dir, { mode: 0o700 });
    const db = new Database(file);
    migrate(db, 1);
    db.prepare("INSERT INTO sessions(id, agent, transcript, cwd, project, name, user_named, updated_at) VALUES ('old', 'pi', '/t/old.jsonl', '/w', 'w', 'my-own-name', 1, 1)").run();
    db.prepare("INSERT INTO session_text(rowid, head, body, summary) SELECT rowid, name, 'old body words', '' FROM sessions").run();
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    db.close();
    chmodSync(file, 0o600);
    const store = open();
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.get('old')).toMatchObject({ name: 'my-own-name', userNamed: true, summaryPrompts: 0 });
    store.upsert(write({ id: 'old', transcript: '/t/old.jsonl', text: '> new words' }));
    expect(store.get('old')?.name).toBe('my-own-name');
    expect((store.search('new words') as { hits: unknown[] }).hits).toHaveLength(1);
  });

  it('moves a corrupt database aside (kept) with one warning, and starts a new one', () => {
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(file, 'this is not a database '.repeat(400), { mode: 0o600 });
    const r = openStore(file);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    stores.push(r.store);
    expect(r.warning).toMatch(/unreadable .*kept it as .*index\.db\.corrupt-/);
    const aside = readdirSync(dir).filter((f) => f.startsWith('index.db.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0] as string), 'utf8')).toContain('this is not a database');
    r.store.upsert(write({ id: 'a1' }));
    expect(r.store.count()).toBe(1);
  });

  it('refuses a database planted as a symlink, and a state folder open to others', () => {
    mkdirSync(dir, { mode: 0o700 });
    const elsewhere = join(dir, '..', 'elsewhere.db');
    writeFileSync(elsewhere, '');
    symlinkSync(elsewhere, file);
    expect(openStore(file)).toMatchObject({ ok: false, error: expect.stringContaining('symbolic link') });
    rmSync(file);
    chmodSync(dir, 0o777);
    expect(openStore(file)).toMatchObject({ ok: false, error: expect.stringContaining('writable by other users') });
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a database of a newer recapwrap rather than guess', () => {
    mkdirSync(dir, { mode: 0o700 });
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(openStore(file)).toMatchObject({ ok: false, error: expect.stringContaining('newer recapwrap') });
  });
});
