// The overlay bar on two rows (#17) and across a resize (#19.13): drawn over real agent screens (the
// captured ones in ../shared, and one this test makes, so it runs without ../shared), then removed: the
// user's terminal must be exactly as if the bar had never been there, every cell and the cursor.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { madeAgentScreen } from '../../test/helpers/agent-screen.js';
import { pollUntil } from '../../test/helpers/poll.js';
import { chunks, disposeRigsAfterEach, halfwayCut, onFakeTimers, SCREEN_FIXTURES, screenRig, type RigOptions } from '../../test/helpers/screen-rig.js';
import { SCREENS_DIR } from '../../test/helpers/shared.js';
import { displayWidth } from '../util/text-width.js';
import { REDRAW_THROTTLE_MS, RESIZE_SETTLE_MS } from './screen.js';

disposeRigsAfterEach();
const rig = (o: RigOptions = {}) => screenRig({ barRows: 2, ...o });

/** A recap that needs two rows of 100 columns (and of 60, 80). */
const LONG_RECAP =
  'recap: Migrated 4 of 7 billing tables to the v2 schema; invoices.ts still fails its FK constraint after the rename of customer_id. Next: fix the foreign key on line 142 and rerun npm test.';
const WIDE_RECAP = 'recap: 日本語のセッションで👩‍💻が src/app.ts を直しました。テストは 3 件失敗しています。 Next: 失敗したテストを直して npm test を実行する';

async function overTwoRows(frames: string[], position: 'top' | 'bottom') {
  const data = frames.join('');
  const cut = halfwayCut(data);
  const r = rig({ position });
  for (const part of chunks(data.slice(0, cut), 4096)) await r.agent(part);
  await r.same();
  const before = r.user.snapshot();
  for (const recap of [LONG_RECAP, WIDE_RECAP]) {
    r.screen.show(recap);
    expect(await r.barShown()).toBe(true);
    const [first, second] = position === 'bottom' ? [28, 29] : [0, 1];
    expect(r.user.row(first)).toMatch(/^✦ recap: /);
    expect(r.user.row(second).length).toBeGreaterThan(0);
    expect(r.user.row(second)).not.toContain('✦ recap');
    for (const y of [first, second]) expect(displayWidth(r.user.row(y))).toBeLessThanOrEqual(100);
    // Every other row and the cursor are untouched while the bar is up.
    const shown = r.user.snapshot();
    expect(shown.cursor).toEqual(before.cursor);
    expect(shown.cells.filter((_, y) => y !== first && y !== second)).toEqual(before.cells.filter((_, y) => y !== first && y !== second));
    r.screen.clear();
    await r.same();
  }
  // Shown again, then the agent keeps painting underneath: both rows come off before each chunk.
  r.screen.show(LONG_RECAP);
  await r.barShown();
  for (const part of chunks(data.slice(cut), 4096)) await r.agent(part);
  // Redrawn over the new output (throttled), then dismissed: the screen is the agent's alone.
  expect(await r.barShown()).toBe(true);
  r.screen.clear();
  await r.same();
}

describe('two-row bar over captured agent screens', () => {
  for (const fixture of SCREEN_FIXTURES) {
    it(`${fixture}: a two-row bar drawn and dismissed leaves the screen as it was, cell for cell`, async () => {
      const data = readFileSync(join(SCREENS_DIR, fixture)).toString('utf8');
      await overTwoRows([data], 'bottom');
    });
  }
});

