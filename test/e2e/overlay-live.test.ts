// The overlay outside tmux, end to end: recapwrap runs the scripted agent on a real pty whose output
// drives a virtual user terminal (which also answers the cursor-position query). Focus out, the agent
// finishes a turn, focus in after the threshold: the bar is on the bottom row and names the file the
// agent wrote; the next key removes it and the screen is exactly as before, cell for cell. Twice: with
// options on the command line (the full CLI), and as `recapwrap pi` with options from the environment
// (the start-up bundle in dist/fast/, which must find the screen worker too).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualTerminal } from '../fakes/virtual-terminal.js';
import { runCliInPty, type CliPty } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';

const COLS = 100;
const ROWS = 30;
const DEMO_AGENT = join(REPO_DIR, 'bin', 'demo-agent.js');
const FOCUS_IN = '\x1b[I';
const FOCUS_OUT = '\x1b[O';

let dir: string | undefined;
let run: CliPty | undefined;
let user: VirtualTerminal | undefined;
afterEach(async () => {
  if (run) {
    try {
      run.kill('SIGKILL');
    } catch {}
    await run.exit;
  }
  user?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  run = user = dir = undefined;
});

describe('overlay bar outside tmux', () => {
  it.each(['flags', 'plain'] as const)('appears on focus return after the threshold and leaves the screen exactly as it was (%s launch)', async (launch) => {
    dir = mkdtempSync(join(tmpdir(), 'rw-overlay-'));
    // `recapwrap pi …`: the scripted agent under pi's name, so recapwrap takes it for pi by its name.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    // With --agent and another executable recapwrap pins nothing and finds the session in pi's folder for
    // this cwd: made here, so the folder watch sees the file at once (as it would in a pi user's home).
    mkdirSync(join(dir, 'pi-agent', 'sessions', `--${dir.replace(/^\//, '').replace(/\//g, '-')}--`), { recursive: true });
    symlinkSync(DEMO_AGENT, join(bin, 'pi'));
    const term = new VirtualTerminal(COLS, ROWS);
    user = term;
    const env = {
      TMUX: undefined,
      TMUX_PANE: undefined,
      PI_CODING_AGENT_DIR: join(dir, 'pi-agent'),
      RECAPWRAP_STATE_DIR: join(dir, 'state'),
      RECAPWRAP_DRAFT_DEBOUNCE_MS: '100',
      RECAPWRAP_DEMO_STEP_MS: '150',
      RECAPWRAP_DEBUG_LOG: join(dir, 'debug.log'),
      ...(launch === 'plain' ? { PATH: `${bin}:${process.env.PATH}`, RECAPWRAP_DISPLAY: 'overlay', RECAPWRAP_AWAY: '1', RECAPWRAP_GENERATOR: 'heuristic' } : {}),
    };
    const args = launch === 'flags' ? ['--agent', 'pi', '--display', 'overlay', '--away', '1', '--generator', 'heuristic', '--', DEMO_AGENT] : ['pi'];
    const pty = runCliInPty(args, { cols: COLS, rows: ROWS, env, cwd: dir });
    run = pty;
    // Feed the virtual terminal with everything recapwrap prints; let it answer queries (cursor position).
    let fed = 0;
    const pump = setInterval(() => {
      const out = pty.output();
      if (out.length > fed) {
        void term.write(Buffer.from(out.slice(fed), 'latin1').toString('utf8'));
        fed = out.length;
      }
    }, 5);
    term.term.onData((d) => pty.write(d));
    const screenHas = (text: string) => pollUntil(async () => (await term.settled(), term.snapshot().text.some((l) => l.includes(text))), { timeoutMs: 15_000, description: `the screen to show ${JSON.stringify(text)}` });
    try {
      await screenHas('demo agent');
      pty.write(FOCUS_IN);
      pty.write('add a verbose flag\r');
      pty.write(FOCUS_OUT);
      await screenHas('Next I would document');
      const leftAt = Date.now();
      await pollUntil(() => Date.now() - leftAt > 1300, { description: 'time away' });
      await term.settled();
      const before = term.snapshot();

      pty.write(FOCUS_IN);
      await pollUntil(async () => (await term.settled(), term.row(ROWS - 1).includes('✦ recap:')), { description: 'the bar on the bottom row' });
      expect(term.row(ROWS - 1)).toContain('src/cli.ts');
      const withBar = term.snapshot();
      expect(withBar.text.slice(0, ROWS - 1)).toEqual(before.text.slice(0, ROWS - 1));
      expect(withBar.cursor).toEqual(before.cursor);

      pty.write('\x0c'); // Ctrl-L: the demo agent ignores it, so only the bar's removal changes the screen
      await pollUntil(async () => (await term.settled(), !term.row(ROWS - 1).includes('✦ recap:')), { description: 'the bar to go' });
      await new Promise((r) => setTimeout(r, 100));
      await term.settled();
      expect(term.snapshot()).toEqual(before);

      pty.write('\x04');
      expect((await pty.exit).exitCode).toBe(0);
      // The screen copy ran in its worker (found from the start-up bundle too), not inline.
      expect(readFileSync(join(dir as string, 'debug.log'), 'utf8')).toContain('"msg":"screen copy in a worker thread"');
    } finally {
      clearInterval(pump);
    }
  });
});
