// `recapwrap board` driven in a private tmux server: two scripted agents under two wrappers in one
// window, the board in another. Rows appear; a row updates when its agent finishes a turn; j + Enter
// jumps the client to the second agent's pane; q quits and the shell's screen is back as it was.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BIN } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';
import { shellQuote, tmuxAvailable } from '../helpers/tmux.js';
import { tmuxE2e, wrapperCommand } from '../helpers/tmux-e2e.js';

const hasTmux = tmuxAvailable();
const DEMO_AGENT = join(REPO_DIR, 'bin', 'demo-agent.js');

describe.skipIf(!hasTmux)('recapwrap board', () => {
  const setup = tmuxE2e('rw-board');

  it('shows live rows, follows a finished turn, jumps to a pane on Enter and restores the screen on q', async () => {
    const { dir, server } = setup;
    const env = { RECAPWRAP_STATE_DIR: join(dir, 'state'), PI_CODING_AGENT_DIR: join(dir, 'pi'), RECAPWRAP_DEMO_STEP_MS: '100' };
    const wrapped = (name: string) => {
      const cwd = join(dir, name);
      mkdirSync(cwd);
      return wrapperCommand(cwd, ['--agent', 'pi', '--generator', 'heuristic', '--', DEMO_AGENT]);
    };
    const alpha = server.newSession({ name: 'main', cols: 140, rows: 24, command: wrapped('alpha'), env });
    // Started one after the other: the board orders rows by start time, newest first (as ls). alpha has
    // started once its state file (with its start time) is there.
    const liveFiles = () => (existsSync(env.RECAPWRAP_STATE_DIR) ? readdirSync(env.RECAPWRAP_STATE_DIR).filter((n) => n.startsWith('live-')) : []);
    await pollUntil(() => liveFiles().length === 1, { timeoutMs: 15_000, description: 'alpha’s state file' });
    const beta = server.splitWindow(alpha, wrapped('beta'), env);
    const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    const boardPane = server.run(['new-window', '-d', '-P', '-F', '#{pane_id}', '-t', 'main', ...envArgs, `sh -c 'echo BEFORE-THE-BOARD; exec sh'`]).trim();
    server.attach('main', { cols: 140, rows: 24 });
    await pollUntil(() => server.capturePane(boardPane).includes('BEFORE-THE-BOARD'), { timeoutMs: 5000, description: 'the shell in the board window' });
    const before = server.capturePane(boardPane);

    server.run(['send-keys', '-t', boardPane, `${shellQuote(process.execPath)} ${shellQuote(CLI_BIN)} board`, 'Enter']);
    const rowOf = (name: string) => server.capturePane(boardPane).split('\n').find((l) => l.includes(`/${name}`));
    await pollUntil(() => rowOf('alpha') && rowOf('beta'), { timeoutMs: 15_000, description: 'both sessions on the board' });
    expect(server.capturePane(boardPane).split('\n')[0]).toMatch(/^AGENT\s+DIR\s+STATE\s+LOOKED\s+PANE\s+RECAP/);
    expect(rowOf('alpha')).toMatch(new RegExp(`^pi\\s.*alpha\\s.*${alpha}(\\s|$)`));
    expect(rowOf('beta')).toMatch(new RegExp(`^pi\\s.*beta\\s.*${beta}(\\s|$)`));

    const rows = server.capturePane(boardPane).split('\n');
    expect(rows.findIndex((l) => l.includes('/beta'))).toBeLessThan(rows.findIndex((l) => l.includes('/alpha')));

    // alpha's agent finishes a turn (it ends on a question): the row follows, with its recap (no label).
    server.run(['send-keys', '-t', alpha, 'Enter']);
    await pollUntil(() => /waiting/.test(rowOf('alpha') ?? '') && /verbose/.test(rowOf('alpha') ?? ''), { timeoutMs: 15_000, description: 'alpha’s row to show waiting and a recap' });
    expect(rowOf('alpha')).not.toContain('recap: ');

    // alpha now waits for you while you look elsewhere, so it sorts first (#21): beta is the second row.
    const now = server.capturePane(boardPane).split('\n');
    expect(now.findIndex((l) => l.includes('/alpha'))).toBeLessThan(now.findIndex((l) => l.includes('/beta')));
    // Select the second row, back to the first, down again, and jump: the client now shows beta's pane.
    server.run(['select-window', '-t', boardPane]);
    server.run(['send-keys', '-t', boardPane, 'j']);
    server.run(['send-keys', '-t', boardPane, 'k']);
    server.run(['send-keys', '-t', boardPane, 'j']);
    server.run(['send-keys', '-t', boardPane, 'Enter']);
    const activePane = () => server.run(['display-message', '-p', '-t', 'main', '#{pane_id}']).trim();
    await pollUntil(() => activePane() === beta, { timeoutMs: 5000, description: `the client to jump to ${beta}` });

    // Back on the board, q quits and the shell's screen is restored.
    server.run(['select-window', '-t', boardPane]);
    server.run(['send-keys', '-t', boardPane, 'q']);
    await pollUntil(() => !server.capturePane(boardPane).includes('RECAP'), { timeoutMs: 5000, description: 'the board to quit' });
    const after = server.capturePane(boardPane);
    expect(after.startsWith(before.trimEnd())).toBe(true);
    expect(after).toContain('board');
  });
});
