import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bornAt, fileClockPast, START_SLACK_MS } from '../../../test/helpers/file-clock.js';
import { piAdapter } from './index.js';
import { encodePiCwd } from './paths.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rw-pi-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const NOW = Date.UTC(2026, 10, 22, 8, 39, 9, 587);
const ctx = (env: Record<string, string> = {}) => ({ cwd: '/home/dev/proj/x', env, home, newId: () => '01a2-test', now: NOW });

describe('pi planLaunch', () => {
  it('pins a new file in pi’s own folder and naming when the user chose no session', () => {
    const plan = piAdapter.planLaunch(['--model', 'm'], ctx());
    const file = join(home, '.pi', 'agent', 'sessions', '--home-dev-proj-x--', '2026-11-22T08-39-09-587Z_01a2-test.jsonl');
    expect(plan).toEqual({ args: ['--session', file, '--model', 'm'], pinnedFile: file, resume: false });
  });

  it('honours PI_CODING_AGENT_DIR and PI_CODING_AGENT_SESSION_DIR', () => {
    expect(piAdapter.planLaunch([], ctx({ PI_CODING_AGENT_DIR: '/a' })).pinnedFile).toBe('/a/sessions/--home-dev-proj-x--/2026-11-22T08-39-09-587Z_01a2-test.jsonl');
    expect(piAdapter.planLaunch([], ctx({ PI_CODING_AGENT_SESSION_DIR: '/s' })).pinnedFile).toBe('/s/2026-11-22T08-39-09-587Z_01a2-test.jsonl');
  });

  it('never pins when the user passed session, continue or resume flags', () => {
    expect(piAdapter.planLaunch(['-c'], ctx())).toEqual({ args: ['-c'], resume: true, resumeTarget: undefined });
    expect(piAdapter.planLaunch(['--resume'], ctx()).pinnedFile).toBeUndefined();
    expect(piAdapter.planLaunch(['--no-session'], ctx())).toEqual({ args: ['--no-session'], resume: false, resumeTarget: undefined });
    expect(piAdapter.planLaunch(['--session', 'rel/s.jsonl'], ctx())).toEqual({ args: ['--session', 'rel/s.jsonl'], resume: true, resumeTarget: '/home/dev/proj/x/rel/s.jsonl' });
    expect(piAdapter.planLaunch(['--session=abc'], ctx()).resumeTarget).toBe('abc');
  });

  it('does not pin for --help/--version, nor parse past --', () => {
    expect(piAdapter.planLaunch(['--version'], ctx()).pinnedFile).toBeUndefined();
    expect(piAdapter.planLaunch(['--', '-c'], ctx()).pinnedFile).toBeDefined();
  });
});

describe('pi locateLive and listSessions', () => {
  it('follows the pinned file, and a newer file in its folder (/new) as a candidate', async () => {
    const plan = piAdapter.planLaunch([], ctx());
    const dir = join(home, '.pi', 'agent', 'sessions', encodePiCwd('/home/dev/proj/x'));
    mkdirSync(dir, { recursive: true });
    // A file from before our start (another, older pi session) is never a candidate.
    const old = join(dir, 'old.jsonl');
    writeFileSync(old, '{}\n');
    // We start just past the slack after it was born; every file made from here on is born after that.
    const startedAt = bornAt(old) + START_SLACK_MS + 1;
    await fileClockPast(dir, startedAt - START_SLACK_MS);
    const live = { ...ctx(), plan, startedAt, pids: [1] };
    expect(await piAdapter.locateLive(live)).toEqual([{ file: plan.pinnedFile, confidence: 'exact' }]);
    writeFileSync(plan.pinnedFile!, '{"type":"session"}\n');
    await fileClockPast(dir, bornAt(plan.pinnedFile!)); // born after the pinned file, as a /new file is
    const newer = join(dir, 'newer.jsonl');
    writeFileSync(newer, '{"type":"session"}\n');
    expect(await piAdapter.locateLive(live)).toEqual([
      { file: newer, confidence: 'candidate' },
      { file: plan.pinnedFile, confidence: 'exact' },
    ]);
  });

  it('lists past sessions newest first with ids from file names', async () => {
    const dir = join(home, '.pi', 'agent', 'sessions', encodePiCwd('/home/dev/proj/x'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '2026-01-01T00-00-00-000Z_aaa.jsonl'), '{}\n');
    writeFileSync(join(dir, '2026-01-02T00-00-00-000Z_bbb.jsonl'), '{}\n');
    writeFileSync(join(dir, 'empty.jsonl'), '');
    utimesSync(join(dir, '2026-01-01T00-00-00-000Z_aaa.jsonl'), new Date(2026, 0, 1), new Date(2026, 0, 1));
    const list = await piAdapter.listSessions(ctx());
    expect(list.map((s) => s.id)).toEqual(['bbb', 'aaa']);
    expect(piAdapter.resumeArgs(list[0]!)).toEqual(['--session', join(dir, '2026-01-02T00-00-00-000Z_bbb.jsonl')]);
  });

  it('detects pi files by their header', () => {
    expect(piAdapter.detect(['{"type":"session","version":3,"id":"x","cwd":"/w"}'])).toBe(true);
    expect(piAdapter.detect(['{"sessionId":"x","type":"session","cwd":"/w"}'])).toBe(false);
    expect(piAdapter.detect(['{"type":"session_meta"}'])).toBe(false);
  });
});
