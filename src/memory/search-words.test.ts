// Every word a session holds (issue 42), as the store answers: a word of its vocabulary only (a tool's
// whole output) finds it; exact before stem before prefix; words joined as typed; a typo's hint; and a
// query too long for SQLite refused with a message (issue 40 item 9). Real SQLite, real files.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionWriteFixture } from '../../test/helpers/session-write.js';
import { openStore } from './open-store.js';
import { migrate, SCHEMA_VERSION } from './schema.js';
import type { SearchResult, Store } from './store.js';
import { HIT_END, HIT_START } from './types.js';
import { VocabularyBuilder, vocabularyOf } from './vocabulary.js';

let dir: string;
const stores: Store[] = [];
function open(): Store {
  const r = openStore(join(dir, 'index.db'));
  if (!r.ok) throw new Error(r.error);
  stores.push(r.store);
  return r.store;
}
let clock = Date.parse('2026-11-20T10:00:00Z');
// A session whose condensed text is `text` and whose vocabulary is made of `text` and `elsewhere` (what its file holds beyond it).
function put(store: Store, id: string, text: string, elsewhere = '') {
  store.upsert(sessionWriteFixture({ id, cwd: `/home/u/${id}`, project: id, text, words: vocabularyOf([text, elsewhere]), updatedAt: (clock += 60_000) }));
}
const ids = (r: ReturnType<Store['search']>) => ('hits' in r ? r.hits.map((h) => h.id) : []);

beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'rw-words-')), 'state');
});
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  rmSync(join(dir, '..'), { recursive: true, force: true });
});

