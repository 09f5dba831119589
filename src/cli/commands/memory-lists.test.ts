// What a new user met in `sessions`, `show` and `name` (#37): every row keeps its name and headline at 80
// columns, a cut list says so, an ambiguous REF lists id prefixes that name each session alone, started is
// never after updated, and a name cannot take the shape of an id or the start of another session's id.
// Real SQLite under a temp state folder, the command's own code (runMemoryCommand).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexFile } from '../../app/memory/api.js';
import { openStore } from '../../memory/open-store.js';
import type { SessionWrite } from '../../memory/types.js';
import { displayWidth } from '../../util/text-width.js';
import { runMemoryCommand, uniqueIdPrefixes, type MemoryDeps } from './memory-run.js';

const root = mkdtempSync(join(tmpdir(), 'rw-mem-lists-'));
const home = join(root, 'home');
const env = { HOME: home, RECAPWRAP_STATE_DIR: join(root, 'state'), RECAPWRAP_GENERATOR: 'heuristic' };
const NOW = Date.parse('2026-11-25T12:00:00Z');
const HEADLINE = 'billing · migrated 4 of 7 tables to the v2 schema: waiting for you';

function write(i: number, over: Partial<SessionWrite> = {}): SessionWrite {
  const transcript = join(root, 't', `${i}.jsonl`);
  writeFileSync(transcript, '{}\n');
  return {
    id: `019dcd9${i % 2}-aaaa-7bbb-8ccc-${String(i).padStart(12, '0')}`, agent: 'claude', transcript, cwd: `/home/someone/work/clients/acme/project-${i}`,
    project: 'billing', headline: HEADLINE, line: 'recap: x', updatedAt: NOW - i * 60_000, counts: { prompts: 1, turns: 1, toolCalls: 0 }, status: 'idle',
    language: 'en', tags: [], generator: { type: 'heuristic' }, done: [], next: [], artifacts: [], text: '> migrate the billing tables',
    nameHints: { task: 'migrate the billing tables to the new schema version', files: [], commands: [] }, mark: { size: 3, mtimeMs: 1, entry: 's' }, ...over,
  };
}

const deps = (columns: number): MemoryDeps => ({ env, cwd: home, now: NOW, columns, color: false });

