// The overlay bar drawn over real agent screens and full-screen programs, then removed: the user's
// terminal must end up exactly as if the bar had never been there (every cell, attributes, cursor).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdsFor, pollUntil } from '../../test/helpers/poll.js';
import { chunks, disposeRigsAfterEach, halfwayCut, SCREEN_FIXTURES, screenRig } from '../../test/helpers/screen-rig.js';
import { SCREENS_DIR } from '../../test/helpers/shared.js';
import { MAX_PENDING_BYTES } from './screen-mirror.js';
import { REDRAW_THROTTLE_MS } from './screen.js';

const COLS = 100;
const ROWS = 30;
disposeRigsAfterEach();

const rig = (position: 'top' | 'bottom' = 'bottom', cols = COLS, rows = ROWS, now?: () => number) => screenRig({ position, cols, rows, now });

describe('overlay over real agent screens', () => {
  for (const fixture of SCREEN_FIXTURES) {
    it(`${fixture}: draw and dismiss leave the screen as it was, also with output while shown`, async () => {
      const data = readFileSync(join(SCREENS_DIR, fixture)).toString('utf8');
      const cut = halfwayCut(data);
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
      // Redrawn over the new output (throttled), then dismissed: the screen is the agent's alone.
      expect(await r.barShown()).toBe(true);
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
      // A negative that only time can show: mid-sequence the screen schedules nothing (the agent's next
      // chunk does), so there is no event to wait for. Three redraw periods, checked throughout.
      await holdsFor(() => !r.screen.isVisible, { forMs: REDRAW_THROTTLE_MS * 3, description: 'no bar mid-sequence' });
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
    // A negative that only time can show: mid-frame the screen asks again every 20 ms and says nothing.
    await holdsFor(() => !r.screen.isVisible, { forMs: 60, description: 'no bar inside the frame' });
    await r.agent(' done\x1b[?2026l');
    expect(await r.barShown()).toBe(true);
    r.screen.clear();
    await r.same();
  });

  it('does not draw over rows that hold output from before the agent started', async () => {
    const { screen, writes, logs } = screenRig({ position: 'top', cursorAtStart: { row: 20, col: 0 } });
    screen.after('inline agent ui\r\n');
    screen.show('recap: z');
    // The screen gives up on this bar and says so: nothing was, or will be, drawn.
    await pollUntil(() => logs.includes('bar row not known yet; not drawn'), { timeoutMs: 3000, description: 'the bar given up' });
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
    // The copy dropped out, so the bar is given up (and said so), not drawn over a screen it lost.
    await pollUntil(() => r.logs.includes('bar row not known yet; not drawn'), { timeoutMs: 3000, description: 'the bar given up' });
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
