// Memory you can trust, through the built CLI on temp homes as a user meets it (issue #33 items 3, 4, 6,
// 7, 9; #37 item 8): a forgotten session stays forgotten (its folder away for a refresh, `index
// --rebuild`, a corrupt index rebuilt); `sessions` answers while another process holds the write lock,
// and waits for a short write to end; `forget` takes only an exact reference and asks first on a
// terminal; `--json` prints JSON on failure too.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { layOutSession, type LaidOut } from '../helpers/agent-homes.js';
import { assertBuilt, CLI_BIN, runCliInPty } from '../helpers/cli-pty.js';
import { TRANSCRIPTS_DIR } from '../helpers/shared.js';
import { holdIndex, type Holder } from '../helpers/sqlite-holder.js';

interface Row { id: string; agent: string; cwd: string; name: string; transcript: string }

const roots: string[] = [];
const holders: Holder[] = [];

async function home(): Promise<{ env: NodeJS.ProcessEnv; state: string; laid: LaidOut[] }> {
  const root = mkdtempSync(join(tmpdir(), 'rw-trust-'));
  roots.push(root);
  const h = join(root, 'home');
  mkdirSync(h);
  const state = join(root, 'state');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: h, RECAPWRAP_STATE_DIR: state, RECAPWRAP_GENERATOR: 'heuristic', TERM: 'dumb' };
  const laid: LaidOut[] = [];
  for (const agent of ['pi', 'qwen', 'claude'] as const) laid.push(await layOutSession(h, agent, join(TRANSCRIPTS_DIR, agent, 'interactive-2turns.jsonl')));
  return { env, state, laid };
}

// The CLI as a script runs it (no terminal), asynchronously: a holder process may run meanwhile.
function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; out: string; err: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, out, err, ms: Date.now() - started }));
  });
}
const rows = async (env: NodeJS.ProcessEnv) => JSON.parse((await cli(env, 'sessions', '--json')).out) as Row[];

beforeAll(() => assertBuilt());
afterEach(async () => {
  for (const h of holders.splice(0)) await h.release();
});
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe('a forgotten session stays forgotten', () => {
  it('through its folder away for a refresh, index --rebuild, and a corrupt index rebuilt; the damaged copy goes with the next forget', async () => {
    const { env, state, laid } = await home();
    expect((await cli(env, 'index')).code).toBe(0);
    const gone = laid.find((l) => l.agent === 'claude') as LaidOut;
    expect((await cli(env, 'forget', gone.id, '--yes')).code).toBe(0);
    const away = dirname(gone.file) + '.away';
    renameSync(dirname(gone.file), away); // an unmounted disk, a renamed folder
    expect((await cli(env, 'index')).code).toBe(0);
    renameSync(away, dirname(gone.file));
    expect((await cli(env, 'index')).code).toBe(0);
    expect((await rows(env)).map((r) => r.id)).not.toContain(gone.id);
    expect((await cli(env, 'index', '--rebuild')).code).toBe(0);
    expect((await rows(env)).map((r) => r.id).sort()).toEqual(laid.filter((l) => l !== gone).map((l) => l.id).sort());
    // The index damaged: moved aside, rebuilt from every file, the forgotten one left out.
    writeFileSync(join(state, 'index.db'), 'not a database at all '.repeat(300));
    const rebuilt = await cli(env, 'sessions', '--json');
    expect(rebuilt.err).toMatch(/unreadable.*kept it as/);
    expect((JSON.parse(rebuilt.out) as Row[]).map((r) => r.id).sort()).toEqual(laid.filter((l) => l !== gone).map((l) => l.id).sort());
    const other = laid.find((l) => l.agent === 'pi') as LaidOut;
    const next = await cli(env, 'forget', other.id, '--json', '--yes');
    expect(JSON.parse(next.out)).toMatchObject({ forgotten: 1, purged: true, removedCopies: [expect.stringMatching(/index\.db\.corrupt-/)] });
    expect(readdirSync(state).filter((f) => f.includes('corrupt'))).toEqual([]);
  });
});

