import { describe, expect, it } from 'vitest';
import { composeRecap } from '../../recap/compose.js';
import { layoutBar, LABEL_CELLS } from '../../display/overlay.js';
import { displayWidth } from '../../util/text-width.js';
import { recapRoom } from './recap-room.js';

describe('recapRoom (#29: the model is told the real room, not 213 cells)', () => {
  it("is the overlay bar's rows as it composes them, less the label", () => {
    expect(recapRoom('overlay', { cols: 80, rows: 24 }, 2)).toBe(2 * 80 - LABEL_CELLS);
    expect(recapRoom('overlay', { cols: 80, rows: 24 }, 1)).toBe(80 - LABEL_CELLS);
    expect(recapRoom('overlay', { cols: 200, rows: 50 }, 3)).toBe(3 * 200 - LABEL_CELLS);
    // A two-row terminal: the bar never takes the whole screen.
    expect(recapRoom('overlay', { cols: 60, rows: 2 }, 5)).toBe(60 - LABEL_CELLS);
  });

  it('is one pane-wide line in tmux, and unknown with no display', () => {
    expect(recapRoom('tmux', { cols: 100, rows: 30 }, 2)).toBe(93);
    expect(recapRoom('none', { cols: 100, rows: 30 }, 2)).toBeUndefined();
  });

  it('fits the bar: a line of exactly that many cells is laid out whole in the bar', () => {
    const cols = 50;
    const room = recapRoom('overlay', { cols, rows: 24 }, 2) as number;
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    const line = words.slice(0, room).trimEnd();
    const rows = layoutBar((cells) => composeRecap({ line }, cells), cols, 2);
    expect(rows.join(' ').replace(/\s+/g, ' ').trim()).toBe(line);
    expect(rows.every((r) => displayWidth(r) <= cols)).toBe(true);
  });
});
