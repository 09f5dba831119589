import { describe, expect, it } from 'vitest';
import { displayWidth } from '../util/text-width.js';
import { createPickerState, type PickerItem } from './picker.js';
import { PICKER_MAX_ROWS, pickerHeight, renderPicker } from './picker-view.js';

const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
const item = (id: string, over: Partial<PickerItem> = {}): PickerItem => ({ id, name: `fix-${id}`, agent: 'claude', folder: 'billing', age: '3d', headline: `Migrated tables ${id}`, ...over });

describe('renderPicker', () => {
  it.each([20, 40, 80, 133])('every row is exactly %i cells and ends with SGR 0', (cols) => {
    const state = { ...createPickerState([item('1'), item('2', { name: '認証のリファクタ', headline: '日本語の見出し😀がとても長い'.repeat(5) })]), query: '認証' };
    const rows = renderPicker({ state, cols, rows: 24 });
    expect(rows).toHaveLength(PICKER_MAX_ROWS);
    for (const row of rows) {
      expect(displayWidth(strip(row))).toBe(cols);
      expect(row.endsWith('\x1b[0m')).toBe(true);
    }
  });

  it('shows the query, each session, the selection in reverse video and the keys', () => {
    const state = { ...createPickerState([item('1'), item('2')]), query: 'auth', selected: 1 };
    const rows = renderPicker({ state, cols: 100, rows: 24 });
    expect(strip(rows[0] as string)).toContain('auth');
    expect(strip(rows[0] as string)).toContain('2 sessions');
    expect(strip(rows[1] as string)).toContain('fix-1  claude · billing · 3d  Migrated tables 1');
    expect(rows[2]).toMatch(/^\x1b\[0;7m/);
    expect(rows[1]).not.toMatch(/\x1b\[0;7m/);
    expect(strip(rows.at(-1) as string)).toContain('Esc cancel');
  });

  it('a status with nothing to list is said whole in the list rows, even in a half-width pane (#37)', () => {
    const status = 'index unavailable: session memory is off (RECAPWRAP_MEMORY=0 in the environment)';
    for (const cols of [40, 79]) {
      const rows = renderPicker({ state: createPickerState([]), cols, rows: 24, status }).map(strip);
      expect(rows.join(' ').replace(/\s+/g, ' ')).toContain(status);
      for (const row of rows) expect(displayWidth(row)).toBe(cols);
    }
    expect(strip(renderPicker({ state: createPickerState([]), cols: 100, rows: 24 })[1] as string).trim()).toBe('');
  });

  // #43.6: names were cut at 28 cells at any width, so a session and its fork looked the same.
  it('gives names the room the width allows: a session and its fork differ at 120 columns', () => {
    const parent = 'billing-migrate-invoices-foreign-key-constraint';
    const fork = `${parent}-2`;
    const state = createPickerState([item('1', { name: parent }), item('2', { name: fork })]);
    const rows = renderPicker({ state, cols: 120, rows: 24 }).map(strip);
    expect(rows[1]).toContain(` ${parent}  claude · billing · 3d  Migrated tables 1`);
    expect(rows[2]).toContain(` ${fork}  claude`);
    // Narrow, the headline keeps its room and the name is cut (never below 28 cells).
    const narrow = renderPicker({ state, cols: 60, rows: 24 }).map(strip);
    expect(narrow[1]).toContain(' billing-migrate-invoices-fo…  claude');
  });

  it('scrolls so the selection stays in view', () => {
    const many = Array.from({ length: 30 }, (_, i) => item(String(i)));
    const rows = renderPicker({ state: { ...createPickerState(many), selected: 25 }, cols: 80, rows: 24 });
    const selected = rows.find((r) => r.startsWith('\x1b[0;7m')) as string;
    expect(strip(selected)).toContain('fix-25 ');
  });

  it('never lets escape sequences or control characters from the index through', () => {
    const evil = item('1', { name: 'x\x1b]0;pwned\x07', headline: 'a\x1b[2Jb\r\nc\u202e' });
    const rows = renderPicker({ state: createPickerState([evil]), cols: 80, rows: 24 });
    const text = rows.join('');
    expect(text).not.toContain('\x1b]');
    expect(text).not.toContain('\x1b[2J');
    expect(text).not.toMatch(/[\r\n\u202e\x07]/);
  });

  it('keeps the end of a long query (where you type)', () => {
    const rows = renderPicker({ state: { ...createPickerState(), query: 'a'.repeat(50) + 'END' }, cols: 40, rows: 24 });
    expect(strip(rows[0] as string)).toContain('END');
  });

  it('says when nothing matches, and opens on no fewer than 4 rows', () => {
    expect(strip(renderPicker({ state: { ...createPickerState(), query: 'zz' }, cols: 60, rows: 24 })[0] as string)).toContain('no session matches');
    expect(pickerHeight(3)).toBe(0);
    expect(renderPicker({ state: createPickerState(), cols: 60, rows: 3 })).toEqual([]);
    expect(pickerHeight(6)).toBe(6);
  });
});
