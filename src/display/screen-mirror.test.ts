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

// #28 point 3: the rows that hold older output (from before the agent) are found by a marker that
// follows scrolling, reflow and a taller screen, and the copy keeps enough history to grow as a terminal does.
describe('ScreenMirror after a resize', () => {
  it('grows back from its history like a terminal, and still knows which rows hold older output', async () => {
    const m = new ScreenMirror({ cols: 20, rows: 5, cursorAtStart: { row: 2, col: 0 } });
    // Rows 0-1 are the shell's; the agent writes 12 lines from row 2 on, scrolling the older rows away.
    m.feed(Array.from({ length: 12 }, (_, i) => `agent line ${i + 1}`).join('\r\n'));
    await caughtUp(m);
    const repaintRows = (r: ReturnType<ScreenMirror['repaint']>) => ('repaint' in r ? r.repaint : '');
    expect(repaintRows(m.repaint())).toContain('agent line 8'); // the whole screen is the agent's now
    m.resize(60, 12);
    await caughtUp(m);
    // Twelve rows: the last twelve lines the agent wrote were pulled back down (a scrollback of rows + 2 had only 7).
    const grown = repaintRows(m.repaint());
    expect(grown).toContain('agent line 1\x1b');
    expect(grown).toContain('agent line 12');
    // Taller still: the shell's two rows come back on top, and they are not the copy's to repaint or draw over.
    m.resize(60, 16);
    await caughtUp(m);
    const tall = repaintRows(m.repaint());
    expect(tall.startsWith('\x1b[?2026h\x1b7')).toBe(true);
    expect(tall).toContain('\x1b[3;1H'); // from row 2 (the agent's first)…
    expect(tall).not.toContain('\x1b[1;1H'); // …never the shell's rows above
    expect(m.frame(['recap: x'], 'top')).toEqual({ skip: 'unknown', knownRows: 0 });
    expect(m.frame(['recap: x'], 'bottom')).toHaveProperty('draw');
    m.dispose();
  });
});
