import { describe, expect, it } from 'vitest';
import { pieces } from './fts-query.js';
import { snippetOf, termSpans } from './snippet.js';
import { HIT_END, HIT_START } from './types.js';

const mark = (w: string) => `${HIT_START}${w}${HIT_END}`;

describe('snippetOf', () => {
  it('cuts the passage holding the most different query words, on word edges, the words marked', () => {
    const text = `${'filler words here. '.repeat(20)}the deploy failed on staging\n${'more filler text. '.repeat(10)}the deploy script and the staging rollback worked\n${'tail words. '.repeat(20)}`;
    const s = snippetOf(text, ['deploy', 'staging', 'rollback']) as string;
    expect(s).toContain(`${mark('staging')} ${mark('rollback')}`);
    expect(s.startsWith('…') && s.endsWith('…')).toBe(true);
    expect(s.length).toBeLessThanOrEqual(170);
  });
  it('finds other English forms of a word, numbers as written, CJK words inside runs', () => {
    expect(snippetOf('we were moving the files', ['moved'])).toBe(`we were ${mark('moving')} the files`);
    expect(snippetOf('version 2.1.112 and 1120', ['1120'])).toBe(`version 2.1.112 and ${mark('1120')}`);
    expect(snippetOf('我要做一个海康球机人脸检测', ['球机'])).toBe(`我要做一个海康${mark('球机')}人脸检测`);
    expect(snippetOf('人脸跟随', ['人脸跟踪'])).toBe(`${mark('人脸')}跟随`);
  });
  it('is undefined when the text holds none of the words', () => {
    expect(snippetOf('nothing relevant', ['zebra'])).toBeUndefined();
    expect(termSpans('', ['a'])).toEqual([]);
  });
});

// termSpans as it was before it read only the words starting with a query word's stem (the reference).
function termSpansByEveryWord(text: string, queryWords: ReadonlyArray<string | { word: string; prefix?: boolean }>) {
  const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  const stem = (w: string) => {
    const s = w.replace(/(ations?|ings?|ments?|ness|ers?|ed|es|s|ly|ion|ions|ies|ied|y|e)$/, '');
    return s.length >= 3 ? s : w;
  };
  const spans: { at: number; end: number; term: number }[] = [];
  const folded = fold(text);
  const source = folded.length === text.length ? folded : text.toLowerCase();
  queryWords.forEach((q, term) => {
    const { word, prefix = false } = typeof q === 'string' ? { word: q } : q;
    for (const part of pieces(fold(word))) {
      if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(part)) continue; // unspaced scripts: unchanged, not compared here
      const number = /^\p{N}+$/u.test(part);
      const want = number ? part : stem(part);
      for (const m of source.matchAll(/[\p{L}\p{N}\p{M}]+/gu)) {
        const w = m[0];
        if (w === part || (!number && (stem(w) === want || (prefix && w.startsWith(part))))) spans.push({ at: m.index, end: m.index + w.length, term });
      }
    }
  });
  return spans.sort((a, b) => a.at - b.at);
}

describe('termSpans', () => {
  it('finds the words reading every word would find', () => {
    const texts = [
      'we were moving the files; moved, moves and mover. Remove movement? unmoved Moving!',
      'Café crème: the cafe\u0301 moved; naïve naive NAÏVE. 𝒜moving 😀moving x\u0301moving moving😀 ﬁles files',
      'deploy deployed deploying redeploy deploy-script deploy_script deploys2 2deploy 1120 11200 1120x',
      `${'filler words here. '.repeat(200)}tokenizers token tokens tokenize`,
      'ΑΘΗΝΑ αθηνα Straße STRASSE i\u0307stanbul İstanbul',
    ];
    const queries: Array<ReadonlyArray<string | { word: string; prefix?: boolean }>> = [
      ['moved'], ['moving', 'files'], ['cafe'], ['naive'], ['deploy'], ['1120'], ['token'], ['tokenizers'], [{ word: 'tok', prefix: true }], [{ word: 'dep', prefix: true }, 'script'], ['αθηνα'], ['strasse'], ['istanbul'], ['file'],
    ];
    for (const text of texts) for (const q of queries) expect(termSpans(text, q), `${text.slice(0, 30)} / ${JSON.stringify(q)}`).toEqual(termSpansByEveryWord(text, q));
  });
});
