import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bornAt, fileClockPast, START_SLACK_MS } from '../../../test/helpers/file-clock.js';
import { TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import { qwenAdapter } from './index.js';
import { encodeQwenCwd, getQwenChatsDir } from './paths.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rw-qwen-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const CWD = '/home/dev/proj/my_app.v2';
const ID = '0b6c3e4a-1111-4222-8333-444455556666';
const ctx = (env: Record<string, string> = {}) => ({ cwd: CWD, env, home, newId: () => ID, now: Date.now() });
const chats = (env: Record<string, string> = {}) => getQwenChatsDir(ctx(env));
const firstLine = (rel: string) => readFileSync(join(TRANSCRIPTS_DIR, rel), 'utf8').split('\n')[0] as string;

describe('qwen paths', () => {
  it('names the project folder like qwen: every non-alphanumeric character as -', () => {
    expect(encodeQwenCwd('/home/dev/proj/my_app.v2', 'linux')).toBe('-home-dev-proj-my-app-v2');
    expect(encodeQwenCwd('C:\\Users\\Dev\\App', 'win32')).toBe('c--users-dev-app');
    expect(chats()).toBe(join(home, '.qwen', 'projects', '-home-dev-proj-my-app-v2', 'chats'));
  });

  it('honours QWEN_RUNTIME_DIR before QWEN_HOME for chats', () => {
    expect(chats({ QWEN_HOME: '/q' })).toBe('/q/projects/-home-dev-proj-my-app-v2/chats');
    expect(chats({ QWEN_HOME: '/q', QWEN_RUNTIME_DIR: '~/rt' })).toBe(join(home, 'rt', 'projects', '-home-dev-proj-my-app-v2', 'chats'));
    expect(qwenAdapter.sessionDirs(ctx({ QWEN_RUNTIME_DIR: 'rel' }))).toEqual([join(CWD, 'rel', 'projects', '-home-dev-proj-my-app-v2', 'chats')]);
  });
});

describe('qwen planLaunch', () => {
  it('pins a new session id when the user chose no session', () => {
    expect(qwenAdapter.planLaunch(['--yolo', 'fix it'], ctx())).toEqual({ args: ['--session-id', ID, '--yolo', 'fix it'], pinnedId: ID, resume: false });
  });

  it('never pins when the user passed session, continue or resume flags', () => {
    expect(qwenAdapter.planLaunch(['-c'], ctx())).toEqual({ args: ['-c'], resume: true, resumeTarget: undefined });
    expect(qwenAdapter.planLaunch(['--continue', 'go on'], ctx()).pinnedId).toBeUndefined();
    expect(qwenAdapter.planLaunch(['--resume'], ctx())).toEqual({ args: ['--resume'], resume: true, resumeTarget: undefined });
    expect(qwenAdapter.planLaunch(['--resume', 'abc-1', '--yolo'], ctx())).toEqual({ args: ['--resume', 'abc-1', '--yolo'], resume: true, resumeTarget: 'abc-1' });
    expect(qwenAdapter.planLaunch(['-r', 'abc-2'], ctx()).resumeTarget).toBe('abc-2');
    expect(qwenAdapter.planLaunch(['--resume=abc-3', '--fork-session'], ctx())).toEqual({ args: ['--resume=abc-3', '--fork-session'], resume: true, resumeTarget: 'abc-3' });
    // The user's own --session-id names the file exactly; recapwrap adds nothing.
    expect(qwenAdapter.planLaunch(['--session-id', 'mine-1'], ctx())).toEqual({ args: ['--session-id', 'mine-1'], resume: false, resumeTarget: undefined, pinnedId: 'mine-1' });
  });

  it('does not pin for --help/--version, subcommands or disabled recording, nor parse past --', () => {
    for (const args of [['--version'], ['-h'], ['mcp', 'list'], ['sessions', 'list'], ['--chat-recording=false'], ['--chat-recording', 'false', 'hi']]) {
      expect(qwenAdapter.planLaunch(args, ctx())).toEqual({ args, resume: false });
    }
    expect(qwenAdapter.planLaunch(['--chat-recording', 'true'], ctx()).pinnedId).toBe(ID);
    expect(qwenAdapter.planLaunch(['--', '-c'], ctx()).pinnedId).toBe(ID);
  });

  it('resumes exactly the listed session', () => {
    expect(qwenAdapter.resumeArgs({ id: ID, file: join(chats(), `${ID}.jsonl`) })).toEqual(['--resume', ID]);
  });
});

describe('qwen locateLive', () => {
  it('returns the pinned file before it exists, then follows the live registry through /clear', async () => {
    const plan = qwenAdapter.planLaunch([], ctx());
    const dir = chats();
    mkdirSync(dir, { recursive: true });
    // Another, older qwen session in this folder is never a candidate.
    const old = join(dir, 'old.jsonl');
    writeFileSync(old, '{}\n');
    // We start just past the slack after it was born; every file made from here on is born after that.
    const startedAt = bornAt(old) + START_SLACK_MS + 1;
    await fileClockPast(dir, startedAt - START_SLACK_MS);
    const live = { ...ctx(), plan, startedAt, pids: [4100, 4101, 4102] };
    const pinned = join(dir, `${ID}.jsonl`);
    expect(await qwenAdapter.locateLive(live)).toEqual([{ file: pinned, confidence: 'exact' }]);
    writeFileSync(pinned, '{}\n');
    // qwen's innermost process registers itself; the registry wins.
    const sessions = join(home, '.qwen', 'sessions');
    mkdirSync(sessions, { recursive: true });
    writeFileSync(join(sessions, '4102.json'), JSON.stringify({ schemaVersion: 1, pid: 4102, sessionId: ID, cwd: CWD, kind: 'interactive' }));
    expect(await qwenAdapter.locateLive(live)).toEqual([{ file: pinned, confidence: 'exact' }]);
    // /clear: a new id in the registry and a new file.
    const cleared = join(dir, '9f9f9f9f-0000-4000-8000-000000000001.jsonl');
    writeFileSync(join(sessions, '4102.json'), JSON.stringify({ schemaVersion: 1, pid: 4102, sessionId: '9f9f9f9f-0000-4000-8000-000000000001', cwd: CWD }));
    const found = await qwenAdapter.locateLive(live);
    expect(found[0]).toEqual({ file: cleared, confidence: 'exact' });
    // A registry record of a process outside our tree is someone else's.
    expect(await qwenAdapter.locateLive({ ...live, pids: [4100] })).toEqual([{ file: pinned, confidence: 'exact' }]);
  });

  it('offers files born after the pinned one as candidates when there is no registry', async () => {
    const plan = qwenAdapter.planLaunch([], ctx());
    const dir = chats();
    mkdirSync(dir, { recursive: true });
    const live = { ...ctx(), plan, startedAt: Date.now(), pids: [1] };
    const pinned = join(dir, `${ID}.jsonl`);
    writeFileSync(pinned, '{}\n');
    await fileClockPast(dir, bornAt(pinned)); // born after the pinned file, as a /clear file is
    const newer = join(dir, 'aaaaaaaa-0000-4000-8000-000000000002.jsonl');
    writeFileSync(newer, '{}\n');
    expect(await qwenAdapter.locateLive(live)).toEqual([
      { file: newer, confidence: 'candidate' },
      { file: pinned, confidence: 'exact' },
    ]);
  });

  it('uses a runtime sidecar of our pid, and the resumed file for --resume <id>', async () => {
    const dir = chats();
    mkdirSync(dir, { recursive: true });
    const resumed = join(dir, 'bbbbbbbb-0000-4000-8000-000000000003.jsonl');
    writeFileSync(resumed, '{}\n');
    const plan = qwenAdapter.planLaunch(['--resume', 'bbbbbbbb-0000-4000-8000-000000000003'], ctx());
    const live = { ...ctx(), plan, startedAt: Date.now() - 500, pids: [7, 8] };
    expect(await qwenAdapter.locateLive(live)).toEqual([{ file: resumed, confidence: 'exact' }]);
    const sidecar = JSON.parse(readFileSync(join(TRANSCRIPTS_DIR, 'qwen', 'clear-switch', 'second.runtime.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'cccccccc-0000-4000-8000-000000000004.runtime.json'), JSON.stringify({ ...sidecar, pid: 8, session_id: 'cccccccc-0000-4000-8000-000000000004' }));
    writeFileSync(join(dir, 'dddddddd-0000-4000-8000-000000000005.runtime.json'), JSON.stringify({ ...sidecar, pid: 999, session_id: 'dddddddd-0000-4000-8000-000000000005' }));
    expect((await qwenAdapter.locateLive(live))[0]).toEqual({ file: join(dir, 'cccccccc-0000-4000-8000-000000000004.jsonl'), confidence: 'exact' });
  });

  it('for --continue, offers the file that changed since our start', async () => {
    const dir = chats();
    mkdirSync(dir, { recursive: true });
    const older = join(dir, 'eeeeeeee-0000-4000-8000-000000000006.jsonl');
    const continued = join(dir, 'ffffffff-0000-4000-8000-000000000007.jsonl');
    writeFileSync(older, '{}\n');
    writeFileSync(continued, '{}\n');
    // We start just past the slack after both were written; the append below comes after that.
    const startedAt = Math.max(bornAt(older), bornAt(continued)) + START_SLACK_MS + 1;
    const plan = qwenAdapter.planLaunch(['-c'], ctx());
    const live = { ...ctx(), plan, startedAt, pids: [1] };
    expect(await qwenAdapter.locateLive(live)).toEqual([]);
    await fileClockPast(dir, startedAt - START_SLACK_MS);
    // qwen appends the new prompt to the newest session.
    writeFileSync(continued, '{}\n{}\n');
    expect(await qwenAdapter.locateLive(live)).toEqual([{ file: continued, confidence: 'candidate' }]);
  });
});

describe('qwen listSessions and detect', () => {
  it('lists past sessions newest first with ids from file names', async () => {
    const dir = chats();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'aaa.jsonl'), '{}\n');
    writeFileSync(join(dir, 'bbb.jsonl'), '{}\n');
    writeFileSync(join(dir, 'empty.jsonl'), '');
    writeFileSync(join(dir, 'bbb.runtime.json'), '{}');
    utimesSync(join(dir, 'aaa.jsonl'), new Date(2026, 0, 1), new Date(2026, 0, 1));
    const list = await qwenAdapter.listSessions(ctx());
    expect(list.map((s) => s.id)).toEqual(['bbb', 'aaa']);
    expect(list[0]).toMatchObject({ agent: 'qwen', file: join(dir, 'bbb.jsonl'), size: 3 });
    expect(await qwenAdapter.listSessions(ctx({ QWEN_HOME: join(home, 'nowhere') }))).toEqual([]);
  });

  it('detects qwen files by their first record, and no other agent’s', () => {
    for (const f of ['print-2turns.jsonl', 'interactive-2turns.jsonl', 'clear-switch/first.jsonl']) {
      expect(qwenAdapter.detect(['', firstLine(`qwen/${f}`)])).toBe(true);
    }
    expect(qwenAdapter.detect([firstLine('qwen/json-file-events.jsonl')])).toBe(false);
    expect(qwenAdapter.detect([firstLine('pi/print-2turns.jsonl')])).toBe(false);
    expect(qwenAdapter.detect([firstLine('gemini/print-2turns.jsonl')])).toBe(false);
    const claude = readFileSync(join(TRANSCRIPTS_DIR, 'claude/print-2turns.jsonl'), 'utf8').split('\n').filter(Boolean);
    expect(claude.some((l) => qwenAdapter.detect([l]))).toBe(false);
    expect(qwenAdapter.detect(['not json'])).toBe(false);
  });
});

describe('qwen encodes the fixture folders it was observed writing', () => {
  it('matches the README example path form', () => {
    expect(encodeQwenCwd('/home/dev/proj/clear-test/proj', 'linux')).toBe('-home-dev-proj-clear-test-proj');
  });
});
