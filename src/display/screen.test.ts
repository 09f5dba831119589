// The overlay bar drawn over real agent screens and full-screen programs, then removed: the user's
// terminal must end up exactly as if the bar had never been there (every cell, attributes, cursor).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualTerminal } from '../../test/fakes/virtual-terminal.js';
import { SCREENS_DIR } from '../../test/helpers/shared.js';
import { MAX_PENDING_BYTES } from './screen-mirror.js';
import { OverlayScreen, REDRAW_THROTTLE_MS } from './screen.js';
import { unfinishedTailStart } from './stream-boundary.js';

const COLS = 100;
const ROWS = 30;
const made: Array<{ dispose(): void }> = [];
afterEach(() => {
  for (const m of made.splice(0)) m.dispose();
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A user terminal, a reference terminal that only ever sees the agent, and the overlay in between.
function rig(position: 'top' | 'bottom' = 'bottom', cols = COLS, rows = ROWS, now?: () => number) {
  const user = new VirtualTerminal(cols, rows);
  const reference = new VirtualTerminal(cols, rows);
  const writes: string[] = [];
  const screen = new OverlayScreen({ cols, rows, position, write: (d) => (writes.push(d), void user.write(d)), cursorAtStart: { row: 0, col: 0 }, worker: false, now });
  made.push(user, reference, screen);
  const agent = async (chunk: string) => {
    const before = screen.before();
    if (before) void user.write(before);
    void user.write(chunk);
    void reference.write(chunk);
    screen.after(chunk);
    await user.settled();
  };
  const barShown = async () => {
    for (let i = 0; i < 600 && !screen.isVisible; i++) await wait(5);
    await user.settled();
    return screen.isVisible;
  };
  const same = async () => {
    await user.settled();
    await reference.settled();
    expect(user.snapshot()).toEqual(reference.snapshot());
  };
  return { user, reference, screen, agent, barShown, same, writes };
}

function chunks(data: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < data.length; i += size) out.push(data.slice(i, i + size));
  return out;
}

const FIXTURES = ['claude', 'codex', 'gemini', 'pi', 'qwen'].map((agent) => `${agent}-interactive.raw`);

describe('overlay over real agent screens', () => {
  for (const fixture of FIXTURES) {
    it(`${fixture}: draw and dismiss leave the screen as it was, also with output while shown`, async () => {
      const data = readFileSync(join(SCREENS_DIR, fixture)).toString('utf8');
      // Stop halfway, at the end of a synchronized frame when the agent uses them (never mid-frame).
      const SYNC_END = '\x1b[?2026l';
      const frameEnd = data.lastIndexOf(SYNC_END, Math.floor(data.length / 2));
      let cut = frameEnd >= 0 ? frameEnd + SYNC_END.length : Math.floor(data.length / 2);
      // And not inside an escape sequence: the bar waits for the agent to finish one (tested below).
      while (unfinishedTailStart(Buffer.from(data.slice(0, cut), 'utf8')) >= 0) cut++;
      const r = rig();
      for (const part of chunks(data.slice(0, cut), 4096)) await r.agent(part);
      await r.same();
      r.screen.show('recap: wrote hello.txt; tests not run yet. Next: run npm test.');
      expect(await r.barShown()).toBe(true);
      expect(r.user.row(ROWS - 1)).toContain('✦ recap: wrote hello.txt');
      r.screen.clear();
      await r.same();
      // Shown again, then the agent keeps painting underneath: the bar comes off before each chunk.
      r.screen.show('recap: second');
      await r.barShown();
      for (const part of chunks(data.slice(cut), 4096)) await r.agent(part);
      r.screen.clear();
      await wait(REDRAW_THROTTLE_MS * 2);
      r.screen.clear();
      await r.same();
    });
  }
});

const ALT_SCREEN_APP = [
  '\x1b[?1049h\x1b[H\x1b[2J',
  ...Array.from({ length: ROWS - 2 }, (_, i) => `\x1b[${i + 1};1H\x1b[38;5;${i % 200}m${String(i).padStart(3)} \x1b[1mline\x1b[0m text ${'~'.repeat(i % 40)}`),
  `\x1b[${ROWS};1H\x1b[7m-- INSERT --  file.ts [+]${' '.repeat(COLS - 25)}\x1b[0m`,
  '\x1b[12;8H',
].join('');

describe('overlay over full-screen and inline programs', () => {
  it('vim-like alternate screen with a status line on the bar row', async () => {
    const r = rig('bottom');
    await r.agent(ALT_SCREEN_APP);
    r.screen.show('recap: x');
    expect(await r.barShown()).toBe(true);
    expect(r.user.row(ROWS - 1)).toContain('✦ recap: x');
    r.screen.clear();
    await r.same();
    expect(r.user.snapshot().cursor).toEqual({ x: 7, y: 11 });
  });

  it('less-like top bar over wide characters and emoji', async () => {
    const r = rig('top');
    await r.agent('\x1b[?1049h\x1b[H\x1b[2J\x1b[1;1H日本語のテキスト👍 and \x1b[48;2;40;40;90mtruecolor\x1b[0m\x1b[2;1Hsecond\x1b[30;1H:');
    r.screen.show('recap: 中文 recap 👩‍💻');
    expect(await r.barShown()).toBe(true);
    expect(r.user.row(0)).toContain('✦ recap: 中文 recap');
    r.screen.clear();
    await r.same();
  });

  it('waits while the agent is inside an escape sequence or a UTF-8 character, then draws', async () => {
    const r = rig('bottom');
    const colour = Buffer.from('\x1b[2J\x1b[Hstatus \x1b[38;2;149;117;185mdone ✦ ok\x1b[0m', 'utf8');
    const star = colour.indexOf(Buffer.from('✦', 'utf8'));
    // Cut inside `ESC[38;2;149;…m`, then inside the three bytes of ✦.
    for (const cut of [colour.indexOf(0x1b, 10) + 9, star + 1]) {
      const user = r.user;
      const before = r.screen.before();
      if (before) void user.write(before);
      void user.write(colour.subarray(0, cut));
      void r.reference.write(colour.subarray(0, cut));
      r.screen.after(colour.subarray(0, cut));
      r.screen.show('recap: waits');
      await wait(REDRAW_THROTTLE_MS * 3);
      expect(r.screen.isVisible).toBe(false);
      const rest = colour.subarray(cut);
      const gate = r.screen.before();
      if (gate) void user.write(gate);
      void user.write(rest);
      void r.reference.write(rest);
      r.screen.after(rest);
      expect(await r.barShown()).toBe(true);
      r.screen.clear();
      await r.same();
    }
  });

  it('pending wrap: the cursor stays after the last column, so the next character wraps as before', async () => {
    const r = rig('top');
    await r.agent(`\x1b[2J\x1b[H\r\n\r\n${'x'.repeat(COLS)}`);
    r.screen.show('recap: y');
    expect(await r.barShown()).toBe(true);
    r.screen.clear();
    await r.agent('NEXT');
    await r.same();
    expect(r.user.row(3)).toBe('NEXT');
  });

  it("the agent's saved cursor (DECSC) still restores where it expects after our draw", async () => {
    const r = rig('bottom');
    await r.agent('\x1b[2J\x1b[5;10H\x1b[1;31m\x1b7\x1b[0m\x1b[20;1Hbelow');
    r.screen.show('recap: slot');
    expect(await r.barShown()).toBe(true);
    r.screen.clear();
    await r.agent('\x1b8SAVED');
    await r.same();
    expect(r.user.row(4)).toBe('         SAVED');
  });

  it('never draws inside a synchronized-output frame, and draws when it ends', async () => {
    const r = rig('bottom');
    await r.agent('\x1b[2Jready\x1b[?2026hhalf a frame');
    r.screen.show('recap: later');
    await wait(60);
    expect(r.screen.isVisible).toBe(false);
    await r.agent(' done\x1b[?2026l');
    expect(await r.barShown()).toBe(true);
    r.screen.clear();
    await r.same();
  });

  it('does not draw over rows that hold output from before the agent started', async () => {
    const user = new VirtualTerminal(COLS, ROWS);
    const writes: string[] = [];
    const screen = new OverlayScreen({ cols: COLS, rows: ROWS, position: 'top', write: (d) => writes.push(d), cursorAtStart: { row: 20, col: 0 }, worker: false });
    made.push(user, screen);
    screen.after('inline agent ui\r\n');
    screen.show('recap: z');
    await wait(50);
    expect(writes).toEqual([]);
    expect(screen.isVisible).toBe(false);
  });

  it('gives up during a flood instead of catching up, and is back in step after a full redraw', async () => {
    let clock = 1_000_000;
    const r = rig('bottom', COLS, ROWS, () => clock);
    const line = 'flood line 0123456789 abcdefghijklmnopqrstuvwxyz\r\n';
    const burst = line.repeat(Math.ceil((3 * MAX_PENDING_BYTES) / line.length / 8));
    for (let i = 0; i < 8; i++) {
      // Fed faster than the copy parses (no waiting in between): the copy drops out.
      void r.user.write(burst);
      void r.reference.write(burst);
      r.screen.after(burst);
    }
    r.screen.show('recap: during flood');
    await wait(100);
    expect(r.screen.isVisible).toBe(false);
    clock += 1000; // the flood is over
    // A full-screen redraw with an absolute cursor move: the copy is in step again.
    await r.agent('\x1b[H\x1b[2J\x1b[3;1Hredrawn screen\x1b[10;5H');
    r.screen.show('recap: after the flood');
    expect(await r.barShown()).toBe(true);
    r.screen.clear();
    await r.same();
  });

  it('redraws the bar after the agent paints, throttled', async () => {
    const r = rig('bottom');
    await r.agent('\x1b[2Jspinner ');
    r.screen.show('recap: spin');
    await r.barShown();
    let takenOff = 0;
    for (let i = 0; i < 5; i++) {
      if (r.screen.isVisible) takenOff++;
      await r.agent(`\r${'⠋⠙⠹⠸⠼'[i]}`);
    }
    // Taken off before the first chunk; redrawn at most once per throttle period in between.
    expect(takenOff).toBeGreaterThanOrEqual(1);
    expect(await r.barShown()).toBe(true);
    r.screen.clear();
    await r.same();
  });
});
