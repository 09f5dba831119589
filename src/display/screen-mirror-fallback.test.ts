// The screen copy when xterm's private `_core` is out of reach (#20 item 5): the readers in
// util/private-internals/xterm.ts are handed an object without `_core`, as after an xterm release that moved
// it. The copy still works: the bar is drawn and taken off again with the screen as it was. What it
// loses is documented there: the agent's saved-cursor slot is not rebuilt, so the agent's next DECRC
// goes to where its cursor was when the bar was drawn instead of to the position it saved.
import { describe, expect, it, vi } from 'vitest';
import { VirtualTerminal } from '../../test/fakes/virtual-terminal.js';
import { AUTOWRAP_ON, RESTORE_CURSOR, SYNC_END, cursorTo } from './ansi.js';
import { ScreenMirror } from './screen-mirror.js';

vi.mock('../util/private-internals/xterm.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../util/private-internals/xterm.js')>();
  const withoutCore = {} as Parameters<typeof real.readXtermSavedCursor>[0];
  return {
    ...real,
    readXtermScrollTop: () => real.readXtermScrollTop(withoutCore),
    readXtermSavedCursor: () => real.readXtermSavedCursor(withoutCore),
    readXtermCurrentAttributes: () => real.readXtermCurrentAttributes(withoutCore),
  };
});

const caughtUp = (m: ScreenMirror) => new Promise<void>((r) => m.whenCaughtUp(r));
// Bold red DECSC at row 5, column 10; then the cursor goes to row 20.
const AGENT = '\x1b[2J\x1b[5;10H\x1b[1;31m\x1b7\x1b[0m\x1b[20;1Hbelow';

describe('ScreenMirror without xterm _core', () => {
  it('draws and removes the bar, leaving the screen as it was', async () => {
    const mirror = new ScreenMirror({ cols: 80, rows: 24, cursorAtStart: { row: 0, col: 0 } });
    const user = new VirtualTerminal(80, 24);
    mirror.feed(AGENT);
    await user.write(AGENT);
    await caughtUp(mirror);
    const before = user.snapshot();

    const frame = mirror.frame(['recap: no core'], 'bottom');
    if (!('draw' in frame)) throw new Error(`no frame: ${JSON.stringify(frame)}`);
    await user.write(frame.draw);
    expect(user.row(23)).toContain('recap: no core');
    expect(user.snapshot().cursor).toEqual(before.cursor);
    await user.write(frame.restore);
    expect(user.snapshot()).toEqual(before);

    // The documented loss: DECRC returns to where the cursor was at our draw (row 20, after "below").
    await user.write('\x1b8SAVED');
    expect(user.row(19)).toBe('belowSAVED');
    expect(user.row(4)).toBe('');
    mirror.dispose();
  });

  it('repaints with origin mode on; the cursor is placed counting from the screen top (scroll region unknown)', async () => {
    const mirror = new ScreenMirror({ cols: 40, rows: 10, cursorAtStart: { row: 0, col: 0 } });
    mirror.feed('\x1b[2J\x1b[Htop line\x1b[3;8r\x1b[?6h\x1b[2;1Hin region');
    await caughtUp(mirror);
    const result = mirror.repaint();
    if (!('repaint' in result)) throw new Error(`no repaint: ${JSON.stringify(result)}`);
    expect(result.repaint).toContain('top line');
    expect(result.repaint).toContain('in region');
    // The copy's cursor is on screen row 3 (region row 1), column 9: with _core it would be sent as
    // region row 1; without, as row 3, which origin mode counts from the region's top (the loss).
    expect(result.repaint.endsWith(RESTORE_CURSOR + AUTOWRAP_ON + cursorTo(3, 9) + SYNC_END), result.repaint).toBe(true);
    mirror.dispose();
  });
});
