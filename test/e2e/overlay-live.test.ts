// The overlay outside tmux, end to end: recapwrap runs the scripted agent on a real pty whose output
// drives a virtual user terminal (which also answers the cursor-position query). Focus out, the agent
// finishes a turn, focus in after the threshold: the bar is on the bottom row and names the file the
// agent wrote; the next key removes it and the screen is exactly as before, cell for cell. Twice: with
// options on the command line, and as `recapwrap pi` with options from the environment (both through
// the start-up entry dist/cli/fast-wrap.cjs).
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

// Feed the virtual terminal everything recapwrap prints, and let it answer queries (cursor position)
// back through the pty. Returns the feeding interval, for clearInterval.
function connect(pty: CliPty, term: VirtualTerminal): NodeJS.Timeout {
  let fed = 0;
  const pump = setInterval(() => {
    const out = pty.output();
    if (out.length > fed) {
      void term.write(Buffer.from(out.slice(fed), 'latin1').toString('utf8'));
      fed = out.length;
    }
  }, 5);
  term.term.onData((d) => pty.write(d));
  return pump;
}

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
    const pump = connect(pty, term);
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
      // One row, or two (barRows defaults to 2) when the recap, composed for 100 columns, needs them.
      const barTop = () => term.snapshot().text.findIndex((l, y) => y >= ROWS - 2 && l.startsWith('✦ recap:'));
      await pollUntil(async () => (await term.settled(), barTop() >= 0), { description: 'the bar on the bottom rows' });
      const top = barTop();
      const barText = term.snapshot().text.slice(top).join(' ');
      expect(barText).toContain('src/cli.ts');
      expect(barText).toContain('Next:');
      const withBar = term.snapshot();
      expect(withBar.text.slice(0, top)).toEqual(before.text.slice(0, top));
      expect(withBar.cursor).toEqual(before.cursor);

      pty.write('\x0c'); // Ctrl-L: the demo agent ignores it, so only the bar's removal changes the screen
      await pollUntil(async () => (await term.settled(), !term.snapshot().text.some((l) => l.includes('✦ recap:'))), { description: 'the bar to go' });
      // The rows under the bar come back in the same write that takes it off; poll, do not guess a delay.
      await pollUntil(async () => (await term.settled(), JSON.stringify(term.snapshot()) === JSON.stringify(before)), { timeoutMs: 3000, description: 'the screen as it was' }).catch(() => undefined);
      expect(term.snapshot()).toEqual(before);

      pty.write('\x04');
      expect((await pty.exit).exitCode).toBe(0);
      // The screen copy ran in the wrapper's own thread (no worker thread: ~9 MB of RSS, #29).
      const log = readFileSync(join(dir as string, 'debug.log'), 'utf8');
      expect(log).toContain('"msg":"screen copy in this thread"');
      expect(log).not.toContain('"msg":"screen copy in a worker thread"');
    } finally {
      clearInterval(pump);
    }
  });

  // #19.13, end to end: a resize with the bar up (80x24 -> 60x20) left bar text on the first row and
  // lost the agent's header; a "working: …" bar from the hotkey mid-turn stayed after the turn ended.
  function startDemo(cols: number, rows: number, extra: string[], stepMs: number) {
    dir = mkdtempSync(join(tmpdir(), 'rw-overlay-'));
    const term = new VirtualTerminal(cols, rows);
    user = term;
    const env = {
      TMUX: undefined,
      TMUX_PANE: undefined,
      PI_CODING_AGENT_DIR: join(dir, 'pi-agent'),
      RECAPWRAP_STATE_DIR: join(dir, 'state'),
      RECAPWRAP_DRAFT_DEBOUNCE_MS: '100',
      RECAPWRAP_DEMO_STEP_MS: String(stepMs),
      RECAPWRAP_DEBUG_LOG: join(dir, 'debug.log'),
    };
    const pty = runCliInPty(['--agent', 'pi', '--display', 'overlay', '--away', '1', '--generator', 'heuristic', ...extra, '--', DEMO_AGENT], { cols, rows, env, cwd: dir });
    run = pty;
    const pump = connect(pty, term);
    const text = async () => (await term.settled(), term.snapshot().text);
    // Rows joined: the agent's lines wrap at 80 columns.
    const screenHas = (what: string, timeoutMs = 15_000) => pollUntil(async () => (await text()).join('').includes(what), { timeoutMs, description: `the screen to show ${JSON.stringify(what)}` });
    return { pty, term, pump, text, screenHas };
  }

  it('a resize with the bar up on the first row leaves no bar text and keeps the header line', async () => {
    const d = startDemo(80, 24, ['--position', 'top'], 150);
    try {
      await d.screenHas('demo agent');
      const header = (await d.text())[0];
      expect(header).toContain('demo agent');
      d.pty.write(FOCUS_IN);
      d.pty.write('add a verbose flag\r');
      d.pty.write(FOCUS_OUT);
      await d.screenHas('want me to?');
      const leftAt = Date.now();
      await pollUntil(() => Date.now() - leftAt > 1300, { description: 'time away' });
      d.pty.write(FOCUS_IN);
      // 20 s: the full suite with a core kept busy once took longer than the default 10 s here.
      await pollUntil(async () => (await d.text())[0]!.startsWith('✦ recap:'), { timeoutMs: 20_000, description: 'the bar on the first row' });
      await d.term.resize(60, 20);
      d.pty.resize(60, 20);
      // After the resize settles the screen is repainted from the copy and the bar comes back, for 60 columns.
      await pollUntil(async () => {
        const t = await d.text();
        // Not just the terminal's own reflow of the old bar: below the bar's two rows, no bar text.
        return t[0]!.startsWith('✦ recap:') && t.every((l) => l.length <= 60) && !/recap|Next: /.test(t.slice(2).join('\n'));
      }, { description: 'the bar back, composed for 60 columns' });
      d.pty.write('\x0c');
      await pollUntil(async () => !(await d.text()).some((l) => l.includes('✦ recap')), { description: 'the bar to go' });
      // The header comes back in the repaint that takes the bar off; poll for it, not a guessed delay.
      await pollUntil(async () => (await d.text())[0] === header, { timeoutMs: 3000, description: 'the header back' }).catch(() => undefined);
      const after = await d.text();
      expect(after[0]).toBe(header);
      expect(after.join('\n')).not.toMatch(/✦|recap:|Migrat|Next: /);
      expect(after.join('')).toContain('want me to?');
    } finally {
      clearInterval(d.pump);
    }
  });

  it('a key right after the resize (the bar taken off in the old size) still leaves no bar text', async () => {
    const d = startDemo(80, 24, ['--position', 'top'], 150);
    try {
      await d.screenHas('demo agent');
      const header = (await d.text())[0];
      d.pty.write(FOCUS_IN);
      d.pty.write('add a verbose flag\r');
      d.pty.write(FOCUS_OUT);
      await d.screenHas('want me to?');
      const leftAt = Date.now();
      await pollUntil(() => Date.now() - leftAt > 1300, { description: 'time away' });
      d.pty.write(FOCUS_IN);
      // 20 s: the full suite with a core kept busy once took longer than the default 10 s here.
      await pollUntil(async () => (await d.text())[0]!.startsWith('✦ recap:'), { timeoutMs: 20_000, description: 'the bar on the first row' });
      await d.term.resize(60, 20);
      d.pty.resize(60, 20);
      d.pty.write('\x0c');
      await pollUntil(async () => {
        const t = await d.text();
        return t[0] === header && !/✦|recap:|Next: /.test(t.join('\n'));
      }, { description: 'the screen repainted without the bar' });
      expect((await d.text()).join('')).toContain('want me to?');
    } finally {
      clearInterval(d.pump);
    }
  });

  it('the hotkey mid-turn shows "working: …", which goes when the turn ends', async () => {
    const d = startDemo(100, 30, [], 700);
    try {
      await d.screenHas('demo agent');
      d.pty.write('add a verbose flag\r');
      await d.screenHas('Adding the flag');
      d.pty.write('\x1d'); // Ctrl-]: the recap hotkey
      await pollUntil(async () => (await d.text()).some((l) => l.startsWith('✦ recap: working')), { description: 'the working bar' });
      await d.screenHas('Next I would document');
      const endedAt = Date.now();
      await pollUntil(async () => !(await d.text()).some((l) => l.includes('✦ recap')), { timeoutMs: 5000, description: 'the working bar to go when the turn ends' });
      expect(Date.now() - endedAt).toBeLessThan(5000);
    } finally {
      clearInterval(d.pump);
    }
  });
});
