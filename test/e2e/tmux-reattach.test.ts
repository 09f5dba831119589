// #43 (High): inside tmux with focus-events off (tmux's default), a re-attach sends the pane one
// focus-in, and no pane or window switch is ever reported. The wrapper must not take that focus-in as
// proof that focus reports work: after a turn, a detach, an attach and another turn, the recap still
// comes (the idle timer), and @recap always says what the state file (status --pane, ls) says.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../src/util/process.js';
import { CLI_BIN } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';
import { tmuxAvailable, type TmuxClient } from '../helpers/tmux.js';
import { tmuxE2e, wrapperCommand } from '../helpers/tmux-e2e.js';

const hasTmux = tmuxAvailable();
const DEMO_AGENT = join(REPO_DIR, 'bin', 'demo-agent.js');
const IDLE_SECONDS = 2;

// The wrapper's debug log, one message per entry (for the failure message and the focus events seen).
function logged(file: string): Array<{ msg: string; [key: string]: unknown }> {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg: string });
  } catch {
    return [];
  }
}

describe.skipIf(!hasTmux)('recaps after a tmux re-attach with focus-events off (#43)', () => {
  let wrapperPid: number | undefined;
  const setup = tmuxE2e('rw-reattach', {
    afterKill: async () => {
      if (wrapperPid) await pollUntil(() => !isProcessAlive(wrapperPid as number), { timeoutMs: 10_000, description: 'the wrapper to exit' }).catch(() => undefined);
    },
  });

  it('a turn, detach, attach, another turn: the recap comes, and @recap equals the state', async () => {
    const { dir, server } = setup;
    const workspace = join(dir, 'work');
    const agentDir = join(dir, 'pi-agent');
    const stateDir = join(dir, 'state');
    const debugLog = join(dir, 'debug.log');
    mkdirSync(join(agentDir, 'sessions', `--${workspace.replace(/^\//, '').replace(/\//g, '-')}--`), { recursive: true });
    // A placeholder first, so the client is attached before the wrapper starts (as when you type
    // `recapwrap pi` in a pane you are looking at).
    const pane = server.newSession({ name: 'main', cols: 120, rows: 24, command: ['sh', '-c', 'exec cat'] });
    expect(server.showGlobalOption('focus-events')).toBe('off');
    let client: TmuxClient = server.attach('main', { cols: 120, rows: 30 });
    await pollUntil(() => server.run(['list-clients', '-F', '#{client_name}']).trim() !== '', { description: 'the client to attach' });
    const env = {
      PI_CODING_AGENT_DIR: agentDir,
      RECAPWRAP_STATE_DIR: stateDir,
      RECAPWRAP_DEBUG_LOG: debugLog,
      RECAPWRAP_DEMO_STEP_MS: '300',
    };
    const command = wrapperCommand(workspace, ['--agent', 'pi', '--away', '1', '--idle', String(IDLE_SECONDS), '--generator', 'heuristic', '--', DEMO_AGENT], { mkdir: true });
    server.run(['respawn-pane', '-k', '-t', pane, ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), command.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ')]);
    wrapperPid = await pollUntil(() => Number(server.run(['display-message', '-p', '-t', pane, '#{pane_pid}']).trim()) || undefined, { description: 'the wrapper pid' });
    await pollUntil(() => server.capturePane(pane).includes('demo agent'), { timeoutMs: 20_000, description: 'the demo agent to draw' });

    const atRecap = () => {
      try {
        return server.run(['show', '-pv', '-t', pane, '@recap']).trim();
      } catch {
        return '';
      }
    };
    const cli = (...args: string[]) => execFileSync(process.execPath, [CLI_BIN, ...args], { encoding: 'utf8', env: { ...process.env, RECAPWRAP_STATE_DIR: stateDir, TMUX: '', TMUX_PANE: '' } });
    const why = () => JSON.stringify(logged(debugLog).filter((e) => /focus|trigger|show/.test(e.msg)).slice(-30));

    // Turn 1: the recap comes from the idle timer (focus-events is off: no pane switch can be seen).
    server.run(['send-keys', '-t', pane, '-l', 'add a verbose flag']);
    server.run(['send-keys', '-t', pane, 'Enter']);
    await pollUntil(() => server.capturePane(pane).includes('Next I would document'), { timeoutMs: 30_000, description: 'the first turn to end' });
    const first = await pollUntil(() => (/src\/cli\.ts/.test(atRecap()) ? atRecap() : ''), { timeoutMs: 30_000, description: `the first recap in @recap; log: ${why()}` });
    await pollUntil(() => client.output().includes('recap: '), { timeoutMs: 10_000, description: 'the first recap on the client' });
    expect(cli('status', '--pane', pane).trim()).toBe(first);

    // Detach, attach again: tmux sends the pane a focus-in (whatever focus-events says).
    server.run(['detach-client', '-s', 'main']);
    await pollUntil(() => server.run(['list-clients', '-F', '#{client_name}']).trim() === '', { description: 'the client to detach' });
    client.kill();
    const focusBefore = logged(debugLog).filter((e) => e.msg === 'focus in').length;
    client = server.attach('main', { cols: 120, rows: 30 });
    await pollUntil(() => logged(debugLog).filter((e) => e.msg === 'focus in').length > focusBefore, { timeoutMs: 15_000, description: 'the focus-in of the attach' });
    const seenAfterAttach = client.output().length;

    // Turn 2: the recap comes again, on the client and in @recap.
    server.run(['send-keys', '-t', pane, '-l', 'yes']);
    server.run(['send-keys', '-t', pane, 'Enter']);
    await pollUntil(() => server.capturePane(pane).includes('Documented --verbose'), { timeoutMs: 30_000, description: 'the second turn to end' });
    const second = await pollUntil(() => (atRecap() !== first ? atRecap() : ''), { timeoutMs: 30_000, description: `the second recap in @recap; log: ${why()}` });
    expect(second).toMatch(/^recap: /);
    await pollUntil(() => client.output().slice(seenAfterAttach).includes('recap: '), { timeoutMs: 10_000, description: `the second recap on the client; log: ${why()}` });
    // @recap says what the state file says (status --pane and ls read it).
    await pollUntil(() => cli('status', '--pane', pane).trim() === atRecap(), { timeoutMs: 10_000, description: '@recap to equal status --pane' });
    const listed = JSON.parse(cli('ls', '--json')) as Array<{ tmuxPane: string | null; lastRecap: { line: string } | null }>;
    expect(listed.find((w) => w.tmuxPane === pane)?.lastRecap?.line).toBe(atRecap());

    server.run(['send-keys', '-t', pane, 'C-d']);
    await pollUntil(() => !isProcessAlive(wrapperPid as number), { timeoutMs: 15_000, description: 'the wrapper to exit' });
  });

  // Between shown recaps the state file gets each closed turn's offline line (status --pane, ls): @recap
  // must get it too, or a status line built on #{@recap} is a turn behind.
  it('@recap carries the closed turn\'s line before any recap is shown', async () => {
    const { dir, server } = setup;
    const workspace = join(dir, 'work2');
    const agentDir = join(dir, 'pi-agent2');
    const stateDir = join(dir, 'state2');
    mkdirSync(join(agentDir, 'sessions', `--${workspace.replace(/^\//, '').replace(/\//g, '-')}--`), { recursive: true });
    const pane = server.newSession({
      name: 'quiet',
      cols: 120,
      rows: 24,
      // --idle 0 and no focus-events: no recap is ever shown here, only kept current.
      command: wrapperCommand(workspace, ['--agent', 'pi', '--idle', '0', '--generator', 'heuristic', '--', DEMO_AGENT], { mkdir: true }),
      env: { PI_CODING_AGENT_DIR: agentDir, RECAPWRAP_STATE_DIR: stateDir, RECAPWRAP_DEMO_STEP_MS: '300' },
    });
    const pid = Number(server.run(['display-message', '-p', '-t', pane, '#{pane_pid}']).trim());
    await pollUntil(() => server.capturePane(pane).includes('demo agent'), { timeoutMs: 20_000, description: 'the demo agent to draw' });
    server.run(['send-keys', '-t', pane, '-l', 'add a verbose flag']);
    server.run(['send-keys', '-t', pane, 'Enter']);
    await pollUntil(() => server.capturePane(pane).includes('Next I would document'), { timeoutMs: 30_000, description: 'the turn to end' });
    const status = () => execFileSync(process.execPath, [CLI_BIN, 'status', '--pane', pane], { encoding: 'utf8', env: { ...process.env, RECAPWRAP_STATE_DIR: stateDir, TMUX: '', TMUX_PANE: '' } }).trim();
    const line = await pollUntil(() => (/src\/cli\.ts/.test(status()) ? status() : ''), { timeoutMs: 15_000, description: "the turn's line in the state file" });
    await pollUntil(
      () => {
        try {
          return server.run(['show', '-pv', '-t', pane, '@recap']).trim() === line;
        } catch {
          return false;
        }
      },
      { timeoutMs: 10_000, description: '@recap to equal status --pane' },
    );
    server.run(['send-keys', '-t', pane, 'C-d']);
    await pollUntil(() => !isProcessAlive(pid), { timeoutMs: 15_000, description: 'the wrapper to exit' });
  });
});
