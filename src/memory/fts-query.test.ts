import { describe, expect, it } from 'vitest';
import { queryWords, toFtsQuery } from './fts-query.js';

describe('toFtsQuery', () => {
  it('quotes every word as a prefix, all required', () => {
    expect(toFtsQuery('login bug')).toBe('"login"* "bug"*');
  });
  it('turns FTS syntax into plain words', () => {
    expect(toFtsQuery('"foo')).toBe('"foo"*');
    expect(toFtsQuery('(bar')).toBe('"bar"*');
    expect(toFtsQuery('-x')).toBe('"x"*');
    expect(toFtsQuery('a*')).toBe('"a"*');
    expect(toFtsQuery('AND')).toBe('"AND"*');
    expect(toFtsQuery('NEAR(a b)')).toBe('"NEAR"* "a"* "b"*');
  });
  it('has nothing to search for in punctuation or an empty query', () => {
    expect(toFtsQuery('')).toBeUndefined();
    expect(toFtsQuery('  * - ( ) " ')).toBeUndefined();
  });
  it('keeps words of any script', () => {
    expect(queryWords('中文 café')).toEqual(['中文', 'café']);
  });
});
