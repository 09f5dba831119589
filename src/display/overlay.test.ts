import { describe, expect, it } from 'vitest';
import { displayWidth } from '../util/text-width.js';
import { barRow, renderOverlayBar } from './overlay.js';

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
