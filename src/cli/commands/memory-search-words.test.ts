// `search` as a user meets it (issues 42 and 40 item 9), the command's own code over real SQLite: a typo
// with no hit says "did you mean", the JSON failure object carries the suggestion; a query too long is
// refused with a clear message, exit 2, in JSON too.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexFile } from '../../app/memory/api.js';
import { openStore } from '../../memory/open-store.js';
import { vocabularyOf } from '../../memory/vocabulary.js';
import { sessionWriteFixture } from '../../../test/helpers/session-write.js';
import { runMemoryCommand, type MemoryDeps } from './memory-run.js';

const root = mkdtempSync(join(tmpdir(), 'rw-mem-words-'));
const home = join(root, 'home');
const env = { HOME: home, RECAPWRAP_STATE_DIR: join(root, 'state'), RECAPWRAP_GENERATOR: 'heuristic' };
const deps: MemoryDeps = { env, cwd: home, now: Date.parse('2026-11-25T12:00:00Z'), columns: 100, color: false };

beforeAll(() => {
  mkdirSync(join(root, 't'), { recursive: true });
  mkdirSync(home, { recursive: true });
  const opened = openStore(indexFile(env));
  if (!opened.ok) throw new Error(opened.error);
  const transcript = join(root, 't', 'films.jsonl');
  writeFileSync(transcript, '{}\n');
  const text = '> chart the box office data story';
  opened.store.upsert(sessionWriteFixture({ id: 'films', transcript, text, words: vocabularyOf([text, 'bollywood films by year']), mark: { size: 3, mtimeMs: 1, entry: 's' } }));
  opened.store.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('search', () => {
  it('offers the closest indexed word for a typo with no hit, on stderr and in the JSON', async () => {
    const text = await runMemoryCommand('search', ['bollywod'], {}, deps);
    expect(text.code).toBe(1);
    expect(text.err).toContain('recapwrap: no session matches "bollywod"; did you mean "bollywood"?');
    const json = await runMemoryCommand('search', ['bollywod'], { json: true }, deps);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ code: 1, suggestion: 'bollywood' });
    expect(JSON.parse((await runMemoryCommand('search', ['bollywood'], { json: true }, deps)).out)[0].id).toBe('films');
  });

  it('refuses a word of 50,000 characters with a clear message, exit 2 (never an SQLite error)', async () => {
    const r = await runMemoryCommand('search', ['x'.repeat(50_000)], {}, deps);
    expect(r.code).toBe(2);
    expect(r.err).toBe('recapwrap: Expected words of at most 200 characters, got one of 50000\n');
    const json = await runMemoryCommand('search', ['a '.repeat(1500)], { json: true }, deps);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.out)).toEqual({ error: 'Expected a query of at most 2000 characters, got 3000', code: 2 });
  });
});
