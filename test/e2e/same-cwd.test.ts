// Two agents of one kind in one directory at the same time must never be confused. Real fake-agent
// processes write real pi transcripts into the same session folder; one SessionTracker per wrapper
// (each with its own child pid) must follow its own agent's file, both when recapwrap pins the file
// (the default) and in discovery-only mode where the claim files are what keeps them apart.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { geminiAdapter } from '../../src/transcripts/gemini/index.js';
import { piAdapter } from '../../src/transcripts/pi/index.js';
import { SWITCH_GRACE_MS, SessionTracker } from '../../src/transcripts/tracker.js';
import type { LaunchPlan, Session, TranscriptAdapter } from '../../src/transcripts/types.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';

const FAKE_AGENT = join(REPO_DIR, 'test', 'fixtures', 'bin', 'fake-agent.mjs');

let root: string;
let agents: ChildProcessWithoutNullStreams[] = [];
let trackers: SessionTracker[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rw-samecwd-'));
});
afterEach(async () => {
  for (const t of trackers) await t.stop();
  for (const a of agents) a.kill('SIGKILL');
  trackers = [];
  agents = [];
  rmSync(root, { recursive: true, force: true });
});

interface Wrapped {
  agent: ChildProcessWithoutNullStreams;
  tracker: SessionTracker;
  seen: Session[];
  /** Run one fake-agent command and wait for its OK. */
  send(command: string): Promise<void>;
}

function context() {
  const home = join(root, 'home');
  const cwd = join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  return { cwd, home, env: { HOME: home, PI_CODING_AGENT_DIR: join(home, 'pi'), GEMINI_CLI_HOME: join(home, 'g') } };
}

// One "wrapper": a fake agent (pi unless told) launched with the plan's args, and a tracker on its pid.
function wrap(plan: LaunchPlan, startedAt: number, adapter: TranscriptAdapter = piAdapter): Wrapped {
  const ctx = context();
  const agent = spawn(process.execPath, [FAKE_AGENT, '--format', adapter.id, ...plan.args], { cwd: ctx.cwd, env: { ...process.env, ...ctx.env } });
  agents.push(agent);
  let out = '';
  agent.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const tracker = new SessionTracker({ ...ctx, adapter, plan, childPid: agent.pid!, startedAt, stateDir: join(root, 'state'), log: () => {}, pollMs: 300 });
  trackers.push(tracker);
  const seen: Session[] = [];
  tracker.onSession((s) => seen.push(s));
  tracker.start();
  let oks = 0;
  const send = async (command: string) => {
    const want = ++oks;
    agent.stdin.write(`${command}\n`);
    await pollUntil(() => (out.match(/OK /g) ?? []).length >= want, { timeoutMs: 5000, description: `the fake agent to run "${command}"` });
  };
  return { agent, tracker, seen, send };
}

// Let the trackers' wait before taking a newly seen file run out, then have them look again: a wrong
// switch would happen now if it were going to.
async function pastSwitchGrace(...wrapped: Wrapped[]): Promise<void> {
  const from = Date.now();
  await pollUntil(() => Date.now() - from > SWITCH_GRACE_MS + 200, { timeoutMs: SWITCH_GRACE_MS + 2000, description: 'the switch grace to pass' });
  for (const w of wrapped) await w.tracker.refresh();
}

const userPrompts = (s: Session | undefined) => (s?.events ?? []).flatMap((e) => (e.kind === 'user' ? [e.text] : []));
const pinnedPlan = (id: string, adapter: TranscriptAdapter = piAdapter) => adapter.planLaunch([], { ...context(), newId: () => id, now: Date.now() });
const DISCOVERY_ONLY: LaunchPlan = { args: [], resume: false };

// Wait until the tracker's session holds exactly these prompts (its own, none of the other agent's).
async function expectPrompts(w: Wrapped, prompts: string[]): Promise<void> {
  await pollUntil(() => userPrompts(w.tracker.current).join('|') === prompts.join('|'), { timeoutMs: 8000, description: `prompts ${prompts.join(', ')}; saw ${userPrompts(w.tracker.current).join(', ')}` });
}

