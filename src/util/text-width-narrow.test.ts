// Text of ASCII and one-cell characters (… — → ✓ é ж α │) is measured and cut without string-width or
// the grapheme segmenter (their first load costs ~20-35 ms: the index's heuristic cards paid it for an
// ellipsis); each such character must be what string-width says, alone and in any mix.
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { stringWidthLoaded } from './string-width-load.js';
import { displayWidth, graphemes, NARROW_CHARS, truncateToWidth } from './text-width.js';

// Every code point of the NARROW_CHARS class.
function narrowCodePoints(): number[] {
  const out: number[] = [];
  const spec = NARROW_CHARS.replace(/\\u([0-9a-f]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  for (let i = 0; i < spec.length; i++) {
    const from = spec.charCodeAt(i);
    if (spec[i + 1] === '-') {
      const to = spec.charCodeAt(i + 2);
      for (let c = from; c <= to; c++) out.push(c);
      i += 2;
    } else out.push(from);
  }
  return out;
}

describe('one-cell text', () => {
  it('is measured, cut and split into graphemes without loading string-width', () => {
    const text = 'Fixed the parser — 3 tests ✓, café → next: ship it… (×2, €5, ж, α, │)';
    expect(displayWidth(text)).toBe(text.length);
    expect(truncateToWidth(text + ' and more words after it', 30)).toBe('Fixed the parser — 3 tests ✓,…');
    expect(graphemes('é→✓').map((g) => g.width)).toEqual([1, 1, 1]);
    expect(stringWidthLoaded()).toBe(false);
  });

  it('every character of the class is one cell for string-width', () => {
    const points = narrowCodePoints();
    expect(points.length).toBeGreaterThan(1500);
    const wrong = points.filter((c) => stringWidth(String.fromCharCode(c)) !== 1).map((c) => c.toString(16));
    expect(wrong).toEqual([]);
  });

  it('agrees with string-width on random mixes with wide, combining and emoji characters', () => {
    const points = narrowCodePoints();
    const pieces = ['a', ' ', '.', '日', '👍', '1️⃣', 'e\u0301', '\u0301', '\u200b', '\ufe0f', '✔\ufe0f', '↔\ufe0f', '\u200d', '한'];
    let seed = 11;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed);
    for (let i = 0; i < 3000; i++) {
      let text = '';
      const n = next() % 10;
      for (let j = 0; j < n; j++) text += next() % 2 ? String.fromCharCode(points[next() % points.length] as number) : pieces[next() % pieces.length];
      expect(displayWidth(text), JSON.stringify(text)).toBe(stringWidth(text, { countAnsiEscapeCodes: false }));
    }
  });
});
