// The session memory as a user meets it, through the built CLI on temp homes: real session files laid out
// where each agent keeps them (the project's fixtures; the third-party corpus when ../shared is here),
// `index`, `sessions`, `search`, `show`, `name`, `forget`; twenty `index` processes writing one database at
// once; a deleted transcript keeps its row; an API key typed into a prompt is stored nowhere.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layOutFolder, layOutSession, wordOnlyALaterPromptHas, type LaidOut } from '../helpers/agent-homes.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { corpusPresent, RECAP_CORPUS_DIR, TRANSCRIPTS_DIR } from '../helpers/shared.js';

interface Row { id: string; agent: string; cwd: string; name: string; headline: string; updatedAt: string; transcript: string; transcriptExists: boolean; snippet?: string }

const roots: string[] = [];
function tempHome(): { home: string; env: NodeJS.ProcessEnv } {
  const root = mkdtempSync(join(tmpdir(), 'rw-mem-'));
  roots.push(root);
  const home = join(root, 'home');
  mkdirSync(home);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, RECAPWRAP_STATE_DIR: join(root, 'state'), RECAPWRAP_GENERATOR: 'heuristic', TERM: 'dumb' };
  return { home, env };
}

function cli(env: NodeJS.ProcessEnv, ...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}
function json<T>(env: NodeJS.ProcessEnv, ...args: string[]): T {
  const r = cli(env, ...args, '--json');
  expect(r.err).toBe('');
  return JSON.parse(r.out) as T;
}

// Files of a folder, recursively, as bytes (to look for a secret anywhere in the state folder).
function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).map((f) => join(dir, f)).filter((f) => statSync(f).isFile());
}

