import { describe, expect, it } from 'vitest';
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
