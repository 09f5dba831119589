// Regression: `sessions` and `search` with `--host NAME` / `--all-hosts` printed no "N of M" line when the
// list was cut, so a host's 20 sessions of 25 looked like all of them. Host many is a pulled copy of 25
// sessions (mirror mode: counted exactly); host canned is asked over ssh (`ssh` on PATH is a stand-in that
// records its argv and answers the list in the file `answer`): its JSON has no total, so it is asked for
// one more than is shown.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../config/load.js';
import { runMemoryCommand } from '../../cli/commands/memory-run.js';
import { describeCutList } from './merge.js';
import { mirrorDir, openMirror } from './mirror.js';

const root = mkdtempSync(join(tmpdir(), 'rw-host-cut-'));
const bin = join(root, 'bin');
const argvFile = join(root, 'ssh-argv');
const answerFile = join(root, 'answer');
const env: Record<string, string> = {
  HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'cfg'), RECAPWRAP_STATE_DIR: join(root, 'state'),
  PATH: `${bin}:${process.env.PATH ?? ''}`,
};
const deps = { env, cwd: env.HOME as string, now: Date.now(), columns: 400, color: false };
const idOf = (i: number) => `0d3c2b1a-2222-4333-8444-${String(i).padStart(12, '0')}`;
const timeOf = (i: number) => new Date(Date.UTC(2026, 10, 1, 10, i)).toISOString();

// `count` pi sessions of folder `cwd` under `home`, each prompt holding "walrus".
function layOutSessions(home: string, cwd: string, count: number, first: number): void {
  const dir = join(home, '.pi', 'agent', 'sessions', `-${cwd.replaceAll('/', '-')}--`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (let i = first; i < first + count; i++) {
    const [id, t] = [idOf(i), timeOf(i)];
    writeFileSync(join(dir, `${t.replaceAll(/[:.]/g, '-')}_${id}.jsonl`), [
      { type: 'session', version: 3, id, timestamp: t, cwd },
      { type: 'message', id: 'u1', parentId: null, timestamp: t, message: { role: 'user', content: [{ type: 'text', text: `walrus task ${i}` }], timestamp: Date.parse(t) } },
      { type: 'message', id: 'a1', parentId: 'u1', timestamp: t, message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }], timestamp: Date.parse(t) } },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n');
  }
}

// What a host's `sessions --json` prints: `count` rows.
function answerRows(count: number): void {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: idOf(500 + i), agent: 'pi', cwd: '/home/me/far', project: 'far', name: `far-walrus-${i}`, headline: 'far · walrus',
    createdAt: timeOf(500 + i), updatedAt: timeOf(500 + i), transcript: `/home/me/.pi/agent/sessions/x/${idOf(500 + i)}.jsonl`,
  }));
  writeFileSync(answerFile, JSON.stringify(rows));
}

beforeAll(async () => {
  mkdirSync(bin, { recursive: true });
  mkdirSync(join(root, 'cfg', 'recapwrap'), { recursive: true });
  writeFileSync(join(bin, 'ssh'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}'\ncat '${answerFile}'\n`);
  chmodSync(join(bin, 'ssh'), 0o755);
  writeFileSync(join(root, 'cfg', 'recapwrap', 'config.json'), JSON.stringify({ hosts: [{ name: 'many', ssh: ['many'], mirror: true }, { name: 'canned', ssh: ['canned'] }] }));
  layOutSessions(env.HOME as string, '/home/me/here', 3, 0);
  const copy = mirrorDir(env, 'many');
  layOutSessions(join(copy, 'home'), '/home/me/proj', 25, 100);
  writeFileSync(join(copy, 'meta.json'), JSON.stringify({ remoteHome: '/home/me', pulledAt: timeOf(0) }) + '\n');
  const memory = await openMirror('many', env, resolveConfig({ env, cwd: env.HOME as string }).options);
  if ('error' in memory) throw new Error(memory.error);
  await memory.refresh();
  memory.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a host's cut list says so, as this machine's does", () => {
  it('sessions --host of a pulled copy: 20 of its 25, counted; none when all are shown; never with --json', async () => {
    const cut = await runMemoryCommand('sessions', [], { host: ['many'] }, deps);
    expect(cut.out.trimEnd().split('\n')).toHaveLength(20);
    expect(cut.err).toBe('20 of 25 sessions (--limit N for more)\n');
    expect((await runMemoryCommand('sessions', [], { host: ['many'], limit: '25' }, deps)).err).toBe('');
    const json = await runMemoryCommand('sessions', [], { host: ['many'], json: true }, deps);
    expect(JSON.parse(json.out)).toHaveLength(20);
    expect(json.err).toBe('');
  });

  it('search --host of a pulled copy counts every session that matched', async () => {
    expect((await runMemoryCommand('search', ['walrus'], { host: ['many'] }, deps)).err).toBe('10 of 25 sessions (--limit N for more)\n');
  });

  it('sessions --host asked over ssh: asked for one more, so a cut list is told from a whole one', async () => {
    answerRows(21);
    const cut = await runMemoryCommand('sessions', [], { host: ['canned'] }, deps);
    expect(readFileSync(argvFile, 'utf8')).toMatch(/ sessions --json --limit 21\b/);
    expect(cut.out.trimEnd().split('\n')).toHaveLength(20);
    expect(cut.err).toBe('20 of at least 21 sessions (--limit N for more)\n');
    answerRows(20);
    expect((await runMemoryCommand('sessions', [], { host: ['canned'] }, deps)).err).toBe('');
  });

  it("--all-hosts adds this machine's total to the hosts'", async () => {
    answerRows(0);
    expect((await runMemoryCommand('sessions', [], { allHosts: true }, deps)).err).toBe('20 of 28 sessions (--limit N for more)\n');
    answerRows(5);
    expect((await runMemoryCommand('sessions', [], { allHosts: true, limit: '40' }, deps)).err).toBe('');
  });
});

describe('describeCutList', () => {
  it('says the total when every machine counted, a lower bound when a host could not', () => {
    expect(describeCutList(20, [{ given: 20, total: 25 }, { given: 3, total: 3 }])).toBe('20 of 28 sessions (--limit N for more)\n');
    expect(describeCutList(20, [{ given: 21 }, { given: 3, total: 3 }])).toBe('20 of at least 24 sessions (--limit N for more)\n');
    expect(describeCutList(23, [{ given: 20, total: 20 }, { given: 3, total: 3 }])).toBe('');
  });
});
