import { describe, expect, it } from 'vitest';
import { MAX_PENDING_BYTES, ScreenMirror } from './screen-mirror.js';

const caughtUp = (m: ScreenMirror) => new Promise<void>((r) => m.whenCaughtUp(r));

describe('ScreenMirror floods', () => {
  it('drops out when it falls behind, ignores output until a full redraw, then frames again', async () => {
    const m = new ScreenMirror({ cols: 80, rows: 24, cursorAtStart: { row: 0, col: 0 } });
    m.feed('\x1b[2J\x1b[Hhello');
    await caughtUp(m);
    expect(m.frame(['recap: x'], 'bottom')).toHaveProperty('draw');
    const burst = 'x'.repeat(MAX_PENDING_BYTES + 1);
    m.feed(burst);
    m.feed(burst); // still behind by more than the limit: the copy gives up here
    expect(m.rebuilt).toBe(true);
    m.feed('more output that is only scanned\r\n');
    await caughtUp(m);
    expect(m.frame(['recap: x'], 'bottom')).toEqual({ skip: 'unknown' });
    m.feed('noise \x1b[2J still not placed');
    await caughtUp(m);
    expect(m.frame(['recap: x'], 'bottom')).toEqual({ skip: 'unknown' });
    m.feed('\x1b[5;1Hplaced');
    await caughtUp(m);
    expect(m.frame(['recap: x'], 'bottom')).toHaveProperty('draw');
    m.dispose();
  });
});
