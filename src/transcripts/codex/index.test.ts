import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codexAdapter } from './index.js';
import { codexDayDir } from './paths.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rw-codex-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const ctx = (env: Record<string, string> = {}) => ({ cwd: '/w/app', env, home, newId: () => 'x', now: Date.now() });
const meta = (cwd: string) => JSON.stringify({ timestamp: '2026-11-22T08:00:00Z', type: 'session_meta', payload: { id: 'i', cwd } }) + '\n';

describe('codex adapter', () => {
  it('adds no flags (Codex has no session-id flag) and recognises resume', () => {
    expect(codexAdapter.planLaunch(['--model', 'x'], ctx())).toEqual({ args: ['--model', 'x'], resume: false });
    expect(codexAdapter.planLaunch(['resume', '01a2-id'], ctx())).toEqual({ args: ['resume', '01a2-id'], resume: true, resumeTarget: '01a2-id' });
    expect(codexAdapter.planLaunch(['resume', '--last'], ctx())).toEqual({ args: ['resume', '--last'], resume: true, resumeTarget: undefined });
    expect(codexAdapter.planLaunch(['exec', 'resume', 'abc'], ctx()).resumeTarget).toBe('abc');
    expect(codexAdapter.resumeArgs({ id: 'abc', file: '/f' })).toEqual(['resume', 'abc']);
    // An id that would read as a flag: the file name's UUID, else after `--`.
    const uuid = '01a208ca-f01c-7592-87e5-609ae9691146';
    expect(codexAdapter.resumeArgs({ id: '--dangerously-bypass-approvals-and-sandbox', file: `/s/rollout-2026-11-23T14-24-07-${uuid}.jsonl` })).toEqual(['resume', uuid]);
    expect(codexAdapter.resumeArgs({ id: '-c x=1', file: '/f.jsonl' })).toEqual(['resume', '--', '-c x=1']);
  });

  it('finds new rollouts of this folder in today’s folder (CODEX_HOME honoured), and lists past ones', async () => {
    const codexHome = join(home, 'ch');
    const day = codexDayDir(join(codexHome, 'sessions'), new Date());
    mkdirSync(day, { recursive: true });
    const mine = join(day, 'rollout-2026-11-22T08-00-00-01a20273-93ff-79b3-9f0c-d58a12b7bc93.jsonl');
    const other = join(day, 'rollout-2026-11-22T08-00-01-01a20273-93ff-79b3-9f0c-d58a12b7bc94.jsonl');
    writeFileSync(mine, meta('/w/app'));
    writeFileSync(other, meta('/w/other'));
    const env = { CODEX_HOME: codexHome };
    const plan = codexAdapter.planLaunch([], ctx(env));
    const found = await codexAdapter.locateLive({ ...ctx(env), plan, startedAt: Date.now() - 5000, pids: [] });
    expect(found).toEqual([{ file: mine, confidence: 'candidate' }]);
    expect(codexAdapter.sessionDirs(ctx(env))[0]).toBe(day);
    const listed = await codexAdapter.listSessions(ctx(env));
    expect(listed.map((s) => s.id)).toEqual(['01a20273-93ff-79b3-9f0c-d58a12b7bc93']);
    // Resuming by id finds that file exactly.
    const resumed = await codexAdapter.locateLive({ ...ctx(env), plan: codexAdapter.planLaunch(['resume', '01a20273-93ff-79b3-9f0c-d58a12b7bc94'], ctx(env)), startedAt: Date.now() + 10_000, pids: [] });
    expect(resumed).toEqual([{ file: other, confidence: 'exact' }]);
  });

  it('detects rollout files', () => {
    expect(codexAdapter.detect([meta('/w')])).toBe(true);
    expect(codexAdapter.detect(['{"type":"session","version":3,"id":"x","cwd":"/w"}'])).toBe(false);
  });
});
