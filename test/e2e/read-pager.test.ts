// `recapwrap read` in a real tmux pane through `less` (#41): the first screen shows the header and the
// first prompt, `/›` jumps to the next prompt mark and `n` to the one after, `q` gives the shell back
// (the command's exit status 0); the pager's colours are the renderer's own (less -R).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';
import { shellQuote, tmuxAvailable } from '../helpers/tmux.js';
import { tmuxE2e } from '../helpers/tmux-e2e.js';

const hasTmux = tmuxAvailable();
const FIXTURE = join(REPO_DIR, 'test', 'fixtures', 'transcripts', 'pi', 'reader', 'branches.jsonl');

describe.skipIf(!hasTmux)('read through less in a tmux pane', () => {
  const setup = tmuxE2e('rw-read');
  let env: Record<string, string>;
  beforeAll(() => {
    const home = join(setup.dir, 'home');
    mkdirSync(home);
    // The default pager (less -R), whatever the machine running the tests has set.
    env = { HOME: home, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config'), PAGER: '', LESS: '', TERM: 'xterm-256color', NO_COLOR: '' };
  });

  it('first screen, /› jumps to the next prompt, n to the one after, q returns to the shell', async () => {
    const { server } = setup;
    const pane = server.newSession({ name: 'read', cols: 100, rows: 20, command: ['sh'], env });
    const top = () => server.capturePane(pane).split('\n')[0] ?? '';
    await pollUntil(() => /[#$>]/.test(server.capturePane(pane)), { description: 'the shell prompt' });
    server.run(['send-keys', '-t', pane, '-l', `${[process.execPath, CLI_BIN, 'read', FIXTURE].map(shellQuote).join(' ')}`]);
    server.run(['send-keys', '-t', pane, 'Enter']);
    // The first screen: the header on top, the first prompt's mark, less waiting at its prompt.
    const first = await pollUntil(() => {
      const screen = server.capturePane(pane);
      return screen.startsWith('pi\n') && screen.includes('› 1/3  2026-11-28 08:43') ? screen : undefined;
    }, { timeoutMs: 20_000, description: 'the first screen of read in less' });
    expect(first).toContain('counts  3 prompts · 8 answers · 5 tool calls · main line + 1 branch, now on branch 1');
    expect(first).not.toContain('› 2/3');
    // Colours reach the pane as the renderer wrote them (less -R), none from the transcript.
    expect(server.capturePane(pane, { escapes: true })).toMatch(/\x1b\[[0-9;]*m› 1\/3/);
    server.run(['send-keys', '-t', pane, '-l', '/›']);
    server.run(['send-keys', '-t', pane, 'Enter']);
    await pollUntil(() => top().startsWith('› 1/3'), { description: '/› to put prompt 1 on top' });
    server.run(['send-keys', '-t', pane, '-l', 'n']);
    await pollUntil(() => top().startsWith('› 2/3'), { description: 'n to put prompt 2 on top' });
    server.run(['send-keys', '-t', pane, '-l', 'n']);
    await pollUntil(() => top().startsWith('› 3/3'), { description: 'n to put prompt 3 (on the branch) on top' });
    server.run(['send-keys', '-t', pane, '-l', 'q']);
    server.run(['send-keys', '-t', pane, '-l', 'echo "read-exit=$?"']);
    server.run(['send-keys', '-t', pane, 'Enter']);
    await pollUntil(() => server.capturePane(pane).includes('read-exit=0'), { description: 'q to give the shell back, read exiting 0' });
  });
});
