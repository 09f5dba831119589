// `recapwrap resume` over pi session files written here (#18 point 10): a typo at the picker asks again,
// rows do not repeat the title inside the recap, sessions live in a wrapper are marked, and an empty
// list exits 1 like `sessions` (#37), with the way to every folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveState, writeLiveState } from '../../../test/helpers/live-state.js';
import { encodePiCwd } from '../../transcripts/pi/paths.js';
import { displayWidth } from '../../util/text-width.js';
import { runResume, type ResumeDeps } from './resume-run.js';

let home: string;
const CWD = '/work/proj';
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rw-resume-run-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

// A small pi (v3) session: one prompt, one answer that asks a question.
function writePiSession(name: string, prompt: string, answer: string, minute: number): string {
  const dir = join(home, '.pi', 'agent', 'sessions', encodePiCwd(CWD));
  mkdirSync(dir, { recursive: true });
  const t = (s: number) => new Date(Date.UTC(2026, 10, 22, 8, minute, s)).toISOString();
  const lines = [
    { type: 'session', version: 3, id: name, timestamp: t(0), cwd: CWD },
    { type: 'message', id: 'a1', parentId: null, timestamp: t(1), message: { role: 'user', content: [{ type: 'text', text: prompt }], timestamp: 1 } },
    { type: 'message', id: 'a2', parentId: 'a1', timestamp: t(2), message: { role: 'assistant', content: [{ type: 'text', text: answer }], provider: 'x', model: 'y', stopReason: 'stop', timestamp: 2 } },
  ];
  const file = join(dir, `${t(0).replace(/[:.]/g, '-')}_${name}.jsonl`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

function deps(answers: Array<string | null>, over: Partial<ResumeDeps> = {}): ResumeDeps & { written: string[]; launched: string[][] } {
  const written: string[] = [];
  const launched: string[][] = [];
  return {
    env: { HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config'), PATH: '/nonexistent' },
    cwd: CWD,
    columns: 80,
    now: Date.UTC(2026, 10, 22, 9, 0, 0),
    interactive: true,
    ask: async () => (answers.length ? (answers.shift() as string | null) : null),
    write: (t) => written.push(t),
    launch: async (command, args, _agent, cwd, draft) => (launched.push([command, ...args, `cwd=${cwd}`, `draft=${draft ?? ''}`]), 0),
    written,
    launched,
    ...over,
  };
}

describe('recapwrap resume', () => {
  it('--list and --json with no sessions exit 1, like `sessions` (#37), and point at --all; --pick with none fails', async () => {
    const list = await runResume(undefined, { list: true }, deps([]));
    expect(list).toEqual({ out: '', err: `recapwrap: no agent sessions for ${CWD} (\`recapwrap resume --all\` looks in every folder)\n`, code: 1 });
    expect(await runResume(undefined, { json: true }, deps([]))).toEqual({ out: '[]\n', err: '', code: 1 });
    expect((await runResume(undefined, { pick: '1' }, deps([]))).code).toBe(1);
    expect((await runResume(undefined, {}, deps([]))).code).toBe(1);
    expect((await runResume(undefined, { list: true, all: true }, deps([]))).err).not.toContain('--all');
  });

  it('--all --list names each session (what `resume NAME` takes), and --cwd reaches the REF plan (#37)', async () => {
    writePiSession('s1', 'fix the failing test', 'Fixed it.', 1);
    const all = await runResume(undefined, { list: true, all: true }, deps([]));
    expect(all.code).toBe(0);
    expect(all.out).toMatch(/^ 1\. pi +\d+[smhd] ago {2}proj-fix-failing-test {2}\/work\/proj {2}fix the failing test$/m);
    // Narrower: the folder goes, the title stays.
    const narrow = await runResume(undefined, { list: true, all: true }, deps([], { columns: 64 }));
    expect(narrow.out).toMatch(/^ 1\. pi +\d+[smhd] ago {2}proj-fix-failing-test {2}fix the failing test$/m);
    const asked: Array<string | undefined> = [];
    await runResume('proj-fix-failing-test', { cwd: '/tmp' }, deps([], { planRef: async (_r, _c, _n, folder) => (asked.push(folder), { kind: 'not-one' }) }));
    await runResume('proj-fix-failing-test', {}, deps([null], { planRef: async (_r, _c, _n, folder) => (asked.push(folder), { kind: 'not-one' }) }));
    expect(asked).toEqual(['/tmp', undefined]);
  });

  it('a query that matches nothing exits 1 (#28 point 9); a pick past the list too', async () => {
    writePiSession('s1', 'fix the failing test', 'Fixed it.', 1);
    expect(await runResume('no-such-words', { list: true }, deps([]))).toEqual({ out: '', err: `recapwrap: no agent sessions for ${CWD} matching "no-such-words" (\`recapwrap resume --all no-such-words\` looks in every folder)\n`, code: 1 });
    expect(await runResume('no-such-words', { json: true }, deps([]))).toEqual({ out: '[]\n', err: '', code: 1 });
    expect((await runResume('failing', { list: true }, deps([]))).code).toBe(0);
    expect((await runResume(undefined, { pick: '9' }, deps([]))).code).toBe(1);
  });

  it('asks again after an answer that is not on the list, then resumes the one picked', async () => {
    writePiSession('s1', 'fix the failing test', 'Fixed it. Shall I run the tests?', 1);
    writePiSession('s2', 'add a verbose flag', 'Added it.', 2);
    const d = deps(['abc', '9', ' 2 ']);
    const r = await runResume(undefined, {}, d);
    expect(r.code).toBe(0);
    expect(d.written.filter((w) => w.includes('is not on the list'))).toEqual([
      '  "abc" is not on the list: type a number from 1 to 2, or q\n',
      '  "9" is not on the list: type a number from 1 to 2, or q\n',
    ]);
    expect(d.launched).toHaveLength(1);
    expect(d.launched[0]?.[0]).toBe('pi');
    expect(d.launched[0]?.join(' ')).toContain('s1'); // the older one is number 2
    expect(d.launched[0]?.at(-1)).toBe('draft=');
    // The end of input (Ctrl-D) at the picker quits quietly.
    expect((await runResume(undefined, {}, deps([null]))).code).toBe(0);
  });

  it('Nr at the prompt reads session N (#41), lists again and asks again', async () => {
    const older = writePiSession('s1', 'fix the failing test', 'Fixed it.', 1);
    writePiSession('s2', 'add a verbose flag', 'Added it.', 2);
    const read: string[] = [];
    const d = deps(['2r', 'q'], { read: async (file) => void read.push(file) });
    const r = await runResume(undefined, {}, d);
    expect(r.code).toBe(0);
    expect(read).toEqual([older]);
    expect(d.launched).toHaveLength(0);
    expect(d.written.filter((w) => w.includes('add a verbose flag'))).toHaveLength(2);
  });

  it('rows at 80 columns fit and do not quote the title again in the recap', async () => {
    writePiSession('s1', 'fix the failing test in the duration parser', 'I fixed the double conversion in src/duration.ts. Shall I run npm test again?', 1);
    const r = await runResume(undefined, { list: true }, deps([]));
    const [head, recap] = r.out.trimEnd().split('\n') as [string, string];
    expect(head).toContain('fix the failing test in the duration parser');
    expect(recap).not.toContain('fix the failing test');
    for (const l of r.out.trimEnd().split('\n')) expect(displayWidth(l)).toBeLessThanOrEqual(80);
  });

  it('marks a session that a live recapwrap is running', async () => {
    const file = writePiSession('s1', 'fix the failing test', 'Done.', 1);
    writePiSession('s2', 'add a verbose flag', 'Added it.', 2);
    const stateDir = join(home, 'state', 'recapwrap');
    mkdirSync(stateDir, { recursive: true });
    writeLiveState(stateDir, liveState({ cwd: CWD, sessionFile: file, tmuxPane: '%7' }));
    const r = await runResume(undefined, { list: true }, deps([]));
    const heads = r.out.split('\n').filter((l) => /^ *\d+\./.test(l));
    expect(heads[0]).not.toContain('[live');
    expect(heads[1]).toContain('[live in %7]');
    const json = JSON.parse((await runResume(undefined, { json: true }, deps([]))).out) as Array<{ live?: unknown }>;
    expect(json[1]?.live).toEqual({ pid: process.pid, pane: '%7' });
  });

  it('N+ at the prompt resumes N with its next step typed as a draft', async () => {
    writePiSession('s1', 'fix the failing test', 'Fixed it. Shall I run the tests?', 1);
    const d = deps(['1+']);
    await runResume(undefined, {}, d);
    expect(d.launched).toHaveLength(1);
    expect(d.launched[0]?.at(-1)).toMatch(/^draft=\S/);
  });
});

describe('recapwrap resume REF', () => {
  const plan = { agent: 'codex' as const, id: 'abc', cwd: '/elsewhere/billing', command: 'codex', args: ['resume', 'abc'], fresh: false, name: 'billing-fk', draft: 'fix the FK' };

  it('a REF naming one session relaunches it in its own folder with its draft, without listing', async () => {
    const asked: Array<[string, string, boolean]> = [];
    const d = deps([], { planRef: async (ref, cwd, next) => (asked.push([ref, cwd, next]), { kind: 'plan', plan }) });
    const r = await runResume('@@billing-fk', { next: true }, d);
    expect(r.code).toBe(0);
    expect(asked).toEqual([['@@billing-fk', CWD, true]]);
    expect(d.launched).toEqual([['codex', 'resume', 'abc', 'cwd=/elsewhere/billing', 'draft=fix the FK']]);
    expect(d.written).toEqual([]);
  });

  it('a REF that names no single session filters the list as before; --list never relaunches', async () => {
    writePiSession('s1', 'fix the failing test', 'Done.', 1);
    const d = deps([null], { planRef: async () => ({ kind: 'not-one' }) });
    await runResume('failing', {}, d);
    expect(d.written.join('')).toContain('fix the failing test');
    expect(d.launched).toEqual([]);
    let asked = false;
    const listed = await runResume('failing', { list: true }, deps([], { planRef: async () => ((asked = true), { kind: 'plan', plan }) }));
    expect(asked).toBe(false);
    expect(listed.out).toContain('fix the failing test');
  });

  it('a session whose folder is gone is an error (exit 1)', async () => {
    const r = await runResume('x', {}, deps([], { planRef: async () => ({ kind: 'error', message: 'the folder of session x is gone: /nope' }) }));
    expect(r).toEqual({ out: '', err: 'recapwrap: the folder of session x is gone: /nope\n', code: 1 });
  });
});
