import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeAdapter, looksLikeClaude } from './index.js';
import { claudeSlug } from './paths.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rw-claude-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const ID = '0a1b2c3d-1111-4222-8333-444455556666';
const ctx = (env: Record<string, string> = {}) => ({ cwd: '/home/dev/my proj', env, home, newId: () => ID, now: Date.now() });

describe('claude planLaunch', () => {
  it('pins --session-id unless the user chose a session; resume flags are recognised', () => {
    expect(claudeAdapter.planLaunch(['--model', 'x'], ctx())).toEqual({ args: ['--session-id', ID, '--model', 'x'], pinnedId: ID, resume: false });
    expect(claudeAdapter.planLaunch(['-c'], ctx())).toEqual({ args: ['-c'], resume: true, resumeTarget: undefined });
    expect(claudeAdapter.planLaunch(['--resume', ID], ctx())).toEqual({ args: ['--resume', ID], resume: true, resumeTarget: ID });
    expect(claudeAdapter.planLaunch(['--session-id', ID], ctx())).toEqual({ args: ['--session-id', ID], pinnedId: ID, resume: false });
    expect(claudeAdapter.planLaunch(['--version'], ctx()).pinnedId).toBeUndefined();
    expect(claudeAdapter.planLaunch(['mcp', 'list'], ctx()).pinnedId).toBeUndefined();
  });
});

describe('claude locateLive', () => {
  const projectDir = (cwd: string, base = join(home, '.claude')) => join(base, 'projects', claudeSlug(cwd));

  it('prefers Claude’s own live record for a pid of ours (it follows /clear), honouring CLAUDE_CONFIG_DIR', async () => {
    const base = join(home, 'cfg');
    mkdirSync(join(base, 'sessions'), { recursive: true });
    const other = '99999999-1111-4222-8333-444455556666';
    writeFileSync(join(base, 'sessions', '4242.json'), JSON.stringify({ pid: 4242, sessionId: other, cwd: '/home/dev/my proj', status: 'busy' }));
    const plan = claudeAdapter.planLaunch([], ctx());
    const found = await claudeAdapter.locateLive({ ...ctx({ CLAUDE_CONFIG_DIR: base }), plan, startedAt: Date.now(), pids: [4242] });
    expect(found).toEqual([{ file: join(projectDir('/home/dev/my proj', base), `${other}.jsonl`), confidence: 'exact' }]);
    // Not our pid: the pinned file.
    const pinned = await claudeAdapter.locateLive({ ...ctx({ CLAUDE_CONFIG_DIR: base }), plan, startedAt: Date.now(), pids: [1] });
    expect(pinned).toEqual([{ file: join(projectDir('/home/dev/my proj', base), `${ID}.jsonl`), confidence: 'exact' }]);
  });

  it('offers files born after our start as candidates, and lists past sessions newest first', async () => {
    const dir = projectDir('/home/dev/my proj');
    mkdirSync(dir, { recursive: true });
    const old = join(dir, '11111111-1111-4111-8111-111111111111.jsonl');
    writeFileSync(old, '{"type":"user"}\n');
    utimesSync(old, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    const start = Date.now() + 2000;
    const plan = claudeAdapter.planLaunch(['-c'], ctx());
    expect(await claudeAdapter.locateLive({ ...ctx(), plan, startedAt: start, pids: [] })).toEqual([]);
    const fresh = join(dir, '22222222-1111-4111-8111-111111111111.jsonl');
    writeFileSync(fresh, '{"type":"user"}\n');
    const later = await claudeAdapter.locateLive({ ...ctx(), plan, startedAt: Date.now() - 500, pids: [] });
    expect(later).toContainEqual({ file: fresh, confidence: 'candidate' });
    const listed = await claudeAdapter.listSessions(ctx());
    expect(listed.map((s) => s.id)).toEqual(['22222222-1111-4111-8111-111111111111', '11111111-1111-4111-8111-111111111111']);
    expect(claudeAdapter.resumeArgs(listed[0]!)).toEqual(['--resume', '22222222-1111-4111-8111-111111111111']);
  });
});

describe('claude detect', () => {
  it('knows its own files and not qwen’s or pi’s', () => {
    expect(looksLikeClaude(['{"type":"queue-operation","operation":"enqueue"}'])).toBe(true);
    expect(looksLikeClaude(['{"type":"user","uuid":"a","parentUuid":null,"sessionId":"s","userType":"external","message":{"role":"user","content":"hi"}}'])).toBe(true);
    expect(looksLikeClaude(['{"type":"user","uuid":"a","parentUuid":null,"sessionId":"s","message":{"role":"user","parts":[{"text":"hi"}]}}'])).toBe(false);
    expect(looksLikeClaude(['{"type":"session","version":3,"id":"x","cwd":"/w"}'])).toBe(false);
  });
});

describe('claude planLaunch, the shared flag scan', () => {
  it('a valid --session-id before any resume flag pins at once; after one it does not', () => {
    expect(claudeAdapter.planLaunch(['--session-id', ID, '--help'], ctx())).toEqual({ args: ['--session-id', ID, '--help'], pinnedId: ID, resume: false });
    expect(claudeAdapter.planLaunch(['--resume', 'old', '--session-id', ID, '--fork-session'], ctx())).toEqual({ args: ['--resume', 'old', '--session-id', ID, '--fork-session'], resume: true, resumeTarget: 'old' });
    expect(claudeAdapter.planLaunch(['--session-id', 'not-a-uuid'], ctx())).toEqual({ args: ['--session-id', 'not-a-uuid'], resume: false });
    expect(claudeAdapter.planLaunch(['--', '--help'], ctx()).pinnedId).toBe(ID);
  });
});
