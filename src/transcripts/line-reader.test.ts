import { describe, expect, it } from 'vitest';
import { LineReader } from './line-reader.js';

const enc = (s: string) => Buffer.from(s, 'utf8');

function readAll(chunks: Uint8Array[], max?: number): { lines: string[]; rest?: string; skipped: number } {
  const r = new LineReader(max);
  const lines = chunks.flatMap((c) => r.push(c));
  return { lines, rest: r.flush(), skipped: r.skippedLongLines };
}

describe('LineReader', () => {
  const sample = enc('{"a":1}\n{"b":"日本語 👩‍💻"}\r\n\n{"c":3}\npartial');
  const expected = ['{"a":1}', '{"b":"日本語 👩‍💻"}', '', '{"c":3}'];

  it('splits a whole buffer', () => {
    expect(readAll([sample])).toEqual({ lines: expected, rest: 'partial', skipped: 0 });
  });

  it('gives the same lines for the sample split at every byte offset', () => {
    for (let i = 0; i <= sample.length; i++) {
      expect(readAll([sample.subarray(0, i), sample.subarray(i)])).toEqual({ lines: expected, rest: 'partial', skipped: 0 });
    }
  });

  it('gives the same lines for the sample split at every pair of offsets', () => {
    for (let i = 0; i <= sample.length; i += 3) {
      for (let j = i; j <= sample.length; j += 2) {
        const got = readAll([sample.subarray(0, i), sample.subarray(i, j), sample.subarray(j)]);
        expect(got.lines).toEqual(expected);
      }
    }
  });

  it('holds a partial last line until its newline', () => {
    const r = new LineReader();
    expect(r.push(enc('{"x":'))).toEqual([]);
    expect(r.pendingBytes).toBe(5);
    expect(r.push(enc('1}\n'))).toEqual(['{"x":1}']);
    expect(r.pendingBytes).toBe(0);
  });

  it('skips lines over the limit and counts them, with memory bounded, at every split', () => {
    const long = 'x'.repeat(50);
    const data = enc(`short\n${long}\nafter\n${long}`);
    for (let i = 0; i <= data.length; i++) {
      const r = new LineReader(20);
      const lines = [...r.push(data.subarray(0, i)), ...r.push(data.subarray(i))];
      expect(lines).toEqual(['short', 'after']);
      expect(r.pendingBytes).toBeLessThanOrEqual(20);
      expect(r.flush()).toBeUndefined();
      expect(r.skippedLongLines).toBe(2);
    }
  });

  it('replaces invalid UTF-8 instead of failing', () => {
    const r = new LineReader();
    expect(r.push(Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]))).toEqual(['{\ufffd\ufffd}']);
  });

  it('reset drops the held partial line', () => {
    const r = new LineReader();
    r.push(enc('abc'));
    r.reset();
    expect(r.push(enc('def\n'))).toEqual(['def']);
  });
});
