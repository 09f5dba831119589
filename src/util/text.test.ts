import { describe, expect, it } from 'vitest';
import { sanitizeBlock, sanitizeLine } from './sanitize.js';
import { displayWidth, truncateToWidth } from './text-width.js';

describe('sanitizeLine', () => {
  it('removes CSI, OSC and two-byte escapes', () => {
    expect(sanitizeLine('a\x1b[31mred\x1b[0m b')).toBe('ared b');
    expect(sanitizeLine('x\x1b]0;title\x07y')).toBe('xy');
    expect(sanitizeLine('x\x1b]52;c;ZGF0YQ==\x1b\\y')).toBe('xy');
    expect(sanitizeLine('x\x1b7y\x1b8z')).toBe('xyz');
    expect(sanitizeLine('x\x9b2Jy')).toBe('xy');
  });
  it('folds newlines and drops control characters', () => {
    expect(sanitizeLine('one\ntwo\r\nthree\tfour')).toBe('one two three four');
    expect(sanitizeLine('bell\x07 nul\x00 del\x7f')).toBe('bell nul del');
    expect(sanitizeLine('rtl\u202eevil')).toBe('rtlevil');
  });
  it('keeps CJK and emoji with joiners', () => {
    expect(sanitizeLine('日本語 👩‍💻 ok')).toBe('日本語 👩‍💻 ok');
  });
  it('sanitizeBlock keeps line structure', () => {
    expect(sanitizeBlock('a\x1b[1m\n\n\n\nb')).toBe('a\n\nb');
  });
});

describe('truncateToWidth', () => {
  it('counts CJK and emoji as two cells', () => {
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('👍')).toBe(2);
    expect(displayWidth('e\u0301')).toBe(1);
  });
  it('leaves text that fits alone', () => {
    expect(truncateToWidth('hello', 5)).toBe('hello');
  });
  it('cuts with an ellipsis and never exceeds the width', () => {
    expect(truncateToWidth('hello world', 8)).toBe('hello w…');
    for (let w = 1; w < 20; w++) {
      const cut = truncateToWidth('日本語のテキスト👩‍💻です', w);
      expect(displayWidth(cut)).toBeLessThanOrEqual(w);
    }
    expect(truncateToWidth('日本語', 4)).toBe('日…');
  });
  it('returns empty for zero width', () => {
    expect(truncateToWidth('abc', 0)).toBe('');
  });
});