describe('two-row bar over a screen made here', () => {
  for (const position of ['bottom', 'top'] as const) {
    it(`${position}: drawn and dismissed, wide characters under and in the bar, the screen is as it was`, async () => {
      await overTwoRows(madeAgentScreen(100, 30), position);
    });
  }

  it('a one-row-high terminal gets one row', async () => {
    const r = rig({ cols: 50, rows: 1 });
    await r.agent('\x1b[2J\x1b[H\x1b[1m>\x1b[0m 日本語 prompt');
    r.screen.show(LONG_RECAP);
    expect(await r.barShown()).toBe(true);
    expect(r.user.row(0)).toMatch(/^✦ recap: Migrated/);
    expect(displayWidth(r.user.row(0))).toBeLessThanOrEqual(50);
    r.screen.clear();
    await r.same();
    expect(r.user.snapshot().cursor).toEqual({ x: 15, y: 0 });
  });

  it('barRows 1 keeps one row', async () => {
    const r = rig({ barRows: 1 });
    for (const f of madeAgentScreen(100, 30)) await r.agent(f);
    const before = r.user.snapshot();
    r.screen.show(LONG_RECAP);
    expect(await r.barShown()).toBe(true);
    expect(r.user.row(29)).toMatch(/^✦ recap: Migrated/);
    expect(r.user.snapshot().cells.slice(0, 29)).toEqual(before.cells.slice(0, 29));
    r.screen.clear();
    await r.same();
  });

  it('takes one row when only the bottom row holds what the agent drew', async () => {
    const r = rig({ cursorAtStart: { row: 29, col: 0 } });
    // The shell's older output is above: the terminals' cursor is on the last row when the agent starts.
    await r.user.write('\x1b[30;1H');
    await r.reference.write('\x1b[30;1H');
    await r.agent('agent prompt > ');
    r.screen.show(LONG_RECAP);
    expect(await r.barShown()).toBe(true);
    expect(r.user.row(29)).toMatch(/^✦ recap: /);
    expect(r.user.row(28)).toBe('');
    r.screen.clear();
    await r.same();
  });

  it('pending wrap and the agent\'s saved cursor survive a two-row bar', async () => {
    const r = rig({ position: 'top' });
    // Saved cursor at row 5 (bold red), then the cursor left past the last column of row 3.
    await r.agent(`\x1b[2J\x1b[5;10H\x1b[1;31m\x1b7\x1b[0m\x1b[H\r\n\r\n${'x'.repeat(100)}`);
    r.screen.show(LONG_RECAP);
    expect(await r.barShown()).toBe(true);
    expect(r.user.row(1).length).toBeGreaterThan(0);
    r.screen.clear();
    await r.agent('NEXT');
    await r.agent('\x1b8SAVED');
    await r.same();
    expect(r.user.row(3)).toBe('NEXT');
    expect(r.user.row(4)).toBe('         SAVED');
  });

  it('a full row of bar text (no erase after the last column) is repainted exactly', async () => {
    const r = rig({ cols: 40, rows: 10 });
    await r.agent(`\x1b[2J\x1b[H${'x'.repeat(40)}\x1b[10;1H${'y'.repeat(40)}\x1b[5;5H`);
    // 31 cells of text after the label fill the first row to the last column.
    r.screen.show(`recap: ${'abcdefghij '.repeat(2)}abcdefghi next row text`);
    expect(await r.barShown()).toBe(true);
    expect(displayWidth(r.user.row(8))).toBe(40);
    r.screen.clear();
    await r.same();
  });
});