describe('readers never wait for writers', () => {
  it('sessions answers from the last commit while another process holds the write lock', async () => {
    const { env, state } = await home();
    expect((await cli(env, 'index')).code).toBe(0);
    holders.push(await holdIndex(join(state, 'index.db'), 'write', "UPDATE sessions SET name = 'uncommitted-name'"));
    // A new session file: the quick refresh has something to write, and must not wait for the lock for it.
    await layOutSession(env.HOME as string, 'codex', join(TRANSCRIPTS_DIR, 'codex', 'interactive-2turns.jsonl'));
    const r = await cli(env, 'sessions', '--json');
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(5000); // the CLI's start included; before, it waited 15 s and failed
    const names = (JSON.parse(r.out) as Row[]).map((x) => x.name);
    expect(names).toHaveLength(3);
    expect(names).not.toContain('uncommitted-name');
    // Said: the session laid out above is not among them, and the user is told why.
    expect(r.err).toContain('another process is writing the index; answering from its last commit');
    expect((await cli(env, 'search', 'the', '--json')).code).not.toBe(-1);
  });

  it('show finds a session written a moment ago while another process ends a short write (a wrapper\'s turn end)', async () => {
    const { env, state } = await home();
    expect((await cli(env, 'index')).code).toBe(0);
    const laid = await layOutSession(env.HOME as string, 'codex', join(TRANSCRIPTS_DIR, 'codex', 'interactive-2turns.jsonl'));
    // Held as the CLI starts, rolled back 400 ms later: within the read's wait (half a second) for a write.
    holders.push(await holdIndex(join(state, 'index.db'), 'write', "UPDATE sessions SET name = 'uncommitted-name'", 400));
    const r = await cli(env, 'show', laid.id, '--json');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ id: laid.id, agent: 'codex' });
  });

  it('search and sessions answer from the last commit while another recapwrap reads the session files, and say so', async () => {
    const { env, state } = await home();
    expect((await cli(env, 'index')).code).toBe(0);
    // Another process's refresh, announced a moment ago (a first `index` reading thousands of files).
    const other = await holdIndex(join(state, 'index.db'), 'announce', '0');
    holders.push(other);
    // A new session file: a read's refresh would index it; this one leaves it to the other process.
    await layOutSession(env.HOME as string, 'codex', join(TRANSCRIPTS_DIR, 'codex', 'interactive-2turns.jsonl'));
    const listed = await cli(env, 'sessions', '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out)).toHaveLength(3);
    expect(listed.err).toBe(`recapwrap: another recapwrap (pid ${other.child.pid}) is indexing your sessions; answering from the 3 sessions indexed so far\n`);
    const found = await cli(env, 'search', 'the');
    expect(found.code).toBe(0);
    expect(found.err).toContain(`another recapwrap (pid ${other.child.pid}) is indexing your sessions`);
    // That process gone (its row left behind, as after a crash): the read refreshes again itself.
    await other.release();
    await holdIndex(join(state, 'index.db'), 'announce', '0').then(async (h) => {
      h.child.kill('SIGKILL');
      await new Promise((done) => h.child.once('exit', done));
    });
    const after = await cli(env, 'sessions', '--json');
    expect(after.err).toBe('');
    expect(JSON.parse(after.out)).toHaveLength(4);
  });

  it('index waits for another recapwrap that is indexing, then reads what it left', async () => {
    const { env, state } = await home();
    expect((await cli(env, 'index')).code).toBe(0);
    const other = await holdIndex(join(state, 'index.db'), 'announce', '0');
    holders.push(other);
    await layOutSession(env.HOME as string, 'codex', join(TRANSCRIPTS_DIR, 'codex', 'interactive-2turns.jsonl'));
    const child = spawn(process.execPath, [CLI_BIN, 'index'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number>((done) => child.once('exit', (code) => done(code ?? -1)));
    await new Promise<void>((said) => child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('\n')) said();
    }));
    expect(err).toBe(`recapwrap: waiting for another recapwrap (pid ${other.child.pid}), which is indexing your sessions\n`);
    expect(child.exitCode).toBeNull();
    await other.release();
    expect(await exited).toBe(0);
    expect(out).toMatch(/^indexed 1 of 1 changed session file .*; 4 sessions in the index\n$/);
  });

  it('a refresh announced but not heard from for a minute counts as ended', async () => {
    const { env, state } = await home();
    expect((await cli(env, 'index')).code).toBe(0);
    holders.push(await holdIndex(join(state, 'index.db'), 'announce', String(-2 * 60_000)));
    await layOutSession(env.HOME as string, 'codex', join(TRANSCRIPTS_DIR, 'codex', 'interactive-2turns.jsonl'));
    const r = await cli(env, 'sessions', '--json');
    expect(r.err).toBe('');
    expect(JSON.parse(r.out)).toHaveLength(4);
  });

  it('the MCP server answers list_sessions while another process holds the write lock', async () => {
    const { env, state } = await home();
    expect((await cli(env, 'index')).code).toBe(0);
    const names = (await rows(env)).map((r) => r.name);
    holders.push(await holdIndex(join(state, 'index.db'), 'write', "UPDATE sessions SET name = 'uncommitted-name'"));
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, 'mcp'], env: env as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'recapwrap-trust', version: '1.0.0' });
    await client.connect(transport);
    try {
      const started = Date.now();
      const result = (await client.callTool({ name: 'list_sessions', arguments: {} })) as CallToolResult;
      expect(Date.now() - started).toBeLessThan(3000); // before, the open waited 15 s for the lock
      expect(result.isError).toBeFalsy();
      const listed = (result.content[0] as { text: string }).text;
      for (const n of names) expect(listed).toContain(n);
      expect(listed).not.toContain('uncommitted-name');
    } finally {
      await client.close();
    }
  });

  it('forget says when another process reading the index keeps the text in the log', async () => {
    const { env, state, laid } = await home();
    expect((await cli(env, 'index')).code).toBe(0);
    holders.push(await holdIndex(join(state, 'index.db'), 'read'));
    const r = await cli(env, 'forget', (laid[0] as LaidOut).id, '--json', '--yes');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ forgotten: 1, purged: false });
    expect(r.err).toContain("still in the index's write-ahead log");
  });
});

