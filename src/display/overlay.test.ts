import { describe, expect, it } from 'vitest';
import { displayWidth } from '../util/text-width.js';
import { barRow, barTopRow, LABEL_CELLS, layoutBar, maxBarRows, renderOverlayBar, renderOverlayRows, wrapWords } from './overlay.js';

const visible = (bytes: string) => bytes.replace(/\x1b\[[0-9;]*m/g, '');

describe('renderOverlayBar', () => {
  it('puts the accent label first and the text after it, without a doubled "recap:"', () => {
    const bar = renderOverlayBar('recap: wrote hello.txt. Next: run tests.', 80);
    expect(visible(bar.bytes)).toBe('✦ recap: wrote hello.txt. Next: run tests.');
    expect(bar.bytes.startsWith('\x1b[0;1;36m')).toBe(true);
    expect(bar.bytes.endsWith('\x1b[0m')).toBe(true);
  });

  it('never exceeds the width, CJK and emoji included', () => {
    for (let cols = 1; cols < 60; cols++) {
      const bar = renderOverlayBar('日本語のセッションで👩‍💻が src/app.ts を直しました。次はテストです。', cols);
      expect(displayWidth(visible(bar.bytes))).toBeLessThanOrEqual(cols);
      expect(bar.width).toBe(displayWidth(visible(bar.bytes)));
    }
  });

  it('strips escape sequences and newlines from the text', () => {
    const bar = renderOverlayBar('a\x1b[2Jb\nc\x07', 40);
    expect(visible(bar.bytes)).toBe('✦ recap: ab c');
  });

  it('picks the top or bottom row', () => {
    expect(barRow('top', 24)).toBe(0);
    expect(barRow('bottom', 24)).toBe(23);
  });
});

// A stand-in for the recap layer's composer: the text cut at the last whole word that fits, with `…`.
function wordComposer(text: string, calls: number[] = []): (cells: number) => string {
  return (cells) => {
    calls.push(cells);
    if (displayWidth(text) <= cells) return text;
    let out = '';
    for (const word of text.split(' ')) {
      const next = out ? `${out} ${word}` : word;
      if (displayWidth(next) + 1 > cells) break;
      out = next;
    }
    return `${out}…`;
  };
}

const LONG = 'Migrated 4 of 7 billing tables to the v2 schema; invoices.ts still fails its FK constraint on line 142 after the rename. Next: fix the foreign key on line 142.';

describe('layoutBar', () => {
  it('keeps one row when the whole recap fits there', () => {
    expect(layoutBar(wordComposer('wrote hello.txt. Next: run npm test.'), 80, 2)).toEqual(['wrote hello.txt. Next: run npm test.']);
  });

  it('uses a second row when the recap does not fit one, wrapping at words, within 2*cols-9 cells', () => {
    const calls: number[] = [];
    const rows = layoutBar(wordComposer(LONG, calls), 80, 2);
    expect(rows).toHaveLength(2);
    expect(displayWidth(rows[0]!)).toBeLessThanOrEqual(80 - LABEL_CELLS);
    expect(displayWidth(rows[1]!)).toBeLessThanOrEqual(80);
    expect(calls).toContain(2 * 80 - LABEL_CELLS);
    expect(rows.join(' ')).toBe(wordComposer(LONG)(calls.at(-1)!));
    expect(rows.join(' ')).toContain('Next: fix');
  });

  it('composes again for fewer cells when wrapping at words would need another row', () => {
    // A composer that fills every cell it is given: word wrapping wastes cells at the row ends, so the
    // text for 2*cols-9 cells needs a third row and is composed again, shorter.
    const text = Array.from({ length: 20 }, (_, i) => `word${i}`).join(' ');
    const calls: number[] = [];
    const fill = (cells: number) => (calls.push(cells), text.slice(0, cells).trimEnd());
    const rows = layoutBar(fill, 30, 2);
    expect(calls.slice(0, 2)).toEqual([10_000, 2 * 30 - LABEL_CELLS]);
    expect(calls.length).toBeGreaterThan(2);
    expect(rows).toHaveLength(2);
    // The text composed for the last (fewest) cells asked, which wraps into the two rows.
    const last = calls.at(-1)!;
    expect(rows.join(' ')).toBe(fill(last));
    expect(last).toBeGreaterThan(30);
    rows.forEach((row, i) => expect(displayWidth(row)).toBeLessThanOrEqual(i === 0 ? 30 - LABEL_CELLS : 30));
  });

  it('barRows 1 keeps a single row, composed for what is left after the label', () => {
    const calls: number[] = [];
    const rows = layoutBar(wordComposer(LONG, calls), 80, 1);
    expect(rows).toHaveLength(1);
    expect(calls).toEqual([80 - LABEL_CELLS]);
    expect(displayWidth(rows[0]!)).toBeLessThanOrEqual(80 - LABEL_CELLS);
  });

  it('fits every width with CJK and emoji, rows never wider than their room', () => {
    const text = '日本語のセッションで👩‍💻が src/app.ts を直しました。次はテストを走らせて結果を確認します。 Next: npm test を実行';
    for (let cols = 1; cols <= 120; cols++) {
      for (const maxRows of [1, 2, 3]) {
        const rows = layoutBar(wordComposer(text), cols, maxRows);
        expect(rows.length).toBeLessThanOrEqual(maxRows);
        rows.forEach((row, i) => expect(displayWidth(row)).toBeLessThanOrEqual(i === 0 ? Math.max(0, cols - LABEL_CELLS) : cols));
        const rendered = renderOverlayRows(rows, cols);
        for (const bar of rendered) expect(displayWidth(visible(bar.bytes))).toBeLessThanOrEqual(cols);
      }
    }
  });

  it('does not trust the composer: escapes and newlines are removed, a too-long answer is cut', () => {
    const rows = layoutBar(() => 'a\x1b[2Jb\nc', 40, 2);
    expect(rows).toEqual(['ab c']);
    const cut = layoutBar(() => 'x'.repeat(500), 40, 2);
    cut.forEach((row, i) => expect(displayWidth(row)).toBeLessThanOrEqual(i === 0 ? 31 : 40));
  });

  it('wraps a word wider than a row between graphemes', () => {
    expect(wrapWords('中文中文中 ok', [4, 6, 6])).toEqual({ rows: ['中文', '中文中', 'ok'] });
    expect(wrapWords('a bbbbbbb', [4, 8])).toEqual({ rows: ['a', 'bbbbbbb'] });
    expect(wrapWords('a bbbbbbb cc', [4, 8])).toEqual({ overflow: 3 });
  });

  it('keeps a label such as Next: on the row of the word after it', () => {
    expect(wrapWords('tests pass. Next: document it', [17, 20])).toEqual({ rows: ['tests pass.', 'Next: document it'] });
    expect(wrapWords('tests pass. Next: document it', [23, 20])).toEqual({ rows: ['tests pass.', 'Next: document it'] });
    expect(wrapWords('tests pass. Next: document it', [30, 20])).toEqual({ rows: ['tests pass. Next: document it'] });
  });
});

describe('bar rows', () => {
  it('sits at the bottom or top and never takes the whole screen unless it has one row', () => {
    expect(barTopRow('bottom', 24, 2)).toBe(22);
    expect(barTopRow('top', 24, 2)).toBe(0);
    expect(maxBarRows(2, 24)).toBe(2);
    expect(maxBarRows(2, 2)).toBe(1);
    expect(maxBarRows(2, 1)).toBe(1);
    expect(maxBarRows(1, 24)).toBe(1);
  });
});
