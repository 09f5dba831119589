// The product's main moment, end to end in a private tmux server: a scripted agent that writes a real
// pi-format transcript runs under recapwrap; you switch to another pane while it works, stay away past
// the threshold, come back, and the recap is on the client's screen and in @recap; a key clears it and
// still reaches the agent, and the agent's pane is as it was.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/util/text-width.js';
import { VirtualTerminal } from '../fakes/virtual-terminal.js';
import { CLI_BIN } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { isProcessAlive } from '../../src/util/process.js';
import { tmuxE2e, wrapperCommand } from '../helpers/tmux-e2e.js';

const hasTmux = tmuxAvailable();
const DEMO_AGENT = join(REPO_DIR, 'bin', 'demo-agent.js');
const AWAY_SECONDS = 2;

describe.skipIf(!hasTmux)('live recap in tmux', () => {
  let wrapperPid: number | undefined;
  const setup = tmuxE2e('rw-live', {
    // The wrapper writes its last log lines and removes its state as the server dies: wait for it.
    afterKill: async () => {
      if (wrapperPid) await pollUntil(() => !isProcessAlive(wrapperPid as number), { timeoutMs: 10_000, description: 'the wrapper to exit' }).catch(() => undefined);
    },
  });

  it('shows the recap on return after the threshold, names the file written, and a key clears it', async () => {
    const { dir, server } = setup;
    const workspace = join(dir, 'work');
    const agentDir = join(dir, 'pi-agent');
    // recapwrap pins nothing for a command that is not pi itself (#18): it finds the session in pi's folder
    // for this cwd, made here so the folder watch sees the file at once (as in a pi user's home).
    mkdirSync(join(agentDir, 'sessions', `--${workspace.replace(/^\//, '').replace(/\//g, '-')}--`), { recursive: true });
    const pane = server.newSession({
      name: 'main',
      cols: 120,
      rows: 24,
      command: wrapperCommand(workspace, ['--agent', 'pi', '--away', String(AWAY_SECONDS), '--generator', 'heuristic', '--', DEMO_AGENT], { mkdir: true }),
      env: {
        PI_CODING_AGENT_DIR: agentDir,
        RECAPWRAP_STATE_DIR: join(dir, 'state'),
        RECAPWRAP_DEBUG_LOG: join(dir, 'debug.log'),
        RECAPWRAP_DRAFT_DEBOUNCE_MS: '200',
        RECAPWRAP_DEMO_STEP_MS: '300',
      },
    });
    wrapperPid = Number(server.run(['display-message', '-p', '-t', pane, '#{pane_pid}']).trim());
    server.run(['set', '-g', 'focus-events', 'on']);
    const other = server.splitWindow(pane, ['cat']);
    const client = server.attach('main', { cols: 120, rows: 30 });
    await pollUntil(() => server.capturePane(pane).includes('demo agent'), { description: 'the demo agent to draw' });

    server.run(['send-keys', '-t', pane, '-l', 'add a verbose flag']);
    server.run(['send-keys', '-t', pane, 'Enter']);
    server.run(['select-pane', '-t', other]);
    const leftAt = Date.now();
    await pollUntil(() => server.capturePane(pane).includes('Next I would document'), { timeoutMs: 20_000, description: 'the agent to finish its turn' });
    const sessionDir = join(agentDir, 'sessions');
    expect(readdirSync(sessionDir).length).toBeGreaterThan(0);
    await pollUntil(() => Date.now() - leftAt > AWAY_SECONDS * 1000 + 300, { description: 'time away past the threshold' });
    const paneBefore = server.capturePane(pane);
    const seenBefore = client.output().length;

    server.run(['select-pane', '-t', pane]);
    const recap = await pollUntil(
      () => {
        try {
          return server.run(['show', '-pv', '-t', pane, '@recap']).trim();
        } catch {
          return '';
        }
      },
      { description: '@recap to be set on return' },
    );
    expect(recap).toMatch(/^recap: /);
    expect(recap).toContain('src/cli.ts');
    await pollUntil(() => client.output().slice(seenBefore).includes('recap: '), { description: 'the recap on the client (display-message)' });
    // #17: @recap keeps the whole line; the message is composed for the client's 120 columns, Next: kept.
    const screen = new VirtualTerminal(120, 30);
    await screen.write(client.output());
    const status = screen.row(29).trimEnd();
    screen.dispose();
    expect(status).toMatch(/^recap: /);
    expect(displayWidth(status)).toBeLessThanOrEqual(120);
    expect(status).toContain('Next: ');
    if (displayWidth(recap) > 120) expect(status).not.toBe(recap);
    expect(server.run(['show', '-pv', '-t', pane, '@recap_state']).trim()).toMatch(/^(idle|waiting)$/);

    // The same recap for status lines, from the state file; and a recap on demand through the control socket.
    const cli = (...args: string[]) =>
      execFileSync(process.execPath, [CLI_BIN, ...args], { encoding: 'utf8', env: { ...process.env, RECAPWRAP_STATE_DIR: join(dir, 'state'), TMUX_PANE: '' } });
    expect(cli('status', '--pane', pane).trim()).toBe(recap);
    expect(cli('status', '--pane', pane, '--format', 'tmux').trim()).toBe(recap.replace(/#/g, '##'));
    expect(cli('status', '--pane', '%999')).toBe('');
    expect(cli('recap', '--pane', pane).trim()).toMatch(/^recap: .*src\/cli\.ts/);
    const shownBefore = client.output().length;
    cli('recap', '--pane', pane, '--show');
    await pollUntil(() => client.output().slice(shownBefore).includes('recap: '), { description: 'recap --show to display it again' });

    // The agent's own screen was never touched.
    expect(server.capturePane(pane)).toBe(paneBefore);
    server.run(['send-keys', '-t', pane, '-l', 'z']);
    await pollUntil(() => server.capturePane(pane).includes('› z'), { description: 'the key to reach the agent' });
    expect(server.capturePane(pane).replace('› z', '›')).toBe(paneBefore); // capture-pane trims the prompt's trailing space

    // On exit the wrapper removes its state file and its pane options.
    server.run(['send-keys', '-t', pane, 'C-d']);
    await pollUntil(() => readdirSync(join(dir, 'state')).filter((n) => n.startsWith('live-')).length === 0, { description: 'the state file to go' });
  });
});
