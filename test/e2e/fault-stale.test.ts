// #19 point 9: a SIGKILLed wrapper runs no clean-up and used to leave its live file, control socket and
// session claim behind for good. `ls` and the next wrapper's start remove them; a live wrapper's own
// entries stay.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, runCliInPty, type CliPty } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { endProcessesWithEnv } from '../helpers/processes.js';
import { REPO_DIR } from '../helpers/shared.js';

const run = promisify(execFile);
const FAKE_AGENT = join(REPO_DIR, 'test', 'fixtures', 'bin', 'fake-agent.mjs');

let dir: string;
let stateDir: string;
let env: Record<string, string | undefined>;
const wrappers: CliPty[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-fault-stale-'));
  stateDir = join(dir, 'state');
  env = { RECAPWRAP_STATE_DIR: stateDir, PI_CODING_AGENT_DIR: join(dir, 'pi'), TMUX: undefined, TMUX_PANE: undefined, HOME: dir };
});
afterAll(async () => {
  for (const w of wrappers) {
    try {
      w.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await Promise.all(wrappers.map((w) => w.exit));
  // The last wrapper's exit starts a detached model summary (`recapwrap index --summarize`, llm on by
  // default) that writes state/ after the wrapper is gone: removed before it ends, the folder came back.
  await endProcessesWithEnv(`RECAPWRAP_STATE_DIR=${stateDir}`);
  rmSync(dir, { recursive: true, force: true });
});

const entriesOf = (pid: number) => ({
  live: existsSync(join(stateDir, `live-${pid}.json`)),
  socket: existsSync(join(stateDir, 'sockets', `${pid}.sock`)),
});
const claims = () => (existsSync(join(stateDir, 'claims')) ? readdirSync(join(stateDir, 'claims')) : []);

// A wrapper whose agent has written its session file (so it holds a claim), then SIGKILLed.
async function startAndKill(name: string): Promise<number> {
  const cwd = join(dir, name);
  mkdirSync(cwd);
  const w = runCliInPty(['--agent', 'pi', '--display', 'none', '--', FAKE_AGENT], { cwd, env });
  wrappers.push(w);
  w.write('turn hello\r');
  await w.waitFor('OK turn', { timeoutMs: 20_000 });
  await pollUntil(() => entriesOf(w.pid).live && entriesOf(w.pid).socket && claims().length > 0, { timeoutMs: 20_000, description: `${name}: live file, socket and claim` });
  w.kill('SIGKILL');
  await w.exit;
  return w.pid;
}

describe('stale entries of SIGKILLed wrappers', () => {
  it('ls removes the live file, socket and claim a SIGKILLed wrapper left', async () => {
    const pid = await startAndKill('a');
    // Left behind: nothing ran on the way out.
    expect(entriesOf(pid)).toEqual({ live: true, socket: true });
    expect(claims().length).toBeGreaterThan(0);
    const { stdout } = await run(process.execPath, [CLI_BIN, 'ls', '--json'], { env: { ...process.env, ...env } as NodeJS.ProcessEnv });
    expect(JSON.parse(stdout)).toEqual([]);
    expect(entriesOf(pid)).toEqual({ live: false, socket: false });
    expect(claims()).toEqual([]);
  }, 90_000);

  it("the next wrapper's start removes them too, and keeps its own", async () => {
    const pid = await startAndKill('b');
    expect(entriesOf(pid)).toEqual({ live: true, socket: true });
    const cwd = join(dir, 'c');
    mkdirSync(cwd);
    const next = runCliInPty(['--agent', 'pi', '--display', 'none', '--', FAKE_AGENT], { cwd, env });
    wrappers.push(next);
    await pollUntil(() => !entriesOf(pid).live && !entriesOf(pid).socket && claims().length === 0, { timeoutMs: 20_000, description: "the killed wrapper's entries removed by the next start" });
    expect(entriesOf(next.pid)).toEqual({ live: true, socket: true });
    next.write('turn again\r');
    await next.waitFor('OK turn', { timeoutMs: 20_000 });
    await pollUntil(() => claims().length === 1, { timeoutMs: 20_000, description: "the live wrapper's own claim" });
    // ls while it lives: its entries stay.
    const { stdout } = await run(process.execPath, [CLI_BIN, 'ls', '--json'], { env: { ...process.env, ...env } as NodeJS.ProcessEnv });
    expect((JSON.parse(stdout) as Array<{ pid: number }>).map((s) => s.pid)).toEqual([next.pid]);
    expect(entriesOf(next.pid)).toEqual({ live: true, socket: true });
    expect(claims()).toHaveLength(1);
    next.write('quit 0\r');
    expect(await next.exit).toEqual({ exitCode: 0 });
    expect(entriesOf(next.pid)).toEqual({ live: false, socket: false });
  }, 90_000);
});