beforeAll(() => {
  mkdirSync(join(root, 't'), { recursive: true });
  mkdirSync(home, { recursive: true });
  const opened = openStore(indexFile(env));
  if (!opened.ok) throw new Error(opened.error);
  for (let i = 0; i < 25; i++) opened.store.upsert(write(i));
  // Two sessions of one name in two folders (an ambiguous REF), and one whose header is later than its last message.
  opened.store.upsert(write(30, { cwd: '/srv/a/myproj', project: 'myproj', nameHints: { task: '', files: [], commands: [] } }));
  opened.store.upsert(write(31, { cwd: '/srv/b/myproj', project: 'myproj', nameHints: { task: '', files: [], commands: [] } }));
  opened.store.upsert(write(40, { createdAt: NOW + 3_600_000, updatedAt: NOW - 3_600_000, project: 'late', nameHints: { task: 'late header', files: [], commands: [] } }));
  opened.store.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('sessions, show and name as a new user meets them', () => {
  it('at 80 columns every row keeps its whole name and a readable headline; the folder goes first', async () => {
    const r = await runMemoryCommand('sessions', [], {}, deps(80));
    const lines = r.out.trimEnd().split('\n');
    expect(lines).toHaveLength(20);
    const names = (JSON.parse((await runMemoryCommand('sessions', [], { json: true }, deps(80))).out) as Array<{ name: string }>).map((x) => x.name);
    for (const [i, line] of lines.entries()) {
      expect(displayWidth(line)).toBeLessThanOrEqual(80);
      expect(line.startsWith(names[i] + ' ')).toBe(true);
      expect(line).toContain('billing · migrated 4 of 7');
      expect(line).not.toContain('acme');
    }
    // Wide: every column, the folder too.
    const wide = await runMemoryCommand('sessions', [], {}, deps(200));
    expect(wide.out.split('\n')[1]).toMatch(/claude\s+\d+[smhd]\s+…\S*project-0\s+billing · migrated 4 of 7 tables to the v2 schema: waiting for you$/);
  });

  it('a cut list says how many there are, on stderr and never in --json', async () => {
    const r = await runMemoryCommand('sessions', [], {}, deps(80));
    expect(r.err).toBe('20 of 28 sessions (--limit N for more)\n');
    expect((await runMemoryCommand('sessions', [], { limit: '100' }, deps(80))).err).toBe('');
    const json = await runMemoryCommand('sessions', [], { json: true }, deps(80));
    expect(json.err).toBe('');
    expect(JSON.parse(json.out)).toHaveLength(20);
  });

  // A new user's `search hello` showed 10 of 18 matches and said nothing (#small item 2).
  it('bug-regression: a search cut by its limit says how many sessions match, on stderr and never in --json', async () => {
    const r = await runMemoryCommand('search', ['billing'], {}, deps(80));
    expect(r.code).toBe(0);
    expect(r.err).toBe('10 of 28 sessions (--limit N for more)\n');
    expect((await runMemoryCommand('search', ['billing'], { limit: '3' }, deps(80))).err).toBe('3 of 28 sessions (--limit N for more)\n');
    expect((await runMemoryCommand('search', ['billing'], { limit: '28' }, deps(80))).err).toBe('');
    // The count is of the sessions the filter keeps.
    expect((await runMemoryCommand('search', ['billing'], { folder: '/srv' }, deps(80))).err).toBe('');
    const json = await runMemoryCommand('search', ['billing'], { json: true }, deps(80));
    expect(json.err).toBe('');
    expect(JSON.parse(json.out)).toHaveLength(10);
  });

  it('an ambiguous name lists aligned rows, each led by an id prefix that names that session alone', async () => {
    const r = await runMemoryCommand('show', ['myproj'], {}, deps(Number.POSITIVE_INFINITY));
    expect(r.code).toBe(2);
    const rows = r.err.trimEnd().split('\n').slice(1);
    expect(rows).toHaveLength(2);
    const prefixes = rows.map((l) => l.trim().split(/\s+/)[0] as string);
    // The ids share their first 8 characters with other sessions' ids: the prefixes are longer.
    expect(prefixes.every((p) => p.length > 8)).toBe(true);
    for (const p of prefixes) expect((await runMemoryCommand('show', [p], {}, deps(200))).code).toBe(0);
    expect(rows.map((l) => l.indexOf('myproj'))).toEqual([rows[0]?.indexOf('myproj'), rows[0]?.indexOf('myproj')]);
    expect(rows.map((l) => l.indexOf('claude'))[0]).toBe(rows[1]?.indexOf('claude'));
  });

  it('shortest unique prefixes: 8 characters when enough, longer when not', () => {
    const ids = ['aaaaaaaa-1', 'aaaaaaaa-2', 'bbbbbbbb-3'];
    const resolve = (p: string) => {
      const hits = ids.filter((id) => id.startsWith(p));
      return hits.length === 1 ? hits[0] : undefined;
    };
    expect(uniqueIdPrefixes(ids, resolve)).toEqual(['aaaaaaaa-1', 'aaaaaaaa-2', 'bbbbbbbb']);
  });

  it('started is the earliest stamp and updated the latest', async () => {
    const r = await runMemoryCommand('show', ['late-header'], { json: true }, deps(200));
    const card = JSON.parse(r.out) as { createdAt: string; updatedAt: string };
    expect(Date.parse(card.createdAt)).toBeLessThanOrEqual(Date.parse(card.updatedAt));
    expect(card.createdAt).toBe(new Date(NOW - 3_600_000).toISOString());
    expect(card.updatedAt).toBe(new Date(NOW + 3_600_000).toISOString());
  });

  it('refuses a name shaped like an id (exit 2) or the start of a session id (exit 1); @@name is always a name', async () => {
    // `name` takes an exact REF only (late-header is part of the session's name): its id.
    const ref = (JSON.parse((await runMemoryCommand('show', ['late-header'], { json: true }, deps(200))).out) as { id: string }).id;
    const idLike = await runMemoryCommand('name', [ref, '019dcd90-aaaa'], {}, deps(200));
    expect(idLike.code).toBe(2);
    expect(idLike.err).toContain('looks like a session id');
    const prefix = await runMemoryCommand('name', [ref, '019d'], {}, deps(200));
    expect(prefix.code).toBe(1);
    expect(prefix.err).toContain("the start of session 019dcd9");
    expect((await runMemoryCommand('name', [ref, ''], {}, deps(200))).code).toBe(2);
    // A name that is also the start of an id: @@ finds the name, the bare word the id.
    expect((await runMemoryCommand('name', [ref, 'cafe'], {}, deps(200))).code).toBe(0);
    const named = JSON.parse((await runMemoryCommand('show', ['@@cafe'], { json: true }, deps(200))).out) as { name: string };
    expect(named.name).toBe('cafe');
  });

  it('a session indexed before its first prompt (named the bare project) is named again once it has a task', () => {
    const opened = openStore(indexFile(env));
    if (!opened.ok) throw new Error(opened.error);
    const store = opened.store;
    const empty = write(50, { cwd: '/srv/c/myproj', project: 'myproj', counts: { prompts: 0, turns: 0, toolCalls: 0 }, nameHints: { task: '', files: [], commands: [] } });
    // No prompt yet: no row (the demo quit at once; an agent opened and closed).
    store.upsert(empty);
    expect(store.get(empty.id)).toBeUndefined();
    // A row indexed before that rule, named the bare project.
    store.db.prepare('INSERT INTO sessions(id, agent, transcript, cwd, project, name, headline, line, updated_at, prompts, turns, tool_calls, status, language, tags, generator, done, next, artifacts, mark_size, mark_mtime, mark_entry, indexed_at) SELECT id, agent, ?, cwd, project, ?, headline, line, updated_at, 0, 0, 0, status, language, tags, generator, done, next, artifacts, 0, 0, \'\', 0 FROM sessions LIMIT 1').run(empty.transcript, 'myproj');
    store.db.prepare('UPDATE sessions SET id = ?, cwd = ? WHERE transcript = ?').run(empty.id, empty.cwd, empty.transcript);
    expect(store.get(empty.id)?.name).toBe('myproj');
    store.upsert({ ...empty, counts: { prompts: 1, turns: 1, toolCalls: 2 }, nameHints: { task: 'fix the failing test', files: [], commands: [] } });
    expect(store.get(empty.id)?.name).toBe('myproj-fix-failing-test');
    // Once it has a name from a task, later turns keep it.
    store.upsert({ ...empty, counts: { prompts: 2, turns: 2, toolCalls: 3 }, nameHints: { task: 'something else entirely', files: [], commands: [] } });
    expect(store.get(empty.id)?.name).toBe('myproj-fix-failing-test');
    store.close();
  });

  it('memory off says where it was turned off: the config file, or the environment (#37)', async () => {
    const other = join(root, 'off-home');
    mkdirSync(join(other, '.config', 'recapwrap'), { recursive: true });
    writeFileSync(join(other, '.config', 'recapwrap', 'config.json'), '{ "memory": false }\n');
    const offDeps = (extra: Record<string, string>): MemoryDeps => ({ ...deps(80), env: { HOME: other, RECAPWRAP_STATE_DIR: join(other, 'state'), ...extra }, cwd: other });
    const byFile = await runMemoryCommand('sessions', [], {}, offDeps({}));
    expect(byFile).toMatchObject({ code: 1, err: 'recapwrap: session memory is off (`"memory": false` in ~/.config/recapwrap/config.json)\n' });
    const byEnv = await runMemoryCommand('sessions', [], {}, offDeps({ RECAPWRAP_MEMORY: 'false' }));
    expect(byEnv.err).toBe('recapwrap: session memory is off (RECAPWRAP_MEMORY=false in the environment)\n');
  });
});