describe('forget acts only on an exact reference, and asks on a terminal', () => {
  it('a loose match lists the candidates and forgets nothing (exit 2); --json says so in JSON', async () => {
    const { env } = await home();
    expect((await cli(env, 'index')).code).toBe(0);
    const row = (await rows(env))[0] as Row;
    const part = (row.name.split('-').find((w) => w.length >= 5) ?? row.name).slice(1, 4); // inside a word of its name
    const loose = await cli(env, 'forget', part);
    expect(loose.code).toBe(2);
    expect(loose.err).toContain('nothing forgotten');
    expect(loose.err).toContain(row.name);
    const asJson = await cli(env, 'forget', part, '--json');
    expect(JSON.parse(asJson.out)).toMatchObject({ error: expect.stringContaining('only partly matches'), code: 2, candidates: expect.arrayContaining([expect.stringContaining(row.name)]) });
    expect(await rows(env)).toHaveLength(3);
    // #40.8: no terminal to ask on: refused (exit 2) unless --yes.
    const unasked = await cli(env, 'forget', row.name);
    expect(unasked.code).toBe(2);
    expect(unasked.err).toContain('add --yes');
    expect(await rows(env)).toHaveLength(3);
    const folder = await cli(env, 'forget', '--folder', '/');
    expect(folder.code).toBe(2);
    expect(folder.err).toMatch(/not a terminal.*would forget 3 sessions/);
    expect(await rows(env)).toHaveLength(3);
    expect(JSON.parse((await cli(env, 'forget', row.name, '--json')).out)).toMatchObject({ error: expect.stringContaining('add --yes'), code: 2 });
    expect((await cli(env, 'forget', row.name, '--yes')).code).toBe(0);
    expect(await rows(env)).toHaveLength(2);
  });

  it('on a terminal shows what will go and asks; no keeps it, yes forgets, --yes does not ask', async () => {
    const { env, laid } = await home();
    expect((await cli(env, 'index')).code).toBe(0);
    const ptyEnv = { ...env, TERM: 'xterm-256color' } as Record<string, string>;
    const first = laid[0] as LaidOut;
    let t = runCliInPty(['forget', first.id], { env: ptyEnv });
    await t.waitFor('[y/N]');
    expect(t.output()).toContain('cannot be undone');
    expect(t.output()).toContain(first.id.slice(0, 12));
    t.write('n\r');
    expect((await t.exit).exitCode).toBe(1);
    expect(await rows(env)).toHaveLength(3);
    t = runCliInPty(['forget', '--folder', first.cwd], { env: ptyEnv });
    await t.waitFor('[y/N]');
    t.write('y\r');
    expect((await t.exit).exitCode).toBe(0);
    expect((await rows(env)).map((r) => r.id)).not.toContain(first.id);
    t = runCliInPty(['forget', '--yes', (laid[1] as LaidOut).id], { env: ptyEnv });
    expect((await t.exit).exitCode).toBe(0);
    expect(t.output()).not.toContain('[y/N]');
    expect(await rows(env)).toHaveLength(1);
  });
});

