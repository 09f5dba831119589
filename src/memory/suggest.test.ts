import { describe, expect, it } from 'vitest';
import { closestWord, editDistance } from './suggest.js';

describe('did you mean', () => {
  it('counts a letter left out, added, changed or two swapped as one edit', () => {
    expect(editDistance('bollywod', 'bollywood', 2)).toBe(1);
    expect(editDistance('bollywoood', 'bollywood', 2)).toBe(1);
    expect(editDistance('bollywaod', 'bollywood', 2)).toBe(1);
    expect(editDistance('bolylwood', 'bollywood', 2)).toBe(1);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
  });
  it('offers the closest word, the most widely held among equals, and nothing too far', () => {
    const candidates: Array<[string, number]> = [['bollywood', 3], ['bolly', 9], ['bollywoods', 1], ['bollards', 5]];
    expect(closestWord('bollywod', candidates)).toBe('bollywood');
    expect(closestWord('bollywod', [['bollywood', 1], ['bollywoo', 7]])).toBe('bollywoo');
    expect(closestWord('xylophone', candidates)).toBeUndefined();
    expect(closestWord('bollywood', [['bollywood', 3]])).toBeUndefined();
  });
});
