// indexText finds words joined by case changes with a plain pattern first and checks only the words it
// points at (for speed); its text must be the same as with the Unicode pattern tried at every letter, for
// any mix of scripts, surrogate pairs and lone halves.
import { describe, expect, it } from 'vitest';
import { bigrams, indexText, splitCase } from './fts-query.js';

const OLD_CASE_WORD = /[\p{L}\p{N}]*(?:\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll})[\p{L}\p{N}]*/gu;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc\u3005]+/gu;
function reference(text: string): string {
  const split = text.replace(OLD_CASE_WORD, (word) => `${word} ${splitCase(word)}`);
  return split.replace(UNSPACED, (run) => ` ${bigrams(run).join(' ')} `);
}

describe('indexText: words joined by case changes', () => {
  it('the same text as the pattern tried at every letter', () => {
    const pieces = ['a', 'b', 'B', 'C', 'x', 'É', 'é', 'ж', 'Ж', '1', '9', ' ', '-', '_', '.', '/', '𝐀', '𝐚', '日', 'ß', 'ǅ', '\u0301', '…', '─', 'aB', 'ABc', 'xY', '\ud835', '\udc00', '𝐀b', 'ǅa', 'Σσ', '한', 'ﾞ', '\u200d', '👍'];
    let seed = 5;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed);
    for (let i = 0; i < 20000; i++) {
      let text = '';
      const n = next() % 20;
      for (let j = 0; j < n; j++) text += pieces[next() % pieces.length];
      expect(indexText(text), JSON.stringify(text)).toBe(reference(text));
    }
    expect(indexText('call registerProvider on the HTTPServer, ok')).toBe(reference('call registerProvider on the HTTPServer, ok'));
  });
});