describe('--json prints JSON on stdout whatever happens; numbers out of range are said clearly', () => {
  it('search, sessions, show, name and forget', async () => {
    const { env } = await home();
    const huge = await cli(env, 'search', 'x', '--limit', '99999999999999999999');
    expect(huge.code).toBe(2);
    expect(huge.err).toContain('Expected `--limit` to be a whole number from 1 to 1,000,000, got `99999999999999999999`');
    expect(huge.err).not.toMatch(/datatype|sqlite/i);
    for (const args of [['search', '*'], ['search', 'x', '--limit', '0'], ['sessions', '--limit', '1e3'], ['show', 'no-such-session'], ['name', 'no-such', 'x'], ['forget'], ['forget', 'no-such-session'], ['sessions', '--since', 'soon']]) {
      const r = await cli(env, ...args, '--json');
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(JSON.parse(r.out), args.join(' ')).toMatchObject({ error: expect.any(String), code: r.code });
    }
    for (const args of [['search', '--json'], ['sessions', '--json', '--bogus']]) {
      const usage = await cli(env, ...args); // usage errors, which commander reports
      expect(usage.code, args.join(' ')).toBe(2);
      expect(JSON.parse(usage.out), args.join(' ')).toMatchObject({ error: expect.any(String), code: 2 });
    }
    const off = await cli({ ...env, RECAPWRAP_MEMORY: '0' }, 'sessions', '--json');
    expect(JSON.parse(off.out)).toMatchObject({ error: expect.stringContaining('session memory is off') });
  });
});

describe('model calls you see', () => {
  it("a summary at a wrapper's exit runs the agent's CLI at most twice when its answers are invalid, each run in the debug log with its purpose", async () => {
    const { env, state, laid } = await home();
    const bin = join(state, '..', 'bin');
    mkdirSync(bin);
    const runs = join(state, '..', 'runs.txt');
    // Claude Code's one-off mode as recapwrap runs it (-p … --output-format text), answering no JSON.
    writeFileSync(join(bin, 'claude'), `#!/usr/bin/env node\nrequire('node:fs').appendFileSync(${JSON.stringify(runs)}, process.argv.slice(2, 3).join(' ') + '\\n');\nprocess.stdout.write('Sure! This session was about listing files.');\n`);
    chmodSync(join(bin, 'claude'), 0o755);
    const debug = join(state, '..', 'debug.log');
    const withAgent = { ...env, PATH: `${bin}:${env.PATH}`, RECAPWRAP_GENERATOR: 'auto', RECAPWRAP_DEBUG_LOG: debug };
    const claude = laid.find((l) => l.agent === 'claude') as LaidOut;
    expect((await cli(withAgent, 'index')).code).toBe(0);
    // What the wrapper's exit starts (live-summary.ts): one session's summary, the default generator.
    const r = await cli(withAgent, 'index', '--summarize', '--session', claude.id, '--json');
    expect(JSON.parse(r.out)).toMatchObject({ summarised: 0, failed: 1, requests: 2 });
    expect(readFileSync(runs, 'utf8').trim().split('\n')).toEqual(['-p', '-p']);
    const calls = readFileSync(debug, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { msg: string; purpose?: string; generator?: string }).filter((l) => l.msg === 'model call');
    expect(calls.map((c) => c.purpose)).toEqual([1, 2].map((n) => `summary of claude session ${claude.id}, call ${n} of at most 2`));
    expect(calls[0]?.generator).toBe('agent');
  });
});
