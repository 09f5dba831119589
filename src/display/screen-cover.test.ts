// The picker's rows over the agent's screen (OverlayScreen.cover/uncover): drawn from the copy, taken
// off so the user's terminal is cell for cell what the agent drew (the real CLIs' captured screens, a
// scroll region, a saved cursor), and never drawn inside an escape sequence the agent has not finished.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { disposeRigsAfterEach, halfwayCut, SCREEN_FIXTURES, screenRig } from '../../test/helpers/screen-rig.js';
import { SCREENS_DIR } from '../../test/helpers/shared.js';
import { createPickerState } from './picker.js';
import { renderPicker } from './picker-view.js';

disposeRigsAfterEach();

const pickerRows = (cols: number) =>
  renderPicker({ state: { ...createPickerState([{ id: '1', name: 'billing-fk', agent: 'claude', folder: 'billing', age: '2d', headline: '請求テーブルを移行した' }]), query: 'fk' }, cols, rows: 30 });

describe('OverlayScreen.cover', () => {
  for (const fixture of SCREEN_FIXTURES) {
    it(`${fixture}: the picker is drawn over the bottom rows and taken off exactly`, async () => {
      const rig = screenRig();
      const data = readFileSync(join(SCREENS_DIR, fixture), 'utf8');
      await rig.agent(data.slice(0, halfwayCut(data)));
      let held = false;
      const result = await rig.screen.cover(pickerRows(100), () => (held = true));
      expect(result).toEqual({ drawn: true });
      expect(held).toBe(true);
      await rig.user.settled();
      expect(Array.from({ length: 30 }, (_, y) => rig.user.row(y)).join('\n')).toContain('billing-fk');
      rig.screen.uncover();
      await rig.same();
    });
  }

  it('with a scroll region and a saved cursor: taken off exactly, and the agent scrolls as before after it', async () => {
    const rig = screenRig({ rows: 24, cols: 80 });
    await rig.agent('\x1b[?1049h\x1b[2J\x1b[H');
    for (let r = 1; r <= 24; r++) await rig.agent(`\x1b[${r};1H\x1b[3${r % 7}mrow ${r}\x1b[0m`);
    await rig.agent('\x1b[2;20r\x1b[5;3H\x1b7\x1b[20;1H');
    expect((await rig.screen.cover(pickerRows(80))).drawn).toBe(true);
    rig.screen.cover(pickerRows(80)); // a redraw (a key typed) replaces the rows
    await rig.user.settled();
    rig.screen.uncover();
    await rig.same();
    await rig.agent('\nscrolled\x1b8restored');
    await rig.same();
  });

  it("tmux's line lengths rebuilt as the rows come off change nothing on screen", async () => {
    const rig = screenRig({ rows: 24, cols: 80 });
    await rig.agent('\x1b[?1049h\x1b[2J\x1b[H');
    for (let r = 13; r <= 24; r++) await rig.agent(`\x1b[${r};1H\x1b[4${r % 7}m${r % 2 ? 'text ' + r : ''}\x1b[K\x1b[0m`);
    await rig.agent('\x1b[24;3H');
    const widths = Array.from({ length: 12 }, (_, i) => [0, 80, 40, 3][i % 4] as number);
    expect((await rig.screen.cover(pickerRows(80), undefined, widths)).drawn).toBe(true);
    rig.screen.uncover();
    await rig.user.settled();
    await rig.reference.settled();
    // Cell for cell (a blank written where the agent erased is the same on screen; `text` would tell them apart).
    const seen = (t: typeof rig.user) => ({ ...t.snapshot(), text: t.snapshot().text.map((l) => l.trimEnd()) });
    expect(seen(rig.user)).toEqual(seen(rig.reference));
  });

  it('waits while the agent is inside an escape sequence, then draws', async () => {
    const rig = screenRig();
    await rig.agent('\x1b[2J\x1b[Hhello \x1b[3');
    const pending = rig.screen.cover(pickerRows(100));
    await rig.agent('1mred\x1b[0m');
    expect(await pending).toEqual({ drawn: true });
    rig.screen.uncover();
    await rig.same();
  });

  it('says how many bottom rows it knows when older shell output is above', async () => {
    const rig = screenRig({ cursorAtStart: { row: 25, col: 0 } });
    await rig.agent('agent line\r\n');
    expect(await rig.screen.cover(pickerRows(100))).toEqual({ drawn: false, knownRows: 5 });
    await rig.same();
  });
});
