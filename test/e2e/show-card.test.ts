// `recapwrap show` as a new user meets it (#43): on a narrow terminal the lines made to be pasted (the
// transcript path, the resume and fork commands) come whole, the counts read "1 prompt", `REF~1` shows
// the session a fork came from, and the path `show` prints on its transcript line is itself a REF.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePiCwd } from '../../src/transcripts/pi/paths.js';
import { displayWidth } from '../../src/util/text-width.js';
import { assertBuilt, CLI_BIN, runCliInPty } from '../helpers/cli-pty.js';

let root: string;
let home: string;
let project: string;
let parentFile: string;
let childFile: string;
const PARENT_ID = '5a6b7c8d-1111-4222-8333-444455556666';
const CHILD_ID = '9e8d7c6b-1111-4222-8333-444455556666';

// A pi (v3) session of `project`: one prompt, one answer; a fork names its parent's file in its header.
function writePi(id: string, minute: number, prompt: string, answer: string, parentSession?: string): string {
  const dir = join(home, '.pi', 'agent', 'sessions', encodePiCwd(project));
  mkdirSync(dir, { recursive: true });
  const t = (s: number) => new Date(Date.UTC(2026, 10, 22, 8, minute, s)).toISOString();
  const lines = [
    { type: 'session', version: 3, id, timestamp: t(0), cwd: project, ...(parentSession ? { parentSession } : {}) },
    { type: 'message', id: 'a1', parentId: null, timestamp: t(1), message: { role: 'user', content: [{ type: 'text', text: prompt }], timestamp: 1 } },
    { type: 'message', id: 'a2', parentId: 'a1', timestamp: t(2), message: { role: 'assistant', content: [{ type: 'text', text: answer }], provider: 'x', model: 'y', stopReason: 'stop', timestamp: 2 } },
  ];
  const file = join(dir, `${t(0).replace(/[:.]/g, '-')}_${id}.jsonl`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

const env = () => ({ ...process.env, HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config'), RECAPWRAP_STATE_DIR: join(home, 'state', 'recapwrap') });

function cli(args: string[], cwd = project): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_BIN, ...args], { cwd, env: env(), encoding: 'utf8' }, (error, out, err) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out, err }));
  });
}

beforeAll(() => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'rw-show-card-'));
  home = join(root, 'home');
  project = join(root, 'a-project-folder-with-a-long-name', 'billing-service');
  mkdirSync(project, { recursive: true });
  parentFile = writePi(PARENT_ID, 1, 'fix the invoices foreign key', 'I changed the constraint in src/invoices.ts. Shall I run npm test again?');
  childFile = writePi(CHILD_ID, 5, 'try the other migration order', 'The migration order is swapped in db/migrate.ts.', parentFile);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('recapwrap show (#43)', () => {
  it('on a 60-column terminal: the transcript path and the commands come whole; other lines fit; "1 prompt"', async () => {
    const t = runCliInPty(['show', CHILD_ID.slice(0, 8)], { cols: 60, rows: 40, cwd: project, env: env() as Record<string, string> });
    expect((await t.exit).exitCode).toBe(0);
    const lines = Buffer.from(t.output(), 'latin1').toString('utf8').replace(/\r/g, '').split('\n');
    const shortChild = '~' + childFile.slice(home.length);
    const transcript = lines.find((l) => l.startsWith('transcript: '));
    expect(transcript).toBe(`transcript: ${shortChild}`);
    expect(lines.find((l) => l.startsWith('resume: '))).toBe(`resume:     recapwrap pi --session ${shortChild}`);
    expect(lines.find((l) => l.startsWith('fork: '))).toContain(`(pi --fork ${shortChild})`);
    expect(lines.find((l) => l.startsWith('read: '))).toMatch(/^read: +recapwrap read [\w-]+$/); // a command to paste: whole
    expect(lines[0]).toContain(CHILD_ID); // the id on the first line, whole
    for (const line of lines.filter((l) => !/^(transcript|read|resume|fork):/.test(l) && !l.includes(CHILD_ID))) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    expect(lines.find((l) => l.startsWith('activity:'))).toMatch(/^activity: +1 prompt, 1 turn, 0 tool calls;/);
  });

  it('REF~1 shows the session it was forked from; without a parent it says so', async () => {
    const r = await cli(['show', `${CHILD_ID.slice(0, 8)}~1`]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(CHILD_ID);
    expect(r.out).toMatch(/~1: forked from, its parent\n.*\(pi 5a6b7c8d-1111-4222-8333-444455556666\)/);
    const json = JSON.parse((await cli(['show', `${CHILD_ID.slice(0, 8)}~1`, '--json'])).out) as { id: string; parents: Array<{ id: string }> };
    expect(json.id).toBe(CHILD_ID);
    expect(json.parents.map((p) => p.id)).toEqual([PARENT_ID]);
    const none = await cli(['show', `${PARENT_ID.slice(0, 8)}~1`]);
    expect(none.code).toBe(0);
    expect(none.out).toContain('was forked from no session the index holds');
  });

  it('the path of a transcript (absolute, relative, with ~) shows that session; a file the index lacks is said clearly', async () => {
    for (const ref of [childFile, relative(project, childFile), '~' + childFile.slice(home.length)]) {
      const r = await cli(['show', ref]);
      expect(r.code, ref).toBe(0);
      expect(r.out.split('\n')[0], ref).toContain(CHILD_ID);
    }
    const stray = join(root, 'copy.jsonl');
    writeFileSync(stray, '{}\n');
    const r = await cli(['show', stray]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('is not a transcript of the session index');
    expect(r.err).toContain('recapwrap recap --session FILE');
  });
});