// #19.13: resizing while the bar is shown (80x24 -> 60x20) left bar text on row 1 and lost the agent's
// header line; the next key did not repair it.
describe('resize while the bar is shown', () => {
  // An inline agent at the start of a session: its header on the first row, its prompt mid-screen.
  const INLINE_START = [
    '\x1b[2J\x1b[H\x1b[1;38;2;215;119;87m✻ made-agent v1 header\x1b[0m \x1b[2m~/work/billing\x1b[0m\r\n',
    ...Array.from({ length: 8 }, (_, i) => `\x1b[36m●\x1b[0m line ${i}: ${i % 2 ? '読み込み完了 👍' : 'ran npm test'}\r\n`),
    '\x1b7\x1b[12;1H\x1b[7m status: 中文 ok \x1b[0m\x1b8\r\n\x1b[1m>\x1b[0m ',
  ];
  for (const position of ['top', 'bottom'] as const) {
    it(`${position}: 80x24 -> 60x20 leaves no bar text and keeps the header line`, async () => {
      const r = rig({ position, cols: 80, rows: 24 });
      for (const f of INLINE_START) await r.agent(f);
      r.screen.show(LONG_RECAP);
      expect(await r.barShown()).toBe(true);
      await r.resize(60, 20);
      // The agent repaints its prompt on SIGWINCH with relative moves, as inline TUIs do; not the header.
      await r.agent('\r\x1b[2K\x1b[1m>\x1b[0m \x1b[A\r\x1b[2K\x1b[7m status 60 cols \x1b[0m\x1b[B\r\x1b[2C');
      // The screen was repainted from the copy, then the bar came back, composed for 60 columns.
      expect(await r.barShown()).toBe(true);
      const rows = position === 'top' ? [0, 1] : [18, 19];
      expect(r.user.row(rows[0]!)).toMatch(/^✦ recap: /);
      for (const y of rows) expect(displayWidth(r.user.row(y))).toBeLessThanOrEqual(60);
      r.screen.clear();
      await r.same();
      const text = r.user.snapshot().text;
      expect(text.join('\n')).not.toContain('recap');
      expect(text[0]).toContain('made-agent v1 header');
    });
  }

  it('bottom, a screen full of output scrolling: the same after the resize, bar dismissed', async () => {
    const r = rig({ position: 'bottom', cols: 80, rows: 24 });
    for (const f of madeAgentScreen(80, 24)) await r.agent(f);
    r.screen.show(LONG_RECAP);
    expect(await r.barShown()).toBe(true);
    await r.resize(60, 20);
    await r.agent('\r\x1b[2K\x1b[1m>\x1b[0m ');
    // Repainted from the copy once the resize settles, then the bar is back.
    expect(await r.barShown()).toBe(true);
    r.screen.clear();
    await r.same();
    expect(r.user.snapshot().text.join('\n')).not.toContain('recap');
  });

  it("puts the cursor back where the copy has it, wherever the terminal's own reflow left it", async () => {
    const r = rig({ position: 'top', cols: 80, rows: 24 });
    // No DECSC from this agent: rebuilding its saved-cursor slot would move the cursor too.
    for (const f of INLINE_START.slice(0, -1)) await r.agent(f);
    await r.agent('\x1b[1m>\x1b[0m ');
    r.screen.show(LONG_RECAP);
    expect(await r.barShown()).toBe(true);
    await r.resize(60, 20);
    // Terminals reflow differently (the bar's long row may wrap in one and not in another): here the
    // user's terminal ends up with its cursor a row lower than the copy's.
    await r.user.write('\x1b[B');
    expect(await r.barShown()).toBe(true);
    r.screen.clear();
    await r.same();
  });

  it('a key right after the resize (bar dismissed before the resize settles) still gets the screen repainted', async () => {
    const r = rig({ position: 'top', cols: 80, rows: 24 });
    for (const f of INLINE_START) await r.agent(f);
    r.screen.show(LONG_RECAP);
    expect(await r.barShown()).toBe(true);
    await r.resize(60, 20);
    r.screen.clear();
    const dismissed = r.writes.length;
    await r.agent('k');
    // The repaint from the copy once the resize settles: one write, and then the screens are the same.
    await pollUntil(() => r.writes.length > dismissed, { timeoutMs: 3000, description: 'the repaint after the resize' });
    await r.same();
    expect(r.screen.isVisible).toBe(false);
  });

  it('the terminal resized first, then agent output took the bar off before the resize reached us: still repainted', async () => {
    const r = rig({ position: 'top', cols: 80, rows: 24 });
    for (const f of INLINE_START) await r.agent(f);
    r.screen.show(LONG_RECAP);
    expect(await r.barShown()).toBe(true);
    await r.user.resize(60, 20);
    await r.reference.resize(60, 20);
    await r.agent('k'); // the restore, for 80 columns, lands on a 60-column terminal
    r.screen.resize(60, 20);
    // Repainted from the copy once the resize settles, then the bar is back.
    expect(await r.barShown()).toBe(true);
    r.screen.clear();
    await r.same();
  });

  it('a burst of resizes repaints once they stop, and never before', async () => {
    const r = rig({ position: 'top', cols: 80, rows: 24 });
    for (const f of madeAgentScreen(80, 24)) await r.agent(f);
    r.screen.show(LONG_RECAP);
    await r.barShown();
    const before = r.writes.length;
    // A window dragged: a resize every 50 ms. Fake timers keep that pace exact on a loaded machine.
    await onFakeTimers(async () => {
      for (const [c, h] of [[78, 24], [74, 23], [70, 22], [60, 20]] as const) {
        await r.resize(c, h);
        await vi.advanceTimersByTimeAsync(RESIZE_SETTLE_MS / 3);
      }
      expect(r.writes.length).toBe(before);
      await vi.advanceTimersByTimeAsync(RESIZE_SETTLE_MS - RESIZE_SETTLE_MS / 3 - 1);
      expect(r.writes.length).toBe(before); // 1 ms before the last resize settles: still nothing
      await vi.advanceTimersByTimeAsync(1 + REDRAW_THROTTLE_MS);
      expect(r.writes.length).toBeGreaterThan(before); // settled: repainted
    });
    expect(await r.barShown()).toBe(true);
    r.screen.clear();
    await r.same();
  });

  it('a resize with no bar up writes nothing', async () => {
    const r = rig({ cols: 80, rows: 24 });
    for (const f of madeAgentScreen(80, 24)) await r.agent(f);
    // Nothing is scheduled: fake timers step well past the settle time at once.
    await onFakeTimers(async () => {
      await r.resize(60, 20);
      await vi.advanceTimersByTimeAsync(RESIZE_SETTLE_MS * 2);
    });
    expect(r.writes).toEqual([]);
  });
});
