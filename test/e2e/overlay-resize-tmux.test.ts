// #28 point 3, found by a newcomer: in a 20×5 pane with the overlay bar up, growing the window to 60×12
// lost the agent's last lines from the screen and the scrollback (the screen copy kept too little
// history to reflow and grow as tmux does, and the repaint wrote its rows over tmux's). After any resize
// the screen and the history must be what they are without the bar. The demo agent under the overlay
// display in a real tmux pane, run twice: with the bar up during the resize, and without it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BIN } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { tmuxE2e } from '../helpers/tmux-e2e.js';

const hasTmux = tmuxAvailable();

describe.skipIf(!hasTmux)('overlay bar and a resize of a tiny tmux pane', () => {
  const setup = tmuxE2e('rw-resize');

  // The pane's history and screen after two demo turns and a resize to 60×12 (with the bar up during it, or not).
  async function run(name: string, withBar: boolean): Promise<string> {
    const { dir, server } = setup;
    const home = join(dir, name);
    mkdirSync(home);
    const env = { HOME: home, TMPDIR: home, RECAPWRAP_STATE_DIR: join(home, 'state'), RECAPWRAP_DISPLAY: 'overlay', RECAPWRAP_DEMO_STEP_MS: '30' };
    const pane = server.newSession({ name, cols: 20, rows: 5, command: [process.execPath, CLI_BIN, 'demo', '--here'], env });
    server.run(['set', '-t', name, 'history-limit', '2000']);
    const all = () => server.run(['capture-pane', '-p', '-J', '-S', '-', '-t', pane]);
    const joined = () => all().replace(/\s+/g, ' ');
    await pollUntil(() => joined().includes('Ctrl-D quits. ›'), { timeoutMs: 15_000, description: 'the demo prompt' });
    server.run(['send-keys', '-t', pane, 'Enter']);
    await pollUntil(() => joined().includes('want me to?'), { timeoutMs: 15_000, description: 'the first turn' });
    server.run(['send-keys', '-t', pane, '-l', 'y']);
    server.run(['send-keys', '-t', pane, 'Enter']);
    await pollUntil(() => joined().includes('Documented --verbose in README.md under Options. ›'), { timeoutMs: 15_000, description: 'the second turn and the prompt' });
    if (withBar) {
      server.run(['send-keys', '-t', pane, 'C-]']);
      await pollUntil(() => server.capturePane(pane).includes('✦ recap'), { timeoutMs: 10_000, description: 'the bar' });
    }
    server.run(['resize-window', '-t', name, '-x', '60', '-y', '12']);
    if (withBar) {
      // The screen repainted from the copy and the bar composed again for 60 columns.
      await pollUntil(() => /✦ recap: done — add a --verbose flag/.test(server.capturePane(pane)), { timeoutMs: 10_000, description: 'the bar at the new width' });
    }
    // A key takes the bar off (and reaches the agent, which echoes it at its prompt).
    server.run(['send-keys', '-t', pane, '-l', 'x']);
    await pollUntil(() => server.capturePane(pane).includes('› x') && !server.capturePane(pane).includes('✦'), { timeoutMs: 10_000, description: 'the key echoed, the bar gone' });
    // Trailing blanks trimmed: -J keeps them, and cells the bar's removal erased count as blanks there.
    return all().replace(/[ \t]+$/gm, '').replace(/\n+$/, '\n');
  }

  it('after the resize the screen and its history are what they are without the bar', async () => {
    const plain = await run('plain', false);
    const barred = await run('barred', true);
    // The agent's last lines, which the bar covered before the resize, are all there.
    for (const line of ['Successfully replaced text in README.md', 'Documented --verbose in README.md under Options.']) expect(barred).toContain(line);
    // The same lines, soft wraps included: a row the wrapper repaints from its copy as the continuation of
    // the row above is written by wrapping from that row (its last cell written again, autowrap on), so
    // tmux marks it as wrapped and `-J` joins it as it joins the agent's own wrapped lines.
    expect(barred).toBe(plain);
  });
});
