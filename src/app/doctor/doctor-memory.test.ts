// The doctor's session-memory lines (#37 item 12) over a real index in a temp state folder: on/off and what
// set it, the folders, the index (path, size, sessions, last write), SQLite with FTS5; never creates the index.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../memory/open-store.js';
import { checkMemory } from './doctor-memory.js';
import { indexFile } from '../memory/api.js';

const root = mkdtempSync(join(tmpdir(), 'rw-doctor-mem-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const NOW = Date.parse('2026-11-25T12:00:00Z');

describe('doctor: session memory', () => {
  it('an index not built yet is said, not created; SQLite has FTS5', () => {
    const env = { HOME: root, RECAPWRAP_STATE_DIR: join(root, 'fresh') };
    const results = checkMemory(env, root, NOW);
    expect(results.map((r) => [r.name, r.status])).toEqual([['session memory', 'ok'], ['session index', 'skip'], ['sqlite', 'ok']]);
    expect(results[0]?.detail).toBe('on, every folder');
    expect(results[1]?.detail).toBe('~/fresh/index.db: not built yet (`recapwrap index` builds it; every memory command does first)');
    expect(results[2]?.detail).toMatch(/^SQLite 3\.\d+\.\d+ with FTS5/);
    expect(existsSync(indexFile(env))).toBe(false);
  });

  it('an index: where, how big, how many sessions, when last written; the folders kept', () => {
    const env = { HOME: root, RECAPWRAP_STATE_DIR: join(root, 'state'), RECAPWRAP_MEMORY_FOLDERS: '~/work:~/oss' };
    const opened = openStore(indexFile(env));
    if (!opened.ok) throw new Error(opened.error);
    opened.store.upsert({
      id: 's1', agent: 'pi', transcript: join(root, 's1.jsonl'), cwd: join(root, 'work'), project: 'work', headline: 'h', line: 'recap: x', updatedAt: NOW,
      counts: { prompts: 1, turns: 1, toolCalls: 0 }, status: 'idle', language: 'en', tags: [], generator: { type: 'heuristic' }, done: [], next: [], artifacts: [],
      text: '> hi', nameHints: { task: 'hi there', files: [], commands: [] }, mark: { size: 1, mtimeMs: 1, entry: 'e' },
    }, NOW - 3 * 60_000);
    opened.store.close();
    const results = checkMemory(env, root, NOW);
    expect(results[0]?.detail).toBe('on, only ~/work, ~/oss');
    expect(results[1]).toMatchObject({ name: 'session index', status: 'ok' });
    expect(results[1]?.detail).toMatch(/^~\/state\/index\.db: \d+ KB, 1 session, last written 3m ago$/);
  });

  it('memory off: says what turned it off, and nothing else', () => {
    mkdirSync(join(root, 'cfg', 'recapwrap'), { recursive: true });
    writeFileSync(join(root, 'cfg', 'recapwrap', 'config.json'), '{ "memory": false }');
    const results = checkMemory({ HOME: root, XDG_CONFIG_HOME: join(root, 'cfg'), RECAPWRAP_STATE_DIR: join(root, 'off') }, root, NOW);
    expect(results).toEqual([{ name: 'session memory', status: 'skip', detail: 'off (`"memory": false` in ~/cfg/recapwrap/config.json): sessions, search, show, the picker and MCP have nothing to read' }]);
  });
});
