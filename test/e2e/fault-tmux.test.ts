// A hung tmux server (#19 point 15): a private server stopped with SIGSTOP, $TMUX pointing at it. The
// agent must start and print without waiting for tmux, and the wrapper's exit (with its state file
// removed) must not wait long on it either; no tmux client may be left behind waiting on the server.
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInPty } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { pidsWithEnv } from '../helpers/processes.js';
import { REPO_DIR } from '../helpers/shared.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { tmuxE2e } from '../helpers/tmux-e2e.js';

const hasTmux = tmuxAvailable();
const DEMO_AGENT = join(REPO_DIR, 'bin', 'demo-agent.js');
/**
 * What a hung server may add, start and exit each, over a run without tmux. Before the fix it added
 * 1.5 s at start and 2 s at exit; the bounds in the code are 100 ms and 250 ms. Generous for a loaded box.
 */
const ALLOWED_EXTRA_MS = 1000;

// tmux clients (processes named tmux) whose $TMUX is this server: started by a wrapper and never ended.
const clientsOf = (socket: string): number[] => pidsWithEnv(`TMUX=${socket}`, { comm: 'tmux' });

describe.skipIf(!hasTmux || process.platform !== 'linux')('a hung tmux server', () => {
  const setup = tmuxE2e('rw-hung');
  let serverPid = 0;
  // The test continues the server itself; this is for a test ended by its timeout. Registered after tmuxE2e's,
  // so it runs before it (after-hooks run last-registered first): a stopped server cannot be killed cleanly.
  afterAll(() => {
    if (serverPid) process.kill(serverPid, 'SIGCONT');
  });

  // One run of `recapwrap pi` (the demo agent): ms to its first screen, ms from quitting it to exit.
  async function timeRun(label: string, tmux: { TMUX: string; TMUX_PANE: string } | undefined): Promise<{ startMs: number; exitMs: number; stateDir: string }> {
    const { dir } = setup;
    const home = join(dir, label);
    const bin = join(home, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(DEMO_AGENT, join(bin, 'pi'));
    const stateDir = join(home, 'state');
    const started = Date.now();
    const t = runCliInPty(['pi'], {
      cwd: home,
      env: {
        PATH: `${bin}:${process.env.PATH}`,
        PI_CODING_AGENT_DIR: join(home, 'pi-agent'),
        RECAPWRAP_STATE_DIR: stateDir,
        RECAPWRAP_DEBUG_LOG: join(home, 'debug.log'),
        TMUX: tmux?.TMUX,
        TMUX_PANE: tmux?.TMUX_PANE,
      },
    });
    let exited = false;
    void t.exit.then(() => (exited = true));
    try {
      await t.waitFor('demo agent', { timeoutMs: 20_000, description: `${label}: the demo agent's first screen` });
      const startMs = Date.now() - started;
      // Its prompt: the demo agent prints it with raw mode already on, so Ctrl-D is a key, not the cooked tty's EOF.
      await t.waitFor(Buffer.from('\u203a', 'utf8').toString('latin1'), { description: `${label}: the demo agent's prompt` });
      await pollUntil(() => readdirSync(stateDir).some((f) => f.startsWith('live-')), { description: `${label}: the live state file` });
      const quitAt = Date.now();
      t.write('\x04'); // Ctrl-D: the demo agent quits
      expect(await t.waitForExit({ description: `${label}: the wrapper to exit after Ctrl-D` })).toEqual({ exitCode: 0 });
      const exitMs = Date.now() - quitAt;
      expect(readdirSync(stateDir).filter((f) => f.startsWith('live-'))).toEqual([]);
      return { startMs, exitMs, stateDir };
    } finally {
      // A run that failed must not outlive the test (its agent goes with it: its pty hangs up).
      if (!exited) {
        try {
          t.kill('SIGKILL');
        } catch {}
        await t.waitForExit({ description: `${label}: the killed wrapper to be gone` }).catch(() => undefined);
      }
    }
  }

  // Two runs each without tmux and with $TMUX on the stopped server, alternated; then the bounds.
  async function timedRuns(socket: string, tmux: { TMUX: string; TMUX_PANE: string }): Promise<void> {
    const base: Array<{ startMs: number; exitMs: number }> = [];
    const hung: Array<{ startMs: number; exitMs: number }> = [];
    for (let i = 0; i < 2; i++) {
      base.push(await timeRun(`base-${i}`, undefined));
      hung.push(await timeRun(`hung-${i}`, tmux));
    }
    const best = (runs: typeof base, key: 'startMs' | 'exitMs') => Math.min(...runs.map((r) => r[key]));
    const figures = `start ${best(base, 'startMs')} → ${best(hung, 'startMs')} ms, exit ${best(base, 'exitMs')} → ${best(hung, 'exitMs')} ms`;
    expect(best(hung, 'startMs') - best(base, 'startMs'), figures).toBeLessThan(ALLOWED_EXTRA_MS);
    expect(best(hung, 'exitMs') - best(base, 'exitMs'), figures).toBeLessThan(ALLOWED_EXTRA_MS);
    // Every client the wrappers started was ended with them, though the server never answered.
    await pollUntil(() => clientsOf(socket).length === 0, { timeoutMs: 3000, description: 'no tmux client left waiting on the stopped server' });
  }

  it('delays neither the agent start nor the exit beyond the bound, and leaves no tmux client behind', async () => {
    const { server } = setup;
    const pane = server.newSession({ name: 'h', command: ['sleep', '600'] });
    const socket = server.run(['display', '-p', '#{socket_path}']).trim();
    serverPid = Number(server.run(['display', '-p', '#{pid}']).trim());
    const tmux = { TMUX: `${socket},${serverPid},0`, TMUX_PANE: pane };
    process.kill(serverPid, 'SIGSTOP');
    try {
      await timedRuns(socket, tmux);
    } finally {
      process.kill(serverPid, 'SIGCONT'); // at once, not only in afterAll: nothing after this test waits on a stopped server
    }
  }, 120_000);
});