describe('two agents of one kind in one directory', () => {
  it('pinned (the default): a file born later in the shared folder is not taken as the other wrapper\'s /new', async () => {
    const t0 = Date.now();
    const a = wrap(pinnedPlan('aaaa'), t0);
    const b = wrap(pinnedPlan('bbbb'), t0);
    await b.send('turn task of B');
    await expectPrompts(b, ['task of B']);
    // A's file is born after B's: for B it looks like a /new switch in the same folder.
    await a.send('turn task of A');
    await expectPrompts(a, ['task of A']);
    await pastSwitchGrace(a, b);
    await b.send('turn second task of B');
    await expectPrompts(b, ['task of B', 'second task of B']);
    expect(a.tracker.currentFile).not.toBe(b.tracker.currentFile);
    for (const s of b.seen) expect(userPrompts(s)).not.toContain('task of A');
    for (const s of a.seen) expect(userPrompts(s).some((p) => p.includes('of B'))).toBe(false);
  });

  // With a neighbour that stays idle meanwhile, which of the two took the /new is a race (see ARCHITECTURE.md).
  it('a /new still moves the wrapper to its agent\'s new file (after the switch grace), not the busy neighbour', async () => {
    const t0 = Date.now();
    const a = wrap(pinnedPlan('aaaa'), t0);
    const b = wrap(pinnedPlan('bbbb'), t0);
    await a.send('turn before new');
    await b.send('turn task of B');
    await expectPrompts(a, ['before new']);
    await expectPrompts(b, ['task of B']);
    const before = a.tracker.currentFile;
    await a.send('new');
    await a.send('turn after new');
    // The neighbour's file is still growing while A's switch is judged.
    await b.send('turn more for B');
    await pollUntil(() => userPrompts(a.tracker.current).join('|') === 'after new', { timeoutMs: SWITCH_GRACE_MS + 6000, description: "A to follow its agent's /new" });
    expect(a.tracker.currentFile).not.toBe(before);
    await pastSwitchGrace(a, b);
    await expectPrompts(b, ['task of B', 'more for B']);
  });

  it('discovery only: the second wrapper skips the file the first one claimed and takes its own', async () => {
    const t0 = Date.now();
    const a = wrap(DISCOVERY_ONLY, t0);
    await a.send('turn task of A');
    await expectPrompts(a, ['task of A']);
    // Same start time: A's file is a fresh candidate for B too; only A's claim keeps B off it.
    const b = wrap(DISCOVERY_ONLY, t0);
    await b.send('turn task of B');
    await expectPrompts(b, ['task of B']);
    await pastSwitchGrace(a, b);
    await expectPrompts(b, ['task of B']);
    await a.send('turn more for A');
    await expectPrompts(a, ['task of A', 'more for A']);
    expect(b.seen.every((s) => !userPrompts(s).includes('task of A'))).toBe(true);
  });

  it('discovery only, both files born at once: the two wrappers never share a file', async () => {
    // With no pin, no live record and no pid in pi's files, which of two simultaneous files is whose
    // cannot be known; the claims still guarantee they are never the same one.
    const t0 = Date.now();
    const a = wrap(DISCOVERY_ONLY, t0);
    const b = wrap(DISCOVERY_ONLY, t0);
    await Promise.all([a.send('turn one'), b.send('turn two')]);
    const fa = await pollUntil(() => a.tracker.currentFile, { timeoutMs: 8000, description: 'wrapper A to find a file' });
    const fb = await pollUntil(() => b.tracker.currentFile, { timeoutMs: 8000, description: 'wrapper B to find a file' });
    expect(fa).not.toBe(fb);
  });
});

// Gemini CLI pins like pi (`--session-id`), keeps no fd and no pid record: its /clear is found by discovery.
describe('two Gemini CLI agents in one directory', () => {
  const A = 'aaaaaaaa-0000-4000-8000-000000000001';
  const B = 'bbbbbbbb-0000-4000-8000-000000000002';

  it('each wrapper follows its own pinned file, even when the other is born later in the same chats folder', async () => {
    const t0 = Date.now();
    const a = wrap(pinnedPlan(A, geminiAdapter), t0, geminiAdapter);
    const b = wrap(pinnedPlan(B, geminiAdapter), t0, geminiAdapter);
    await a.send('turn task of A');
    await expectPrompts(a, ['task of A']);
    await b.send('turn task of B');
    await expectPrompts(b, ['task of B']);
    await pastSwitchGrace(a, b);
    await a.send('turn second task of A');
    await expectPrompts(a, ['task of A', 'second task of A']);
    await expectPrompts(b, ['task of B']);
    expect(a.tracker.currentFile).toMatch(/-aaaaaaaa\.jsonl$/);
    expect(b.tracker.currentFile).toMatch(/-bbbbbbbb\.jsonl$/);
    for (const s of a.seen) expect(userPrompts(s)).not.toContain('task of B');
  });

  it('a /clear moves the wrapper to the new file while the neighbour keeps its own', async () => {
    const t0 = Date.now();
    const a = wrap(pinnedPlan(A, geminiAdapter), t0, geminiAdapter);
    const b = wrap(pinnedPlan(B, geminiAdapter), t0, geminiAdapter);
    await a.send('turn before clear');
    await b.send('turn task of B');
    await expectPrompts(a, ['before clear']);
    await expectPrompts(b, ['task of B']);
    await a.send('new');
    await a.send('turn after clear');
    await b.send('turn more for B');
    await pollUntil(() => userPrompts(a.tracker.current).join('|') === 'after clear', { timeoutMs: SWITCH_GRACE_MS + 6000, description: "A to follow its agent's /clear" });
    await pastSwitchGrace(a, b);
    await expectPrompts(b, ['task of B', 'more for B']);
  });
});
