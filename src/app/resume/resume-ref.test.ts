// planResumeRef over a real index (SQLite in a temp state folder) built from a real pi session file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../config/load.js';
import { encodePiCwd } from '../../transcripts/pi/paths.js';
import { planResumeRef } from './resume-ref.js';

let home: string;
let project: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rw-resume-ref-'));
  project = join(home, 'proj');
  mkdirSync(project);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function writePiSession(id: string): string {
  const dir = join(home, '.pi', 'agent', 'sessions', encodePiCwd(project));
  mkdirSync(dir, { recursive: true });
  const t = (s: number) => new Date(Date.UTC(2026, 10, 22, 8, 0, s)).toISOString();
  const lines = [
    { type: 'session', version: 3, id, timestamp: t(0), cwd: project },
    { type: 'message', id: 'a1', parentId: null, timestamp: t(1), message: { role: 'user', content: [{ type: 'text', text: 'fix the duration parser' }], timestamp: 1 } },
    { type: 'message', id: 'a2', parentId: 'a1', timestamp: t(2), message: { role: 'assistant', content: [{ type: 'text', text: 'I fixed the double conversion in src/duration.ts. Shall I run npm test again?' }], provider: 'x', model: 'y', stopReason: 'stop', timestamp: 2 } },
  ];
  const file = join(dir, `${t(0).replace(/[:.]/g, '-')}_${id}.jsonl`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

const env = () => ({ HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config') });
const plan = (ref: string, next: boolean, cwd = '/') => planResumeRef({ ref, cwd, env: env(), options: resolveConfig({ env: env(), cwd: home }).options, next });

describe('planResumeRef', () => {
  it('an id prefix from any folder: the agent, its folder, its own resume flag; --next adds the next step', async () => {
    const file = writePiSession('9d1c77aa-1111-4222-8333-444455556666');
    const r = await plan('9d1c77', true);
    expect(r.kind).toBe('plan');
    if (r.kind !== 'plan') return;
    expect(r.plan).toMatchObject({ agent: 'pi', cwd: project, command: 'pi', fresh: false });
    expect(r.plan.args.join(' ')).toContain(file);
    expect(r.plan.draft).toMatch(/npm test/);
    const without = await plan('9d1c77', false);
    expect(without.kind === 'plan' && without.plan.draft).toBeUndefined();
  });

  it('a transcript that is gone: a fresh session with the reference block as the draft', async () => {
    const file = writePiSession('7e2f0000-1111-4222-8333-444455556666');
    expect((await plan('7e2f', false)).kind).toBe('plan'); // indexed now
    rmSync(file);
    const r = await plan('7e2f', false);
    expect(r.kind === 'plan' && r.plan).toMatchObject({ command: 'pi', args: [], fresh: true });
    expect(r.kind === 'plan' && r.plan.draft).toMatch(/^Earlier session @@\S+ \(pi, 2026-11-22 08:00 UTC\)\nfolder: /);
  });

  it('a folder that is gone: says how to go on; --cwd relaunches it elsewhere (#37)', async () => {
    writePiSession('6b6b0000-1111-4222-8333-444455556666');
    expect((await plan('6b6b', false)).kind).toBe('plan'); // indexed now
    rmSync(project, { recursive: true });
    const r = await plan('6b6b', false);
    expect(r.kind).toBe('error');
    expect(r.kind === 'error' && r.message).toMatch(/folder of session \S+ is gone: .*\n.*recapwrap resume 6b6b --cwd DIR/);
    const elsewhere = await planResumeRef({ ref: '6b6b', cwd: home, env: env(), options: resolveConfig({ env: env(), cwd: home }).options, next: false, folder: home });
    expect(elsewhere.kind === 'plan' && elsewhere.plan).toMatchObject({ cwd: home, command: 'pi', fresh: false });
  });

  it('a REF that names nothing is not one session', async () => {
    writePiSession('5a5a0000-1111-4222-8333-444455556666');
    expect(await plan('zzzz-no-such', false)).toEqual({ kind: 'not-one' });
  });
});

describe('planResumeRef names', () => {
  it('a word that only matches a name loosely stays a query; @@word is refused with the name it meant', async () => {
    writePiSession('3c3c0000-1111-4222-8333-444455556666');
    const exact = await plan('3c3c0000', false);
    expect(exact.kind).toBe('plan');
    const name = exact.kind === 'plan' ? exact.plan.name : '';
    expect((await plan(name, false)).kind).toBe('plan');
    const word = name.split('-')[0] as string;
    expect(await plan(word, false)).toEqual({ kind: 'not-one' });
    // `@@word` is a reference, not a query: a guess from part of a name launches nothing (the bug: a
    // forgotten name resumed another session).
    expect(await plan(`@@${word}`, false)).toEqual({ kind: 'error', message: `no session named "${word}"; did you mean "${name}"? (give its full name)` });
    expect((await plan(`@@${name}`, false)).kind).toBe('plan');
  });
});
