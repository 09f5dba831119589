import { describe, expect, it } from 'vitest';
import { unfinishedTailStart } from './stream-boundary.js';

const at = (s: string) => unfinishedTailStart(Buffer.from(s, 'utf8'));

describe('unfinishedTailStart', () => {
  it('ends at a boundary after text and complete sequences', () => {
    for (const s of ['', 'plain', 'a\x1b[0m', '\x1b[38;2;1;2;3mX', '\x1b]0;title\x07', '\x1b]8;;http://x\x1b\\', '\x1b7', '\x1b(B', 'é✦🙂', '\x1b[?2026h']) expect(at(s)).toBe(-1);
  });

  it('finds an escape sequence cut off anywhere', () => {
    expect(at('ab\x1b')).toBe(2);
    expect(at('ab\x1b[')).toBe(2);
    expect(at('ab\x1b[38;2;149;117')).toBe(2);
    expect(at('ab\x1b[?20')).toBe(2);
    expect(at('x\x1b]0;a long title')).toBe(1);
    // An ESC inside a string ends the string and starts a new sequence (here: the first half of ST).
    expect(at('x\x1b]8;;http://x\x1b')).toBe(14);
    expect(at('x\x1b(')).toBe(1);
  });

  it('finds a UTF-8 character cut off, also right after a sequence', () => {
    const check = Buffer.from('a\x1b[1m✦', 'utf8');
    expect(unfinishedTailStart(check.subarray(0, check.length - 1))).toBe(5);
    expect(unfinishedTailStart(check.subarray(0, check.length - 2))).toBe(5);
    const emoji = Buffer.from('🙂', 'utf8');
    expect(unfinishedTailStart(emoji.subarray(0, 3))).toBe(0);
    expect(unfinishedTailStart(Buffer.from('é', 'utf8').subarray(0, 1))).toBe(0);
  });

  it('a control byte inside a CSI ends it as far as the terminal is concerned', () => {
    expect(at('\x1b[12\n')).toBe(-1);
  });
});
