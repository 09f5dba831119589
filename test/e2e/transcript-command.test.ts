// `recapwrap transcript FILE [--agent ID] [--json]` through the built CLI: the normalized session of a
// real pi file (agent detected, thinking withheld), one JSON object with --json, a file written by the
// fake agent, and one clear error line with exit 1 (bad path, folder, unreadable, undetectable) or 2
// (unknown --agent).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { REPO_DIR, TRANSCRIPTS_DIR } from '../helpers/shared.js';

const FAKE_AGENT = join(REPO_DIR, 'test', 'fixtures', 'bin', 'fake-agent.mjs');
const PI_FIXTURE = join(TRANSCRIPTS_DIR, 'pi', 'print-2turns.jsonl');

function cli(args: string[], cwd?: string) {
  const r = spawnSync(process.execPath, [CLI_BIN, 'transcript', ...args], { encoding: 'utf8', cwd, env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rw-transcript-cmd-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('recapwrap transcript', () => {
  it('lists a real pi session for people, detecting the agent and withholding thinking', () => {
    const r = cli([PI_FIXTURE]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^pi session 01a208c8-f9f9-7327-8f3d-28359f1049e4$/m);
    expect(r.out).toContain('cwd: /home/dev/proj/pi-print');
    expect(r.out).toMatch(/user\s+please create hello\.txt/);
    expect(r.out).toMatch(/user\s+now list the files with ls/);
    expect(r.out).toMatch(/tool\s+bash\(/);
    expect(r.out).toContain('not shown');
    expect(r.out).not.toContain('The user wants me to use a tool');
  });

  it('--json prints one object with the documented keys and no thinking text', () => {
    const r = cli(['--json', PI_FIXTURE]);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toHaveLength(1);
    const o = JSON.parse(r.out) as Record<string, unknown> & { events: Array<{ kind: string; text?: string }> };
    expect(Object.keys(o).sort()).toEqual(['agent', 'cwd', 'events', 'id', 'skipped', 'stamp', 'state', 'title'].sort());
    expect(o).toMatchObject({ agent: 'pi', id: '01a208c8-f9f9-7327-8f3d-28359f1049e4', cwd: '/home/dev/proj/pi-print', skipped: 0, state: 'idle' });
    expect(o.events.filter((e) => e.kind === 'user').map((e) => e.text)).toEqual(['please create hello.txt', 'now list the files with ls']);
    expect(o.events.filter((e) => e.kind === 'tool-call')).toHaveLength(2);
    expect(r.out).not.toContain('The user wants me to use a tool');
  });

  it('reads a session the fake agent wrote, with --agent given, and reports it waiting on a question', () => {
    const work = join(dir, 'work');
    const home = join(dir, 'home');
    const file = join(dir, 'fake.jsonl');
    spawnSync('mkdir', ['-p', work]);
    const run = spawnSync(process.execPath, [FAKE_AGENT, '--format', 'pi', '--session', file, '--script', 'turn fix the parser;prompt and the docs?;fail bash npm test;done Tests fail in parse.ts, shall I fix them?;quit'], { cwd: work, env: { ...process.env, HOME: home }, encoding: 'utf8', input: '' });
    expect(run.status).toBe(0);
    const r = cli(['--agent', 'pi', '--json', file]);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as { agent: string; cwd: string; state: string; events: Array<{ kind: string; text?: string; ok?: boolean }> };
    expect(o.agent).toBe('pi');
    expect(o.cwd).toBe(work);
    expect(o.events.filter((e) => e.kind === 'user').map((e) => e.text)).toEqual(['fix the parser', 'and the docs?']);
    expect(o.events.filter((e) => e.kind === 'tool-result').map((e) => e.ok)).toEqual([true, false]);
    expect(o.state).toBe('waiting');
  });

  it('a missing file, a folder or content no agent wrote: one error line, exit 1', () => {
    const plain = join(dir, 'notes.txt');
    writeFileSync(plain, 'just some notes\n');
    for (const [path, says] of [
      [join(dir, 'missing.jsonl'), 'No such file'],
      [dir, 'folder'],
      [plain, 'pass --agent'],
    ] as const) {
      const r = cli([path]);
      expect(r.code, path).toBe(1);
      expect(r.out).toBe('');
      expect(r.err.trimEnd().split('\n'), path).toHaveLength(1);
      expect(r.err).toContain(says);
      expect(r.err).toContain(path);
    }
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file: one error line, exit 1', () => {
    const locked = join(dir, 'locked.jsonl');
    writeFileSync(locked, '{}\n');
    chmodSync(locked, 0o000);
    const r = cli([locked]);
    expect(r.code).toBe(1);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
    expect(r.err).toContain(locked);
  });

  it('an unknown --agent: an error listing the ids, exit 2', () => {
    const r = cli(['--agent', 'cursor', join(dir, 'whatever.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain('cursor');
    for (const id of ['pi', 'qwen', 'claude', 'codex', 'gemini']) expect(r.err).toContain(id);
  });
});
