// From search to the message (#41): `search` hits say which prompt holds the words, `turn` in --json and
// `read NAME --turn N` in plain output; that command, run, starts at that prompt. Built CLI, temp home,
// the reader fixtures laid out where the agents keep them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addHitTurns, findTurnInSession } from '../../src/app/memory/hit-turns.js';
import type { SessionRow } from '../../src/app/memory/api.js';
import { layOutSession, type LaidOut } from '../helpers/agent-homes.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { TRANSCRIPTS_DIR } from '../helpers/shared.js';

const CLAUDE = join(TRANSCRIPTS_DIR, 'claude', 'reader', 'compact-subagent', '41e0c0de-0000-4000-8000-00000000c1a0.jsonl');
const QWEN = join(TRANSCRIPTS_DIR, 'qwen', 'reader', 'edit-shell.jsonl');

let root: string;
let env: NodeJS.ProcessEnv;
let claude: LaidOut;

function cli(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

beforeAll(async () => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'rw-search-turn-'));
  const home = join(root, 'home');
  mkdirSync(home);
  env = { PATH: process.env.PATH, HOME: home, RECAPWRAP_STATE_DIR: join(root, 'state'), RECAPWRAP_GENERATOR: 'heuristic', TERM: 'dumb' };
  claude = await layOutSession(home, 'claude', CLAUDE);
  await layOutSession(home, 'qwen', QWEN);
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('search says which prompt matched', () => {
  it('--json gives the turn of the first message holding every word', () => {
    const r = cli('search', 'helper agent count words', '--json');
    expect(r.err).toBe('');
    const hits = JSON.parse(r.out) as { id: string; turn?: number }[];
    expect(hits[0]).toMatchObject({ id: claude.id, turn: 3 });
  });

  it('plain output adds `read NAME --turn N` under the hit, and that command starts at the prompt', () => {
    const r = cli('search', 'notes.md once more', '--agent', 'claude');
    expect(r.code).toBe(0);
    const line = /^ {4}read (\S+) --turn (\d+)$/m.exec(r.out);
    expect(line, r.out).not.toBeNull();
    // Prompt 4 of 4: the fixture's `/compact` before it is a command, not a numbered prompt.
    expect(line![2]).toBe('4');
    const read = cli('read', line![1]!, '--turn', line![2]!, '--no-pager');
    expect(read.code).toBe(0);
    expect(read.out).toMatch(/› 4\/4/);
    expect(read.out).not.toMatch(/› 1\/4/);
  });

  it('a hit found by words of its note (no prompt holds them) still says how to read it, from its start', () => {
    const name = (JSON.parse(cli('show', claude.id, '--json').out) as { name: string }).name;
    expect(cli('note', name, 'quillwort reminder for the release').code).toBe(0);
    const r = cli('search', 'quillwort');
    expect(r.code).toBe(0);
    expect(r.out.split('\n').filter((l) => l.startsWith('    read '))).toEqual([`    read ${name}`]);
  });
});

describe('addHitTurns', () => {
  const row = (transcript: string, agent: SessionRow['agent'] = 'claude') => ({ transcript, transcriptExists: true, agent }) as SessionRow;

  it('finds the turn per hit, leaves a hit whose file is gone without one, keeps the order', async () => {
    const words = 'notes.md once more';
    const hits = await addHitTurns([row(CLAUDE), row(join(root, 'gone.jsonl')), row(QWEN, 'qwen')], words);
    expect(hits.map((h) => h.turn)).toEqual([4, undefined, await findTurnInSession(QWEN, words, Date.now() + 10_000, 'qwen')]);
    expect(hits.map((h) => h.transcript)).toEqual([CLAUDE, join(root, 'gone.jsonl'), QWEN]);
  });

  it('gives no turn once the time budget is spent', async () => {
    let t = 0;
    const hits = await addHitTurns([row(CLAUDE), row(CLAUDE)], 'once more', 10, () => (t += 20));
    expect(hits.map((h) => h.turn)).toEqual([undefined, undefined]);
  });

  it('takes the message holding the most words when none holds all', async () => {
    expect(await findTurnInSession(CLAUDE, 'helper zzyzx', Date.now() + 10_000)).toBe(3);
    expect(await findTurnInSession(CLAUDE, 'zzyzx', Date.now() + 10_000)).toBeUndefined();
  });
});
