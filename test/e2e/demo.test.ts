// `recapwrap demo` as a new user meets it (#18 points 3 and 4): in a default tmux (focus-events off) the
// recap appears anyway, from a short idle timer the demo announces, without touching tmux's options; a
// yes answers the agent's question; the throwaway project is removed when the demo ends, and nothing
// lands in ~/.pi or the folder it was started from. Also the demo agent run by hand.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, CLI_BIN, spawnInPty } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';
import { shellQuote, tmuxAvailable } from '../helpers/tmux.js';
import { tmuxE2e } from '../helpers/tmux-e2e.js';

const hasTmux = tmuxAvailable();
const DEMO_AGENT = join(REPO_DIR, 'bin', 'demo-agent.js');

describe.skipIf(!hasTmux)('recapwrap demo in a default tmux', () => {
  const setup = tmuxE2e('rw-demo');

  it('shows a recap from the idle timer it announces, answers y, and leaves nothing behind', async () => {
    const { dir, server } = setup;
    const home = join(dir, 'home');
    const tmp = join(dir, 'tmp');
    const start = join(dir, 'start');
    for (const d of [home, tmp, start]) mkdirSync(d);
    const env = { HOME: home, TMPDIR: tmp, RECAPWRAP_STATE_DIR: join(dir, 'state'), RECAPWRAP_DEMO_STEP_MS: '150' };
    const shell = server.newSession({ name: 'main', cols: 160, rows: 30, command: ['sh'], env });
    // The split pane gets the server's environment: the test's own HOME and TMPDIR.
    for (const [k, v] of Object.entries(env)) server.run(['set-environment', '-g', k, v]);
    server.attach('main', { cols: 160, rows: 30 });
    expect(server.showGlobalOption('focus-events')).toBe('off');
    server.run(['send-keys', '-t', shell, `cd ${shellQuote(start)} && ${shellQuote(process.execPath)} ${shellQuote(CLI_BIN)} demo`, 'Enter']);

    const panes = () => server.run(['list-panes', '-t', 'main', '-F', '#{pane_id}']).trim().split('\n');
    await pollUntil(() => panes().length === 2, { timeoutMs: 10_000, description: 'the demo pane' });
    const demo = panes().find((p) => p !== shell) as string;
    const said = await pollUntil(() => (server.capturePane(shell).includes('Ctrl-D quits') ? server.capturePane(shell).replace(/\s+/g, ' ') : undefined), { description: 'the instructions' });
    expect(said).toContain("tmux's focus-events is off");
    expect(said).toContain('8 s after it finishes');
    await pollUntil(() => server.capturePane(demo).includes('demo agent'), { timeoutMs: 10_000, description: 'the demo agent' });
    const workspace = readdirSync(tmp).filter((n) => n.startsWith('recapwrap-demo-'));
    expect(workspace).toHaveLength(1);

    server.run(['send-keys', '-t', demo, 'Enter']);
    await pollUntil(() => server.capturePane(demo).includes('want me to?'), { timeoutMs: 15_000, description: 'the turn to end' });
    const recap = await pollUntil(
      () => {
        try {
          return server.run(['show', '-pv', '-t', demo, '@recap']).trim() || undefined;
        } catch {
          return undefined;
        }
      },
      { timeoutMs: 30_000, description: 'a recap without any focus change (idle timer)' },
    );
    expect(recap).toContain('src/cli.ts');
    expect(server.showGlobalOption('focus-events')).toBe('off'); // never changed for the user

    // y answers the question asked: the README line, not a second run of another script.
    server.run(['send-keys', '-t', demo, '-l', 'y']);
    server.run(['send-keys', '-t', demo, 'Enter']);
    await pollUntil(() => server.capturePane(demo).includes('Documented --verbose in README.md'), { timeoutMs: 15_000, description: 'the follow-up' });
    expect(existsSync(join(tmp, workspace[0] as string, 'myproj', 'README.md'))).toBe(true);

    server.run(['send-keys', '-t', demo, 'C-d']);
    await pollUntil(() => panes().length === 1, { timeoutMs: 10_000, description: 'the demo pane to close' });
    await pollUntil(() => readdirSync(tmp).filter((n) => n.startsWith('recapwrap-demo-')).length === 0, { timeoutMs: 10_000, description: 'the throwaway project to be removed' });
    expect(readdirSync(start)).toEqual([]);
    expect(existsSync(join(home, '.pi'))).toBe(false);
    expect(existsSync(join(dir, 'state', 'index.db'))).toBe(false); // the demo is not one of your sessions
  });
});

describe('the demo agent run by hand', () => {
  it('writes nothing into the folder it starts in or ~/.pi, and removes its throwaway project', async () => {
    assertBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'rw-demo-hand-'));
    try {
      const home = join(dir, 'home');
      const tmp = join(dir, 'tmp');
      const start = join(dir, 'start');
      for (const d of [home, tmp, start]) mkdirSync(d);
      const run = spawnInPty(process.execPath, [DEMO_AGENT], { cwd: start, env: { HOME: home, TMPDIR: tmp, RECAPWRAP_DEMO_STEP_MS: '50', PI_CODING_AGENT_DIR: undefined, PI_CODING_AGENT_SESSION_DIR: undefined } });
      await run.waitFor('Ctrl-D quits');
      expect(readdirSync(tmp).filter((n) => n.startsWith('recapwrap-demo-'))).toHaveLength(1);
      run.write('fix the failing test\r');
      await run.waitFor('Shall I run');
      run.write('\x04');
      expect((await run.exit).exitCode).toBe(0);
      expect(readdirSync(start)).toEqual([]);
      expect(existsSync(join(home, '.pi'))).toBe(false);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
