// displayWidth measures mostly-ASCII text run by run; it must agree with string-width on the whole
// string for any mix of ASCII, CJK, emoji (ZWJ, keycaps, flags), combining marks and controls.
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { displayWidth } from './text-width.js';

const PIECES = ['a', 'Z', ' ', '.', '1', '#', '—', '…', '日', '本', '👍', '👩‍💻', '1️⃣', '#️⃣', '🇯🇵', 'e\u0301', '\u0301', '\u200b', 'ｱ', 'ﾞ', 'é', '\t', '\x07', '한', '\u1100\u1161'];

describe('displayWidth', () => {
  it('agrees with string-width on random mixes', () => {
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed);
    for (let i = 0; i < 3000; i++) {
      let text = '';
      const n = next() % 12;
      for (let j = 0; j < n; j++) text += PIECES[next() % PIECES.length];
      expect(displayWidth(text), JSON.stringify(text)).toBe(stringWidth(text, { countAnsiEscapeCodes: false }));
    }
  });

  it('skips escape sequences like string-width', () => {
    expect(displayWidth('\x1b[31mred — 日\x1b[0m')).toBe(8);
  });
});

describe('truncateToWidth', () => {
  it('cuts on grapheme boundaries to fit, as a whole-text segmentation would; no limit leaves text as is', async () => {
    const { graphemes, truncateToWidth } = await import('./text-width.js');
    // The reference: every grapheme measured first, then taken while they fit.
    const reference = (text: string, max: number) => {
      if (displayWidth(text) <= max) return text;
      let used = 0;
      let out = '';
      for (const g of graphemes(text)) {
        if (used + g.width > max - 1) break;
        out += g.text;
        used += g.width;
      }
      return out.trimEnd() + '…';
    };
    let seed = 11;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed);
    for (let i = 0; i < 2000; i++) {
      let text = '';
      const n = next() % 30;
      for (let j = 0; j < n; j++) text += PIECES[next() % PIECES.length];
      const max = 1 + (next() % 20);
      expect(truncateToWidth(text, max), JSON.stringify([text, max])).toBe(reference(text, max));
      expect(truncateToWidth(text, Number.POSITIVE_INFINITY)).toBe(text);
    }
  });
});
