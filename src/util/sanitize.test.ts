import { describe, expect, it } from 'vitest';
import { UNSAFE_FOR_TERMINAL } from '../../test/helpers/terminal-safe.js';
import { sanitizeLine, sanitizeText, stringifyJsonSafely } from './sanitize.js';

describe('sanitizeLine (#19 point 4)', () => {
  it('removes the OSC 52 and title sequences of a hostile tool path', () => {
    expect(sanitizeLine('\u001b]52;c;cHduZWQ=\u0007\u001b]0;PWN\u0007x')).toBe('x');
  });
  it('removes bidi overrides, isolates and marks', () => {
    expect(sanitizeLine('a\u202eb\u202dc\u2066d\u2069e\u200ef\u200fg\u061ch')).toBe('abcdefgh');
  });
  it('removes zero-width characters, BOM, soft hyphen, word joiner and tag characters', () => {
    const hidden = 'p\u200ba\u200cs\u2060s\ufeffw\u00ado\u{e0041}\u{e0042}r\u034fd\u3164';
    expect(sanitizeLine(hidden)).toBe('password');
  });
  it('keeps ZWJ only between two emoji (documented choice: emoji sequences stay one glyph)', () => {
    expect(sanitizeLine('👩‍💻 and 👨‍👩‍👧 and 👩🏽‍💻')).toBe('👩‍💻 and 👨‍👩‍👧 and 👩🏽‍💻');
    expect(sanitizeLine('a\u200db')).toBe('ab');
    expect(sanitizeLine('👩\u200d')).toBe('👩');
    expect(sanitizeLine('\u200d💻')).toBe('💻');
  });
  it('removes 8-bit C1 forms (CSI U+009B, OSC U+009D, NEL) and supplementary variation selectors', () => {
    expect(sanitizeLine('x\u009b31my\u009d0;t\u009cz\u0085w')).toBe('xyz w');
    expect(sanitizeLine('a\u{e0100}\u{e0101}b')).toBe('ab');
  });
  it('never lets an escape through whatever invisible characters surround it', () => {
    for (const pad of ['\u200b', '\u200d', '\u202e', '\u00ad', '\u{e0020}', '\x00']) {
      const out = sanitizeLine(`a\x1b${pad}]0;t\x07b${pad}\x9b2J`);
      expect(out).not.toMatch(UNSAFE_FOR_TERMINAL);
    }
  });
  it('keeps ordinary text, CJK and variation selector 16', () => {
    expect(sanitizeLine('日本語 ❤️ café — ok')).toBe('日本語 ❤️ café — ok');
  });
});

describe('stringifyJsonSafely', () => {
  it('escapes C1, bidi, zero-width and tag characters, and round-trips exactly', () => {
    const value = { path: 'a\u009b31m\u202eb\u200bc\u200d\u2028\u{e0041}\x7f\x1b', nested: ['\u0085'] };
    const json = stringifyJsonSafely(value, 2);
    expect(json).not.toMatch(UNSAFE_FOR_TERMINAL);
    expect(json).not.toMatch(/[\u2028\u2029]|\udb40/);
    expect(json).toContain('\\u009b');
    expect(json).toContain('\\udb40\\udc41');
    expect(JSON.parse(json)).toEqual(value);
  });
  it('leaves ordinary text and emoji as they are', () => {
    expect(stringifyJsonSafely({ a: '日本 👩‍💻' })).toBe('{"a":"日本 👩\\u200d💻"}');
    expect(stringifyJsonSafely(undefined)).toBe('null');
  });
});

describe('sanitizeText (the reader, #41)', () => {
  it('keeps indentation and blank lines, turns tabs into spaces, removes escapes and invisible characters', () => {
    expect(sanitizeText('def f():\n\treturn 1\n\n\n  x  \r\ny\u2028z')).toBe('def f():\n    return 1\n\n\n  x\ny\nz');
    expect(sanitizeText('\x1b[31mred\x1b[0m \x1b]8;;http://e\x07l\x1b]8;;\x07 \x9b1m a\u202eb\u200bc')).toBe('red l  abc');
  });
});
