// #36: a recap you wrote yourself, and parent chains, through the built CLI on a temp home: a pi session
// and a session forked from it (pi's own fork format: test/fixtures/transcripts/pi/fork), indexed; `show`
// names the parent and lists the fork; `note` sets your own recap (generator user_edited), which a later
// turn does not replace, `search` finds, and `--clear` removes; MCP's get_session takes `@@name~1`.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSessionMemory } from '../../src/app/memory/api.js';
import { getSession, searchSessions } from '../../src/app/mcp/tools.js';
import { resolveConfig } from '../../src/config/load.js';
import { layOutSession, type LaidOut } from '../helpers/agent-homes.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { TRANSCRIPTS_DIR } from '../helpers/shared.js';

interface Card {
  id: string; name: string; headline: string; line: string; generator: { type: string }; note?: string; noteAt?: string;
  latest?: { line: string; generator: { type: string } }; parent?: string; parentName?: string;
  children?: { id: string; name: string; agent: string }[]; resumeCommand: string[]; forkCommand?: string[];
}

let root: string;
let env: NodeJS.ProcessEnv;
let parent: LaidOut;
let child: LaidOut;

function cli(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}
function json<T>(...args: string[]): T {
  const r = cli(...args, '--json');
  expect(r.err).toBe('');
  return JSON.parse(r.out) as T;
}

beforeAll(async () => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'rw-note-'));
  const home = join(root, 'home');
  mkdirSync(home);
  env = { PATH: process.env.PATH, HOME: home, RECAPWRAP_STATE_DIR: join(root, 'state'), RECAPWRAP_GENERATOR: 'heuristic', TERM: 'dumb' };
  parent = await layOutSession(home, 'pi', join(TRANSCRIPTS_DIR, 'pi', 'interactive-2turns.jsonl'));
  child = await layOutSession(home, 'pi', join(TRANSCRIPTS_DIR, 'pi', 'fork', 'child.jsonl'));
  // pi names the file it forked by its path: here, where the parent was laid out.
  const [head, ...rest] = readFileSync(child.file, 'utf8').split('\n');
  writeFileSync(child.file, [JSON.stringify({ ...JSON.parse(head as string), parentSession: parent.file }), ...rest].join('\n'));
  expect(cli('index').code).toBe(0);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('parent chains', () => {
  it('show --json of a forked pi session names its parent; the parent lists the fork; both can be resumed as a branch', () => {
    const p = json<Card>('show', parent.id);
    const c = json<Card>('show', child.id);
    expect(c.parent).toBe(parent.id);
    expect(c.parentName).toBe(p.name);
    expect(p.parent).toBeUndefined();
    expect(p.children).toEqual([{ id: child.id, name: c.name, agent: 'pi' }]);
    expect(c.children).toEqual([]);
    expect(c.resumeCommand).toEqual(['pi', '--session', child.file]);
    expect(c.forkCommand).toEqual(['pi', '--fork', child.file]);
    const plain = cli('show', child.id);
    expect(plain.code).toBe(0);
    expect(plain.out).toContain(`forked from ${p.name} (${parent.id})`);
    expect(cli('show', parent.id).out).toContain(`forks:      ${c.name} (pi)`);
  });

  it('MCP get_session takes @@name~1: the session and the summary of the one it was forked from', async () => {
    const memory = await openSessionMemory({ env, options: resolveConfig({ env, cwd: root }).options, cwd: root });
    if ('error' in memory) throw new Error(memory.error);
    try {
      const name = (memory.card(child.id) as Card).name;
      const ctx = { memory: async () => ({ ...memory, refresh: async () => ({}) }), cwd: root, now: () => Date.now(), answerer: { unavailable: 'off' } };
      const got = (await getSession({ session: `@@${name}~1` }, ctx)) as Card & { parents: Array<{ id: string; headline: string; done: string[] }> };
      expect(got.id).toBe(child.id);
      expect(got.parents).toHaveLength(1);
      expect(got.parents[0]).toMatchObject({ id: parent.id, headline: expect.any(String), done: expect.any(Array) });
      const plain = (await getSession({ session: `@@${name}` }, ctx)) as { parents?: unknown };
      expect(plain.parents).toBeUndefined();
      const found = (await searchSessions({ query: 'README' }, ctx)) as { sessions: Array<{ id: string; forkedFrom?: string }> };
      expect(found.sessions.find((s) => s.id === child.id)?.forkedFrom).toBe((memory.card(parent.id) as Card).name);
    } finally {
      memory.close();
    }
  });
});

describe('note: a recap you wrote yourself', () => {
  const NOTE = 'Kept hello.txt as the fake model wrote it; a README comes next, in my own words';

  it('is shown by show, sessions and search with generator user_edited, and a later turn does not replace it', () => {
    expect(cli('note', parent.id).code).toBe(2); // no text and no --clear
    const set = cli('note', parent.id, ...NOTE.split(' '));
    expect(set.code).toBe(0);
    expect(set.out).toMatch(/^noted /);
    const c = json<Card>('show', parent.id);
    expect(c.generator).toEqual({ type: 'user_edited' });
    expect(c.note).toBe(NOTE);
    expect(c.headline).toBe(NOTE); // a note's first line, up to 80 characters
    expect(c.line).toBe(`recap: ${NOTE}`);
    expect(c.latest?.generator.type).toBe('heuristic');
    expect(cli('show', parent.id).out).toContain(`recap:      ${NOTE}`);
    const row = json<Card[]>('sessions').find((r) => r.id === parent.id);
    expect(row?.generator).toEqual({ type: 'user_edited' });
    expect(row?.note).toBe(NOTE);
    const hits = json<Card[]>('search', 'own', 'words');
    expect(hits.map((h) => h.id)).toEqual([parent.id]);
    expect(hits[0]?.generator).toEqual({ type: 'user_edited' });

    // A later turn: the index writes a new recap beside the note, which stays.
    const t = '2026-11-24T09:00:0';
    appendFileSync(
      parent.file,
      [
        { type: 'message', id: 'c0ffee01', parentId: '4a461c4f', timestamp: `${t}1.000Z`, message: { role: 'user', content: [{ type: 'text', text: 'now delete hello.txt' }], timestamp: 1 } },
        { type: 'message', id: 'c0ffee02', parentId: 'c0ffee01', timestamp: `${t}2.000Z`, message: { role: 'assistant', content: [{ type: 'text', text: 'Deleted hello.txt; the folder is empty now.' }], provider: 'fake', model: 'fake-model', stopReason: 'stop', timestamp: 2 } },
      ].map((l) => JSON.stringify(l) + '\n').join(''),
    );
    expect(cli('index').out).toMatch(/^indexed 1 of 1 changed/);
    const later = json<Card>('show', parent.id);
    expect(later.note).toBe(NOTE);
    expect(later.generator).toEqual({ type: 'user_edited' });
    expect(later.latest?.line).not.toBe(c.latest?.line);
    expect(later.latest?.line).toMatch(/empty|Deleted|delete/);
  });

  it('--clear removes it: the recap the index wrote shows again, and the words are no longer found', () => {
    const cleared = cli('note', parent.id, '--clear');
    expect(cleared.code).toBe(0);
    expect(cleared.out).toMatch(/^removed your note of /);
    const c = json<Card>('show', parent.id);
    expect(c.note).toBeUndefined();
    expect(c.generator.type).toBe('heuristic');
    expect(c.latest).toBeUndefined();
    expect(cli('search', 'own', 'words').code).toBe(1);
    expect(cli('note', parent.id, 'some', 'text', '--clear').code).toBe(2);
  });
});