describe('every word a session holds', () => {
  it('finds a word said only in a tool output past what the condensed text keeps (issue 42: openpyxl)', () => {
    const store = open();
    put(store, 'rubric', '> grade the PLN rubric\n$ python3 grade.py → failed', 'Traceback (most recent call last):\n' + 'line\n'.repeat(100) + "ModuleNotFoundError: No module named 'openpyxl'");
    put(store, 'other', '> fix the login page');
    expect(ids(store.search('openpyxl'))).toEqual(['rubric']);
  });

  it('ranks a word in the prompts and answers above the same word only in tool output, never losing the latter', () => {
    const store = open();
    put(store, 'output', '> run the suite', 'warning: the vectordb index is stale');
    put(store, 'prose', '> move the vectordb index to disk');
    expect(ids(store.search('vectordb'))).toEqual(['prose', 'output']);
  });

  it('ranks a one-word query over hundreds of holders as the whole ranking does (its shortcut scores only the best)', () => {
    const store = open();
    // The word as typed in the prose, said 1-6 times (bm25 varies; alike texts tie); by its stem only, said
    // more often (bm25 scores these best: they must still come after the word as typed); as typed only in a
    // tool's output; and sessions without it.
    for (let i = 0; i < 420; i++) {
      const times = 1 + (i % 6);
      const text = [`> ${'deploy the app '.repeat(times)}`, `> ${'deployed deploys '.repeat(times * 3)}`, `> check the logs of run ${i}`, `> fix page ${i}`][i % 4] as string;
      put(store, `s${i}`, text, i % 4 === 2 ? 'deploy finished' : '');
    }
    // 315 hold it by stem, 105 of them as typed too: the best 200 read (limits 1 to 50), or all of them (80).
    for (const limit of [1, 10, 50, 80]) {
      const quick = store.search('deploy', { limit });
      // A filter (every session passes it) makes search rank every holder.
      const whole = store.search('deploy', { limit, since: 0 });
      expect(ids(quick)).toEqual(ids(whole));
      expect(ids(quick)).toHaveLength(limit);
      expect('total' in quick && quick.total).toBe('total' in whole && whole.total);
      expect('total' in quick && quick.total).toBe(315);
    }
  });

  it('ranks a query of several words over hundreds of holders as the whole ranking does (its shortcut scores only the best)', () => {
    const store = open();
    // Both words as typed in the prose, said 1-5 times (bm25 varies; alike texts tie); both by their stems
    // only, said more often (bm25 scores these best: they must still come after); one word only; one as
    // typed only in a tool's output; and sessions with neither.
    for (let i = 0; i < 720; i++) {
      const times = 1 + (Math.floor(i / 6) % 5);
      const text = [`> ${'deploy the cache '.repeat(times)}`, `> ${'deployed deploys caches cached '.repeat(times * 3)}`, `> ${'deploy the app '.repeat(times)}`, `> check the cache of run ${i}`, `> fix page ${i}`, `> ${'deploy it '.repeat(times)}`][i % 6] as string;
      put(store, `s${i}`, text, i % 6 === 5 ? 'cache cleared' : '');
    }
    // 240 sessions hold both by stem, 120 of them as typed too: the shortcut reads the best 200 of the 240
    // (limits 1 to 50), or all of them (90); past 120 it cannot answer (130) and the whole ranking runs.
    for (const query of ['deploy cache', 'cache deploy', 'deploy the cache']) {
      for (const limit of [1, 10, 50, 90, 130]) {
        const quick = store.search(query, { limit });
        // A filter (every session passes it) makes search rank every holder.
        const whole = store.search(query, { limit, since: 0 });
        expect(ids(quick), `${query} ${limit}`).toEqual(ids(whole));
        expect(ids(quick)).toHaveLength(limit);
        expect('total' in quick && quick.total).toBe('total' in whole && whole.total);
        expect('total' in quick && quick.total).toBe(600);
        expect('hits' in quick && quick.hits.map((h) => [h.matched, h.snippet, h.score])).toEqual('hits' in whole && whole.hits.map((h) => [h.matched, h.snippet, h.score]));
      }
    }
  });

  it('a query of several words whose best holders tie past the rows its shortcut reads is ranked whole (recency among them all)', () => {
    const store = open();
    // 150 alike sessions holding both words as typed (one bm25 score: recency orders them) after 150 that
    // hold them by stem only and score better: the best 200 read end inside the tie.
    for (let i = 0; i < 300; i++) put(store, `s${i}`, i % 2 ? '> deploy the cache' : `> ${'deployed caches '.repeat(4)}`);
    const quick = store.search('deploy cache', { limit: 10 });
    expect(ids(quick)).toEqual(ids(store.search('deploy cache', { limit: 10, since: 0 })));
    // The newest of the alike ones.
    expect(ids(quick)).toEqual(Array.from({ length: 10 }, (_, k) => `s${299 - 2 * k}`));
  });

  it('puts the session saying redis first, and never a redirect for it (issue 42: stem redi + prefix)', () => {
    const store = open();
    put(store, 'cache', '> why does the page fail\n[Redis Cache] Error: connection refused');
    for (const id of ['r1', 'r2', 'r3', 'r4', 'r5']) put(store, id, `> the login redirect loops\nI fixed the redirect in ${id}.ts: it now redirects once.`);
    expect(ids(store.search('redis'))).toEqual(['cache']);
    expect(ids(store.search('Redis cache'))[0]).toBe('cache');
  });

  it('ranks a session holding the word as typed above one holding only its stem', () => {
    const store = open();
    put(store, 'stem', '> the tokens expire too soon; refresh each token');
    put(store, 'typed', '> set up the ML pipeline', 'Successfully installed tokenizers-0.19.1');
    expect(ids(store.search('tokenizers'))).toEqual(['typed', 'stem']);
  });

  it('matches the start of a word only for the last word as it is typed (the picker), never a whole word', () => {
    const store = open();
    put(store, 'deploy', '> make the deployment script idempotent');
    expect(ids(store.search('deplo'))).toEqual([]);
    expect(ids(store.search('deplo', {}, { prefixLast: true }))).toEqual(['deploy']);
    expect(ids(store.search('deplo script', {}, { prefixLast: true }))).toEqual(['deploy']);
    expect(ids(store.search('deplo script ', {}, { prefixLast: true }))).toEqual(['deploy']); // by `script` only
    expect((store.search('deplo script ', {}, { prefixLast: true }) as SearchResult).hits[0]?.matched).toEqual(['script']);
  });

  it('finds a word joined by - or _ as typed first (shared-layout, velocity_high)', () => {
    const store = open();
    put(store, 'apart', '> the layout is shared between pages; velocity is high');
    put(store, 'joined', '> update the page', 'edited src/app/shared-layout.tsx; VELOCITY_HIGH = 30');
    expect(ids(store.search('shared-layout'))[0]).toBe('joined');
    expect(ids(store.search('velocity_high'))[0]).toBe('joined');
  });

  it('finds a name or flag joined of many parts as typed, and one held only inside a longer joined word by its parts', () => {
    const store = open();
    put(store, 'lambda', '> deploy the handler', 'env: AWS_LAMBDA_FUNCTION_NAME=thumbs\nread AWS_LAMBDA_FUNCTION_NAME; node --max-old-space-size=4096 app.js');
    put(store, 'apart', '> the aws lambda function has a name; set the max old space size');
    put(store, 'bentley', '> list the cars', 'fetched /wiki/1954_Bentley_R-Type_Continental twice');
    expect(ids(store.search('aws_lambda_function_name'))).toEqual(['lambda']);
    // The prose saying its words in a row (a phrase of the ranked text) comes after the flag as typed.
    expect(ids(store.search('--max-old-space-size'))).toEqual(['lambda', 'apart']);
    // Inside a joined word of five parts: no session holds `type_continental` as typed; its parts find it.
    expect(ids(store.search('type_continental'))).toEqual(['bentley']);
    // Once a session holds the word as typed, those are the answers (exact first; parts are the fallback).
    put(store, 'typed', '> compare', 'the type_continental column');
    expect(ids(store.search('type_continental'))).toEqual(['typed']);
  });

  it('finds a word written with its version (python3.11, openpyxl==3.1.2) said only in tool output', () => {
    const store = open();
    // As a file's read makes it: the tool output said twice (its short numbers are not kept), the condensed text said.
    const v = new VocabularyBuilder();
    for (let i = 0; i < 2; i++) v.add('Successfully installed openpyxl==3.1.2; /usr/bin/python3.11 -m pip list');
    v.add('> grade the rubric', true);
    expect(v.text().split(' ')).not.toContain('11');
    store.upsert(sessionWriteFixture({ id: 'grader', text: '> grade the rubric', words: v.text(), updatedAt: (clock += 60_000) }));
    put(store, 'other', '> fix the login page');
    expect(ids(store.search('python3.11'))).toEqual(['grader']);
    expect(ids(store.search('openpyxl==3.1.2'))).toEqual(['grader']);
  });

  it('among sessions holding the words only outside their ranked text, puts the shorter transcript first, then the newer', () => {
    const store = open();
    const at = (id: string, bytes: number, text: string, elsewhere: string) =>
      store.upsert(sessionWriteFixture({ id, cwd: `/home/u/${id}`, project: id, text, words: vocabularyOf([text, elsewhere]), updatedAt: (clock += 60_000), mark: { size: bytes, mtimeMs: 1, entry: 's1' } }));
    // The long session holds every word of everything it read; the short one read the skill script itself.
    at('short', 40_000, '> add the bastion check', 'cat skill.sh: set -e; run the skill');
    at('long', 9_000_000, '> port the whole site', 'skill tree … bash sh -c … every file of the site');
    at('newest', 20_000_000, '> audit the repo', 'the skill of reading sh scripts');
    expect(ids(store.search('skill.sh'))).toEqual(['short', 'long', 'newest']);
  });

  it('finds a folder of a Windows path whose name starts with n, r or t, and a word after a written-out escape', () => {
    const store = open();
    put(store, 'windows', '> list the folder', 'Get-ChildItem D:\\tools\\testrez -Force; cd D:\\tools\\testrez');
    put(store, 'escaped', '> write the requirements', 'requirements.txt: "pandas==2.2\\nopenpyxl==3.1.2\\nrequests"');
    expect(ids(store.search('testrez'))).toEqual(['windows']);
    expect(ids(store.search('openpyxl'))).toEqual(['escaped']);
  });

  it('marks the query word and its other forms, never a longer word that only starts alike (come ≠ complete)', () => {
    const store = open();
    put(store, 'come', '> come back to the compaction later; the complete run comes first');
    const r = store.search('come') as SearchResult;
    const marked = [...(r.hits[0]?.snippet ?? '').matchAll(new RegExp(`${HIT_START}([^${HIT_END}]*)${HIT_END}`, 'g'))].map((m) => m[1]);
    expect(marked).toEqual(['come', 'comes']);
  });

  it('offers the closest indexed word for a typo no session holds', () => {
    const store = open();
    put(store, 'films', '> chart the box office data', 'bollywood films by year; bollywood revenue');
    const r = store.search('bollywod') as SearchResult;
    expect(r.hits).toEqual([]);
    expect(r.suggestion).toBe('bollywood');
    expect((store.search('box bollywod') as SearchResult).suggestion).toBeUndefined(); // a hit: no hint
    expect((store.search('qqqzzzxx') as SearchResult).suggestion).toBeUndefined();
  });

  it('corrects a typo in the second letter, and every word of the query that has one', () => {
    const store = open();
    put(store, 'hello', '> print hello world and the listing of files', 'listing files: hello world');
    // The second letter left out or wrong: the words starting alike in two letters hold none of them.
    expect((store.search('lsting') as SearchResult).suggestion).toBe('listing');
    expect((store.search('hellp wrld') as SearchResult).suggestion).toBe('hello world');
  });

  it('refuses a query or a word too long with a message, never an SQLite error (issue 40 item 9)', () => {
    const store = open();
    put(store, 'a', '> anything');
    const word = store.search('x'.repeat(50_000));
    expect(word).toEqual({ error: expect.stringMatching(/^Expected words of at most 200 characters, got one of 50000$/) });
    const query = store.search('word '.repeat(1000));
    expect(query).toEqual({ error: expect.stringMatching(/^Expected a query of at most 2000 characters/) });
  });

  it('upgrades an index of schema step 8: words for the rows no refresh reads again, from their kept text', () => {
    const file = join(dir, 'index.db');
    const first = open();
    first.close();
    stores.length = 0;
    // Back to step 8 as an older recapwrap left it: a session whose transcript is gone.
    const db = new Database(file);
    db.exec('DROP TABLE refreshes; DROP TABLE session_words_vocab; DROP TABLE session_words; ALTER TABLE sessions DROP COLUMN word_parts; ALTER TABLE sessions DROP COLUMN words_at; PRAGMA user_version = 8');
    db.close();
    const old = new Database(file);
    migrate(old, 8);
    old.prepare("INSERT INTO sessions(id, agent, transcript, cwd, project, name, updated_at, prompts, transcript_exists) VALUES ('gone', 'claude', '/t/gone.jsonl', '/home/u/x', 'x', 'x-gone', 1, 1, 0)").run();
    old.prepare("INSERT INTO session_body(rowid, text) SELECT rowid, '> tune the kubeflow pipeline' FROM sessions WHERE id = 'gone'").run();
    old.close();
    const store = open();
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.db.prepare('SELECT count(*) FROM session_words').pluck().get()).toBe(1);
    expect(ids(store.search('kubeflow'))).toEqual(['gone']);
  });
});
