// `recapwrap resume` through the built CLI on a temp HOME seeded with real session files (copied at test
// time from test/fixtures/transcripts, with the project folder rewritten to a temp one): `--list --json` lists them newest
// first with recaps, a query filters, and `--pick N` relaunches exactly that session: a fake agent
// executable on PATH records the argv it receives.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { TRANSCRIPTS_DIR } from '../helpers/shared.js';

interface Seed {
  agent: string;
  fixture: string;
  /** The project folder written in the fixture, replaced by the test's own. */
  fixtureCwd: string;
  /** Where the file goes under HOME for the test's project folder. */
  place(home: string, cwd: string): string;
  id: string;
  /** The argv the agent must receive to resume exactly this session. */
  resumeArgs(file: string): string[];
}

const SEEDS: Seed[] = [
  {
    agent: 'pi',
    fixture: 'pi/print-2turns.jsonl',
    fixtureCwd: '/home/dev/proj/pi-print',
    place: (home, cwd) => join(home, '.pi', 'agent', 'sessions', `--${cwd.replace(/^\//, '').replace(/\//g, '-')}--`, '2026-11-23T14-21-58-650Z_01a208c8-f9f9-7327-8f3d-28359f1049e4.jsonl'),
    id: '01a208c8-f9f9-7327-8f3d-28359f1049e4',
    resumeArgs: (file) => ['--session', file],
  },
];

let home: string;
let cwd: string;
let bin: string;
let record: string;
const placed = new Map<string, string>();

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [CLI_BIN, 'resume', ...args], {
    encoding: 'utf8',
    cwd,
    input: '',
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: home, XDG_STATE_HOME: join(home, '.state'), XDG_CONFIG_HOME: join(home, '.config'), RECORD: record, NO_COLOR: '1' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  assertBuilt();
  home = mkdtempSync(join(tmpdir(), 'rw-resume-'));
  cwd = join(home, 'proj');
  bin = join(home, 'bin');
  record = join(home, 'argv.json');
  mkdirSync(cwd);
  mkdirSync(bin);
  SEEDS.forEach((seed, i) => {
    const file = seed.place(home, cwd);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, readFileSync(join(TRANSCRIPTS_DIR, seed.fixture), 'utf8').split(seed.fixtureCwd).join(cwd));
    // Newest first: the first seed is the newest.
    const t = new Date(Date.UTC(2026, 10, 22, 12, 0, 0) - i * 60_000);
    utimesSync(file, t, t);
    placed.set(seed.agent, file);
    writeFileSync(join(bin, seed.agent), `#!/usr/bin/env node\nrequire('node:fs').writeFileSync(process.env.RECORD, JSON.stringify({ agent: ${JSON.stringify(seed.agent)}, args: process.argv.slice(2), cwd: process.cwd() }));\nprocess.exit(7);\n`);
    chmodSync(join(bin, seed.agent), 0o755);
  });
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('recapwrap resume', () => {
  it('--list --json lists each agent’s session for this folder, newest first, with its recap and resume command', () => {
    const r = cli(['--list', '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const list = JSON.parse(r.out) as Array<{ index: number; agent: string; id: string; file: string; recap: { line: string; generator: { type: string } }; command: string[] }>;
    expect(list.map((s) => s.agent)).toEqual(SEEDS.map((s) => s.agent));
    for (const [i, seed] of SEEDS.entries()) {
      const s = list[i]!;
      expect(s.index).toBe(i + 1);
      expect(s.id).toBe(seed.id);
      expect(s.file).toBe(placed.get(seed.agent));
      expect(s.recap.line).toMatch(/^recap: /);
      expect(s.recap.generator.type).toBe('heuristic');
      expect(s.command).toEqual([seed.agent, ...seed.resumeArgs(s.file)]);
    }
    // Listing past sessions never runs a model: the stand-in agent CLI on PATH was not called (#28 point 1).
    expect(existsSync(record)).toBe(false);
  });

  it('--pick N relaunches the agent with its own resume flags for exactly that session', () => {
    for (const [i, seed] of SEEDS.entries()) {
      const r = cli(['--pick', String(i + 1)]);
      expect(r.code).toBe(7); // the agent's exit code
      expect(r.err).toContain(`resuming with: ${seed.agent}`);
      const got = JSON.parse(readFileSync(record, 'utf8')) as { agent: string; args: string[]; cwd: string };
      expect(got).toEqual({ agent: seed.agent, args: seed.resumeArgs(placed.get(seed.agent)!), cwd });
    }
  });

  it('filters by query and agent; says so when nothing matches; refuses bad input', () => {
    expect(JSON.parse(cli(['hello.txt', '--json']).out).map((s: { agent: string }) => s.agent)).toContain('pi');
    const none = cli(['no-such-words-anywhere', '--list']);
    // A query that matches nothing is exit 1, like a pick of nothing (#28 point 9).
    expect(none.code).toBe(1);
    expect(none.out).toBe('');
    expect(none.err).toBe(`recapwrap: no agent sessions for ${cwd} matching "no-such-words-anywhere" (\`recapwrap resume --all no-such-words-anywhere\` looks in every folder)\n`);
    expect(cli(['no-such-words-anywhere', '--json'])).toMatchObject({ code: 1, out: '[]\n' });
    expect(cli(['--agent', 'cursor']).code).toBe(2);
    expect(cli(['--pick', 'x']).code).toBe(2);
    const far = cli(['--pick', '99']);
    expect(far.code).toBe(1);
    expect(far.err).toContain('no session 99');
    // Not a terminal and no --pick: the list, and how to pick.
    const plain = cli([]);
    expect(plain.code).toBe(2);
    expect(plain.out).toContain(' 1. pi');
    expect(plain.err).toContain('--pick N');
  });
});
