import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pollUntil } from '../../test/helpers/poll.js';
import { LIVE_HISTORY_LIMITS } from './history.js';
import { piAdapter } from './pi/index.js';
import { getProcessTree } from './pids.js';
import { SessionTracker } from './tracker.js';
import type { Session, SessionCandidate, TranscriptAdapter } from './types.js';

let home: string;
let children: ChildProcess[] = [];
let trackers: SessionTracker[] = [];
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rw-track-'));
});
afterEach(async () => {
  for (const t of trackers) await t.stop();
  for (const c of children) c.kill('SIGKILL');
  trackers = [];
  children = [];
  rmSync(home, { recursive: true, force: true });
});


const h = JSON.stringify;
const noLog = () => {};

function sleeper(): ChildProcess {
  const c = spawn('sleep', ['30']);
  children.push(c);
  return c;
}

describe('SessionTracker', () => {
  it('keeps a long session bounded: the first prompt, the newest events, the rest dropped and counted (#19)', async () => {
    const ctx = { cwd: '/w', env: { HOME: home }, home };
    const plan = piAdapter.planLaunch([], { ...ctx, newId: () => 'long', now: Date.now() });
    mkdirSync(join(plan.pinnedFile!, '..'), { recursive: true });
    const lines = [h({ type: 'session', version: 3, id: 'sid', cwd: '/w' }), h({ type: 'message', id: 'u', parentId: null, message: { role: 'user', content: 'the first request' } })];
    let parent = 'u';
    const n = LIVE_HISTORY_LIMITS.maxEvents + 10_000;
    for (let i = 0; i < n; i++) {
      lines.push(h({ type: 'message', id: `e${i}`, parentId: parent, message: { role: 'assistant', content: [{ type: 'text', text: `step ${i}` }], stopReason: 'toolUse' } }));
      parent = `e${i}`;
    }
    writeFileSync(plan.pinnedFile!, lines.join('\n') + '\n');
    const child = sleeper();
    const tracker = new SessionTracker({ ...ctx, adapter: piAdapter, plan, childPid: child.pid!, startedAt: Date.now(), stateDir: join(home, 'state'), log: noLog, pollMs: 200 });
    trackers.push(tracker);
    let latest: Session | undefined;
    tracker.onSession((s) => (latest = s));
    tracker.start();
    const s = await pollUntil(() => (latest?.events.at(-1) as { text?: string } | undefined)?.text === `step ${n - 1}` ? latest : undefined, { timeoutMs: 20_000 });
    expect(s.events.length).toBeLessThanOrEqual(LIVE_HISTORY_LIMITS.maxEvents);
    expect(s.events[0]).toMatchObject({ kind: 'user', text: 'the first request' });
    expect(s.dropped).toBe(n + 1 - s.events.length);
  }, 30_000);

  it('follows the pinned pi file from before it exists, and emits on every new state', async () => {
    const ctx = { cwd: '/w', env: { HOME: home }, home };
    const plan = piAdapter.planLaunch([], { ...ctx, newId: () => 'abc', now: Date.now() });
    const child = sleeper();
    const logged: string[] = [];
    const tracker = new SessionTracker({ ...ctx, adapter: piAdapter, plan, childPid: child.pid!, startedAt: Date.now(), stateDir: join(home, 'state'), log: (_area, msg) => logged.push(msg), pollMs: 200 });
    trackers.push(tracker);
    const seen: Session[] = [];
    tracker.onSession((s) => seen.push(s));
    tracker.start();
    await pollUntil(() => logged.includes('following session file'), { description: 'the tracker following the pinned file' });
    expect(existsSync(plan.pinnedFile!)).toBe(false);
    mkdirSync(join(plan.pinnedFile!, '..'), { recursive: true });
    writeFileSync(plan.pinnedFile!, h({ type: 'session', version: 3, id: 'sid', cwd: '/w' }) + '\n' + h({ type: 'message', id: 'u1', parentId: null, message: { role: 'user', content: 'do it' } }) + '\n');
    const first = await pollUntil(() => seen[0]);
    expect(first).toMatchObject({ agent: 'pi', id: 'sid', file: plan.pinnedFile, stamp: 'u1' });
    appendFileSync(plan.pinnedFile!, h({ type: 'message', id: 'a1', parentId: 'u1', message: { role: 'assistant', content: [{ type: 'text', text: 'done' }], stopReason: 'stop' } }) + '\n');
    const second = await pollUntil(() => seen[1]);
    expect(second.stamp).toBe('a1');
    expect(tracker.current?.events.map((e) => e.kind)).toEqual(['user', 'assistant', 'turn-end']);
  });

  it('two wrappers of one agent in one directory never take the same discovered file', async () => {
    const dir = join(home, 'sessions');
    mkdirSync(dir, { recursive: true });
    const files = [join(dir, 'one.jsonl'), join(dir, 'two.jsonl')];
    // Discovery only: both files are candidates for every wrapper, in the same order.
    const discovering: TranscriptAdapter = {
      ...piAdapter,
      sessionDirs: () => [dir],
      locateLive: async () => files.map((file): SessionCandidate => ({ file, confidence: 'candidate' })),
    };
    for (const f of files) {
      const id = f.endsWith('one.jsonl') ? 'one' : 'two';
      writeFileSync(f, h({ type: 'session', version: 3, id, cwd: '/w' }) + '\n' + h({ type: 'message', id: 'u', parentId: null, message: { role: 'user', content: 'x' } }) + '\n');
    }
    const stateDir = join(home, 'state');
    const base = { cwd: '/w', env: { HOME: home }, home, adapter: discovering, plan: { args: [], resume: false }, startedAt: 0, stateDir, log: noLog, pollMs: 200 };
    const a = new SessionTracker({ ...base, childPid: sleeper().pid! });
    trackers.push(a);
    a.start();
    expect((await pollUntil(() => a.current)).id).toBe('one');
    // Hand a's claim to another live process, as if a second wrapper process had claimed 'one' first.
    const claimsDir = join(stateDir, 'claims');
    const [claimName] = readdirSync(claimsDir);
    const claimFile = join(claimsDir, claimName!);
    expect(JSON.parse(readFileSync(claimFile, 'utf8'))).toEqual({ pid: process.pid, file: files[0] });
    await a.stop();
    trackers = [];
    const otherWrapper = sleeper();
    writeFileSync(claimFile, h({ pid: otherWrapper.pid, file: files[0] }));
    const b = new SessionTracker({ ...base, childPid: sleeper().pid! });
    trackers.push(b);
    b.start();
    expect((await pollUntil(() => b.current)).id).toBe('two');
  });

  it('finds a session in a folder the agent creates later without polling for it (#29: idle wake-ups)', async () => {
    const dir = join(home, 'agent', 'sessions', 'here');
    const file = join(dir, 'late.jsonl');
    const adapter: TranscriptAdapter = {
      ...piAdapter,
      sessionDirs: () => [dir],
      locateLive: async () => (existsSync(file) ? [{ file, confidence: 'candidate' as const }] : []),
    };
    // A poll this slow never runs during the test: only the watch on the nearest existing parent can find it.
    const t = new SessionTracker({ cwd: '/w', env: {}, home, adapter, plan: { args: [], resume: false }, childPid: process.pid, startedAt: 0, stateDir: join(home, 'state'), log: noLog, pollMs: 600_000 });
    trackers.push(t);
    t.start();
    expect(t.current).toBeUndefined();
    mkdirSync(join(home, 'agent'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, h({ type: 'session', version: 3, id: 'late', cwd: '/w' }) + '\n' + h({ type: 'message', id: 'u', parentId: null, message: { role: 'user', content: 'x' } }) + '\n');
    expect((await pollUntil(() => t.current, { timeoutMs: 5000, description: 'the late session found' })).id).toBe('late');
  });

  it('takes over a claim whose owner died', async () => {
    const dir = join(home, 'sessions');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'only.jsonl');
    writeFileSync(file, h({ type: 'session', version: 3, id: 'only', cwd: '/w' }) + '\n' + h({ type: 'message', id: 'u', parentId: null, message: { role: 'user', content: 'x' } }) + '\n');
    const adapter: TranscriptAdapter = { ...piAdapter, sessionDirs: () => [dir], locateLive: async () => [{ file, confidence: 'candidate' }] };
    const dead = spawn('true');
    await new Promise((r) => dead.on('exit', r));
    const stateDir = join(home, 'state');
    const first = new SessionTracker({ cwd: '/w', env: {}, home, adapter, plan: { args: [], resume: false }, childPid: process.pid, startedAt: 0, stateDir, log: noLog });
    trackers.push(first);
    first.start();
    await pollUntil(() => first.current);
    await first.stop();
    trackers = [];
    expect(readdirSync(join(stateDir, 'claims'))).toEqual([]); // released on stop
    writeFileSync(join(stateDir, 'claims', 'x'), '');
    const t = new SessionTracker({ cwd: '/w', env: {}, home, adapter, plan: { args: [], resume: false }, childPid: process.pid, startedAt: 0, stateDir, log: noLog });
    trackers.push(t);
    t.start();
    expect((await pollUntil(() => t.current)).id).toBe('only');
  });
});

describe('getProcessTree', () => {
  it('finds a grandchild', async () => {
    const c = spawn('sh', ['-c', 'sleep 30 & wait']);
    children.push(c);
    // sh forks its sleep a moment after it starts.
    const pids = await pollUntil(async () => {
      const tree = await getProcessTree(c.pid!);
      return tree.length >= 2 ? tree : undefined;
    }, { timeoutMs: 3000, description: 'the grandchild in the tree' });
    expect(pids[0]).toBe(c.pid);
    expect(pids.length).toBeGreaterThanOrEqual(2);
  });
});