beforeAll(() => assertBuilt());
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe('session memory on the project fixtures', () => {
  let env: NodeJS.ProcessEnv;
  let laid: LaidOut[];

  beforeAll(async () => {
    const t = tempHome();
    env = t.env;
    laid = [];
    for (const agent of ['pi', 'qwen', 'claude', 'codex', 'gemini'] as const) laid.push(await layOutSession(t.home, agent, join(TRANSCRIPTS_DIR, agent, 'interactive-2turns.jsonl')));
  });

  it('indexes every agent and lists each session with a name, newest first', () => {
    const first = cli(env, 'index');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^indexed 5 of 5 changed session files/);
    const rows = json<Row[]>(env, 'sessions');
    expect(rows.map((r) => r.transcript).sort()).toEqual(laid.map((l) => l.file).sort());
    for (const r of rows) {
      expect(r.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(r).toMatchObject({ id: expect.any(String), agent: expect.any(String), cwd: expect.any(String), headline: expect.any(String), updatedAt: expect.any(String) });
    }
    const times = rows.map((r) => Date.parse(r.updatedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(cli(env, 'index').out).toMatch(/^indexed 0 of 0 changed/); // nothing changed: nothing read
  });

  it('filters, shows a card, names, and says so when nothing matches (exit 1)', () => {
    const codex = json<Row[]>(env, 'sessions', '--agent', 'codex');
    expect(codex).toHaveLength(1);
    const card = json<Row & { resumeCommand: string[] }>(env, 'show', (codex[0] as Row).id.slice(0, 8));
    expect(card.resumeCommand).toEqual(['codex', 'resume', (codex[0] as Row).id]);
    const shown = cli(env, 'show', (codex[0] as Row).name);
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('resume:     recapwrap codex resume');
    // The card offers `read`, and `read NAME` reads the session the index names (#41).
    expect(shown.out).toContain(`read:       recapwrap read ${(codex[0] as Row).name}`);
    const read = cli(env, 'read', (codex[0] as Row).name, '--width', '80');
    expect(read.code).toBe(0);
    expect(read.out.split('\n')[0]).toBe(`codex · ${(codex[0] as Row).name}`);
    expect(read.out).toMatch(/^› 1\/\d+ {2}\d{4}-\d\d-\d\d \d\d:\d\d$/m);
    expect(cli(env, 'read', 'no-such-session-anywhere')).toMatchObject({ code: 1, out: '' });
    expect(cli(env, 'name', (codex[0] as Row).id, 'My Codex Try').out).toContain('my-codex-try');
    expect(json<Row>(env, 'show', '@@my-codex-try').id).toBe((codex[0] as Row).id);
    expect(cli(env, 'index', '--rebuild').code).toBe(0);
    expect(json<Row>(env, 'show', (codex[0] as Row).id).name).toBe('my-codex-try'); // a rebuild keeps it
    const none = cli(env, 'sessions', '--folder', '/nowhere/at/all');
    expect(none).toMatchObject({ code: 1, out: '' });
    expect(none.err).toContain('no sessions');
    expect(cli(env, 'search', 'zzqqxxnothing')).toMatchObject({ code: 1, out: '' });
    expect(cli(env, 'show', 'no-such-session').code).toBe(1);
    expect(cli(env, 'sessions', '--since', 'yesterday').code).toBe(2);
  });

  it('resume --all lists every folder from the index, with the folder and resume command of each', () => {
    const all = JSON.parse(cli(env, 'resume', '--all', '--json').out) as Array<{ agent: string; cwd: string; file: string; command: string[] }>;
    expect(all.map((s) => s.file).sort()).toEqual(laid.map((l) => l.file).sort());
    expect(new Set(all.map((s) => s.cwd)).size).toBeGreaterThan(1);
    const here = JSON.parse(cli({ ...env }, 'resume', '--json', '--cwd', (laid[0] as LaidOut).cwd).out) as Array<{ file: string }>;
    expect(here.map((s) => s.file)).toEqual([(laid[0] as LaidOut).file]);
    const pi = all.find((s) => s.agent === 'pi');
    expect(pi?.command).toEqual(['pi', '--session', pi?.file]);
  });

  it('reads a grown file again: a word of the new prompt is found', () => {
    const pi = laid.find((l) => l.agent === 'pi') as LaidOut;
    const lines = readFileSync(pi.file, 'utf8').trimEnd().split('\n');
    const last = JSON.parse(lines[lines.length - 1] as string) as { id: string; timestamp: string };
    const t = new Date(Date.parse(last.timestamp) + 1000).toISOString();
    appendFileSync(pi.file, JSON.stringify({ type: 'message', id: 'grown01', parentId: last.id, timestamp: t, message: { role: 'user', content: [{ type: 'text', text: 'now add a xylophonic banner' }], timestamp: Date.parse(t) } }) + '\n');
    expect(cli(env, 'index').out).toMatch(/^indexed 1 of 1 changed/);
    expect(json<Row[]>(env, 'search', 'xylophonic').map((h) => h.transcript)).toEqual([pi.file]);
  });

  it('answers odd queries without an error from the database', () => {
    for (const q of ['"foo', '(bar', 'a*', 'AND', 'NOT OR', "x'; DROP TABLE sessions; --"]) {
      const r = cli(env, 'search', q);
      expect([0, 1], q).toContain(r.code);
      expect(r.err, q).not.toMatch(/sqlite|fts5|syntax/i);
    }
    expect(cli(env, 'search', '--', '-x').err).not.toMatch(/sqlite|fts5|syntax/i);
    const punct = cli(env, 'search', '*');
    expect(punct.code).toBe(2);
    expect(punct.err).toContain('Expected words to search for');
    expect(json<Row[]>(env, 'sessions')).toHaveLength(5);
  });

  it('keeps the row of a deleted transcript, and show says the file is gone', () => {
    const gone = laid.find((l) => l.agent === 'qwen') as LaidOut;
    unlinkSync(gone.file);
    const rows = json<Row[]>(env, 'sessions');
    expect(rows).toHaveLength(5);
    expect(rows.find((r) => r.transcript === gone.file)).toMatchObject({ transcriptExists: false });
    expect(cli(env, 'show', gone.id).out).toContain('(gone: the agent deleted it; this is what the index kept)');
  });
});

describe('privacy', () => {
  it('never stores an API key typed into a prompt; the session is found by its other words; forget is for good', async () => {
    const { home, env } = tempHome();
    const key = 'sk-proj-Q7wE9rT2yU4iO6pA8sD0fG1hJ3kL5zX';
    const src = join(home, '..', 'src.jsonl');
    const raw = readFileSync(join(TRANSCRIPTS_DIR, 'claude', 'print-2turns.jsonl'), 'utf8').replaceAll('List the files here', `List the files here, use ${key} for the pomegranate service`);
    writeFileSync(src, raw);
    const placed = await layOutSession(home, 'claude', src);
    const hits = json<Row[]>(env, 'search', 'pomegranate');
    expect(hits.map((h) => h.transcript)).toEqual([placed.file]);
    expect(hits[0]?.snippet).toContain('pomegranate');
    expect(hits[0]?.snippet).not.toMatch(/[\uE000\uE001\x1b]/); // no highlight in JSON
    expect(cli(env, 'search', 'pomegranate').out).not.toContain('\x1b'); // nor when piped
    expect(cli(env, 'search', key).code).toBe(1);
    const state = env.RECAPWRAP_STATE_DIR as string;
    for (const f of filesUnder(state)) expect(readFileSync(f).includes(key.slice(8)), f).toBe(false);

    expect(cli(env, 'forget', placed.id, '--yes').code).toBe(0);
    expect(cli(env, 'sessions').code).toBe(1); // refreshed, and not indexed again: the transcript is still there
    const rebuilt = cli(env, 'index', '--rebuild');
    expect(rebuilt.code).toBe(0);
    // Every file read again but the forgotten one, which is counted as such.
    expect(rebuilt.out).toMatch(/^indexed 0 of 0 session files read again \(1 found, 0 left out, 1 forgotten, 0 gone\)/);
    expect(cli(env, 'search', 'pomegranate').code).toBe(1);
    for (const f of filesUnder(state)) expect(readFileSync(f).includes('pomegranate'), f).toBe(false);
  });

  it('memoryFolders: only sessions in those folders are indexed', async () => {
    const { home, env } = tempHome();
    for (const agent of ['pi', 'qwen', 'claude'] as const) await layOutSession(home, agent, join(TRANSCRIPTS_DIR, agent, 'interactive-2turns.jsonl'));
    const limited = { ...env, RECAPWRAP_MEMORY_FOLDERS: '/home/dev/proj/pi-tui:/home/dev/proj/qwen-tui' };
    expect(cli(limited, 'index').out).toMatch(/^indexed 2 of 3 changed session files \(3 found, 1 left out/);
    expect(json<Row[]>(limited, 'sessions').map((r) => r.agent).sort()).toEqual(['pi', 'qwen']);
  });

  it('memory off: the commands say so and write nothing', () => {
    const { env } = tempHome();
    const r = cli({ ...env, RECAPWRAP_MEMORY: '0' }, 'sessions');
    expect(r.code).toBe(1);
    // The cause as the user set it (#37): here the environment, never "the config".
    expect(r.err).toBe('recapwrap: session memory is off (RECAPWRAP_MEMORY=0 in the environment)\n');
    expect(existsSync(env.RECAPWRAP_STATE_DIR as string)).toBe(false);
  });
});

describe('transcript text on the terminal', () => {
  it('sessions, search, show, name and forget print no escape from a hostile folder or id; --json keeps the raw value, escaped', async () => {
    const t = tempHome();
    const evilCwd = '/tmp/evil\u001b]0;PWNED\u0007\u001b[31m';
    const evilId = '01a208c9-\u001b[2J-75b4';
    const lines = readFileSync(join(TRANSCRIPTS_DIR, 'pi', 'interactive-2turns.jsonl'), 'utf8').split('\n');
    const header = JSON.parse(lines[0] as string) as Record<string, unknown>;
    lines[0] = JSON.stringify({ ...header, id: evilId, cwd: evilCwd });
    const source = join(t.home, 'evil.jsonl');
    writeFileSync(source, lines.join('\n'));
    await layOutSession(t.home, 'pi', source);
    const outputs = [cli(t.env, 'sessions'), cli(t.env, 'search', 'the'), cli(t.env, 'show', 'evil')];
    const rows = json<Row[]>(t.env, 'sessions');
    expect(rows.map((r) => [r.cwd, r.id])).toEqual([[evilCwd, evilId]]);
    outputs.push(cli(t.env, 'name', (rows[0] as Row).name, 'calm'), cli(t.env, 'forget', 'calm', '--yes'));
    for (const r of outputs) {
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/evil|01a208c9/);
      expect(r.out + r.err).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    }
    expect(outputs[2]?.out).toMatch(/^folder: +\/tmp\/evil +project/m);
  });
});

describe('twenty writers at once', () => {
  it('lose no row', async () => {
    const { home, env } = tempHome();
    const src = readFileSync(join(TRANSCRIPTS_DIR, 'claude', 'print-2turns.jsonl'), 'utf8');
    const runs: Array<Promise<number>> = [];
    for (let i = 0; i < 20; i++) {
      // Each process has its own Claude home with one session of its own; all share the one index.
      const dir = join(home, `claude-${i}`, 'projects', '-w');
      mkdirSync(dir, { recursive: true });
      const id = `a93c9192-d292-423a-8e76-${String(i).padStart(12, '0')}`;
      writeFileSync(join(dir, `${id}.jsonl`), src.replaceAll('a93c9192-d292-423a-8e76-15f3a01128b9', id).replaceAll('List the files here', `List the files of writer${i}`));
      const child = spawn(process.execPath, [CLI_BIN, 'index'], { env: { ...env, CLAUDE_CONFIG_DIR: join(home, `claude-${i}`) }, stdio: 'ignore' });
      runs.push(new Promise((resolve) => child.on('exit', (code) => resolve(code ?? -1))));
    }
    expect(await Promise.all(runs)).toEqual(Array(20).fill(0));
    const rows = json<Row[]>({ ...env, CLAUDE_CONFIG_DIR: join(home, 'none') }, 'sessions', '--limit', '100');
    expect(rows).toHaveLength(20);
    for (let i = 0; i < 20; i++) expect(json<Row[]>(env, 'search', `writer${i}`).length, `writer${i}`).toBeGreaterThanOrEqual(1);
  }, 120_000);
});

describe.skipIf(!corpusPresent)('session memory on the third-party corpus laid out in the agents\' homes', () => {
  let env: NodeJS.ProcessEnv;
  let laid: LaidOut[];

  beforeAll(async () => {
    const t = tempHome();
    env = t.env;
    laid = await layOutFolder(t.home, RECAP_CORPUS_DIR);
  });

  it('lists every session of all five agents, each with a name unique in its folder', () => {
    expect(laid.length).toBeGreaterThanOrEqual(40);
    const rows = json<Row[]>(env, 'sessions', '--limit', '1000');
    expect(rows.map((r) => r.transcript).sort()).toEqual(laid.map((l) => l.file).sort());
    expect(new Set(rows.map((r) => r.agent))).toEqual(new Set(['pi', 'qwen', 'claude', 'codex', 'gemini']));
    const perFolder = new Set(rows.map((r) => `${r.cwd}\n${r.name}`));
    expect(perFolder.size).toBe(rows.length);
    for (const r of rows) expect(r.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('finds a session in the top 3 by a word only one of its later prompts has', async () => {
    const probe = await wordOnlyALaterPromptHas(laid);
    expect(probe, 'a session with a word of its own in a later prompt').toBeDefined();
    const hits = json<Row[]>(env, 'search', (probe as { word: string }).word);
    expect(hits.slice(0, 3).map((h) => h.transcript)).toContain(probe?.laid.file);
  });

  it('keeps the rows of deleted transcripts', () => {
    const gone = laid.slice(0, 3);
    for (const l of gone) unlinkSync(l.file);
    const rows = json<Row[]>(env, 'sessions', '--limit', '1000');
    expect(rows).toHaveLength(laid.length);
    for (const l of gone) expect(rows.find((r) => r.transcript === l.file)).toMatchObject({ transcriptExists: false });
    expect(cli(env, 'show', rows.find((r) => r.transcript === gone[0]?.file)?.id as string).out).toContain('gone: the agent deleted it');
  });
});
