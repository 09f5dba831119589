// `recapwrap doctor` in a tmux pane of a default tmux (focus-events off), as a new user runs it (#18
// point 8): it does not make you wait for the 15 s focus probe (no report could arrive), says why, and
// wraps its report to the pane's width. extended-keys is not a warning.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BIN } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { shellQuote, tmuxAvailable } from '../helpers/tmux.js';
import { tmuxE2e } from '../helpers/tmux-e2e.js';

const hasTmux = tmuxAvailable();

describe.skipIf(!hasTmux)('doctor inside a default tmux', () => {
  const setup = tmuxE2e('rw-doctor');

  it('skips the focus probe when focus-events is off and fits the report to the pane', async () => {
    const { dir: home, server } = setup;
    const cols = 60;
    const marker = join(home, 'done');
    const cmd = `${[process.execPath, CLI_BIN, 'doctor'].map(shellQuote).join(' ')}; touch ${shellQuote(marker)}; sleep 600`;
    const pane = server.newSession({ name: 'main', cols, rows: 50, command: ['sh', '-c', cmd], env: { HOME: home, XDG_STATE_HOME: join(home, 'state') } });
    server.attach('main', { cols, rows: 50 });
    expect(server.showGlobalOption('focus-events')).toBe('off');
    // The whole report, the rows scrolled off the pane's top too (it is longer than 50 rows by now).
    const capture = (...flags: string[]) => server.run(['capture-pane', '-p', ...flags, '-S', '-', '-t', pane]);
    const started = Date.now();
    const text = await pollUntil(
      () => {
        const t = capture();
        return /All good\.|Usable, with|problems? keeps?/.test(t) ? t : undefined;
      },
      { timeoutMs: 12_000, description: 'the doctor report' },
    );
    // Well under the 15 s probe, even on a loaded machine.
    expect(Date.now() - started).toBeLessThan(12_000);
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('not probed (tmux focus-events is off');
    expect(text).not.toContain('Switch to another window');
    expect(text).toMatch(/! tmux focus-events/);
    expect(text).not.toMatch(/! tmux extended-keys/);
    // Wrapped by doctor itself: joined lines (-J) are no wider than the pane, so tmux wrapped nothing.
    const joined = capture('-J').split('\n');
    for (const line of joined) expect(line.length, line).toBeLessThanOrEqual(cols);
  });
});
