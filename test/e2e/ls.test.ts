// Three scripted agents under three real wrappers (real ptys): `recapwrap ls --json` lists all three
// with their state; a killed one disappears; a corrupt state file is skipped with a warning.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, runCliInPty, type CliPty } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';

const run = promisify(execFile);
const DEMO_AGENT = join(REPO_DIR, 'bin', 'demo-agent.js');

describe('recapwrap ls', () => {
  let dir: string;
  const wrappers: CliPty[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rw-ls-'));
  });
  afterAll(async () => {
    for (const w of wrappers) {
      try {
        w.kill('SIGKILL');
      } catch {}
    }
    await Promise.all(wrappers.map((w) => w.exit));
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it('lists every live wrapper, drops a killed one, and skips a corrupt state file', async () => {
    const stateDir = join(dir, 'state');
    const env = { RECAPWRAP_STATE_DIR: stateDir, PI_CODING_AGENT_DIR: join(dir, 'pi'), TMUX: undefined, TMUX_PANE: undefined, RECAPWRAP_DEMO_STEP_MS: '50' };
    for (const name of ['alpha', 'beta', 'gamma']) {
      const cwd = join(dir, name);
      mkdirSync(cwd);
      wrappers.push(runCliInPty(['--agent', 'pi', '--display', 'none', '--', DEMO_AGENT], { cwd, env }));
    }
    const ls = async () => {
      const { stdout, stderr } = await run(process.execPath, [CLI_BIN, 'ls', '--json'], { env: { ...process.env, RECAPWRAP_STATE_DIR: stateDir } });
      return { states: JSON.parse(stdout) as Array<{ pid: number; cwd: string; agent: string; state: string }>, stderr };
    };
    // --display none still tracks: only the visible part is off.
    await pollUntil(async () => (await ls()).states.length === 3, { timeoutMs: 15_000, description: 'three live wrappers in ls' });
    const { states } = await ls();
    expect(states.map((s) => s.cwd.split('/').pop()).sort()).toEqual(['alpha', 'beta', 'gamma']);
    expect(new Set(states.map((s) => s.agent))).toEqual(new Set(['pi']));
    expect(new Set(states.map((s) => s.pid))).toEqual(new Set(wrappers.map((w) => w.pid)));

    // One agent finishes a turn: its state follows the transcript.
    wrappers[0]!.write('\r');
    await pollUntil(async () => (await ls()).states.find((s) => s.pid === wrappers[0]!.pid)?.state === 'waiting', { timeoutMs: 15_000, description: 'the finished turn (ending on a question) to show as waiting' });

    wrappers[1]!.kill('SIGKILL');
    await wrappers[1]!.exit;
    writeFileSync(join(stateDir, 'live-4242.json'), '{not json');
    const after = await ls();
    expect(after.states.map((s) => s.pid).sort()).toEqual([wrappers[0]!.pid, wrappers[2]!.pid].sort());
    expect(after.stderr).toContain('live-4242.json');

    const { stdout: table } = await run(process.execPath, [CLI_BIN, 'ls'], { env: { ...process.env, RECAPWRAP_STATE_DIR: stateDir } });
    expect(table.split('\n')[0]).toMatch(/^AGENT\s+DIR\s+STATE\s+LOOKED\s+PANE\s+RECAP/);
    expect(table).toMatch(/pi .*alpha.*waiting/);
  });

  // #28 point 9: a wrapped command that is not an agent is listed as a command, without a recap.
  it('lists a wrapped command that is not an agent as a command, and forgets it when it exits', async () => {
    const stateDir = join(dir, 'state-cmd');
    const cwd = join(dir, 'delta');
    mkdirSync(cwd);
    const env = { ...process.env, RECAPWRAP_STATE_DIR: stateDir };
    const cmd = runCliInPty(['sleep', '60'], { cwd, env: { RECAPWRAP_STATE_DIR: stateDir, TMUX: undefined, TMUX_PANE: undefined } });
    wrappers.push(cmd);
    const ls = async () => JSON.parse((await run(process.execPath, [CLI_BIN, 'ls', '--json'], { env })).stdout) as Array<{ pid: number; agent: string | null; command: string; lastRecap: unknown }>;
    await pollUntil(async () => (await ls()).length === 1, { timeoutMs: 15_000, description: 'the wrapped sleep in ls' });
    expect(await ls()).toMatchObject([{ pid: cmd.pid, agent: null, command: 'sleep', lastRecap: null }]);
    const { stdout: table } = await run(process.execPath, [CLI_BIN, 'ls'], { env });
    expect(table.split('\n')[1]).toMatch(/^sleep\s+\S*delta\s+command \d+s\s+-\s+-$/);
    cmd.kill('SIGTERM');
    await cmd.exit;
    await pollUntil(async () => (await ls()).length === 0, { timeoutMs: 10_000, description: 'the exited command gone from ls' });
  });
});
