import { describe, expect, it } from 'vitest';
import { createFocusReportFilter, type InputPiece } from './focus-reports.js';

const IN = { type: 'focus', focused: true } as const;
const OUT = { type: 'focus', focused: false } as const;
const data = (d: string): InputPiece => ({ type: 'data', data: d });

// Run the filter over chunks, flush at the end, and merge adjacent data pieces.
function run(chunks: string[]): InputPiece[] {
  const filter = createFocusReportFilter();
  const all: InputPiece[] = [];
  for (const chunk of chunks) all.push(...filter.push(chunk));
  all.push(...filter.flush());
  const merged: InputPiece[] = [];
  for (const piece of all) {
    const last = merged[merged.length - 1];
    if (piece.type === 'data' && last?.type === 'data') last.data += piece.data;
    else merged.push({ ...piece });
  }
  return merged;
}

const SAMPLES: Array<[name: string, input: string, expected: InputPiece[]]> = [
  ['focus reports between text', 'abc\x1b[Idef\x1b[Oghi', [data('abc'), IN, data('def'), OUT, data('ghi')]],
  ['only a focus report', '\x1b[O', [OUT]],
  ['arrows and SS3 arrows', '\x1b[A\x1b[B\x1bOA\x1bOB', [data('\x1b[A\x1b[B\x1bOA\x1bOB')]],
  ['Alt-[ followed by a normal char', '\x1b[x\x1b[[', [data('\x1b[x\x1b[[')]],
  ['Ctrl-arrow with params', '\x1b[1;5A\x1b[I', [data('\x1b[1;5A'), IN]],
  ['lone ESC at the end', 'q\x1b', [data('q\x1b')]],
  ['double ESC before a report', '\x1b\x1b[I', [data('\x1b'), IN]],
  ['Alt-O is not a report', '\x1bO\x1b[O', [data('\x1bO'), OUT]],
  [
    'bracketed paste content untouched',
    '\x1b[200~hello\x1b[Iworld\x1b[O\x1b\x1b[201~\x1b[I',
    [data('\x1b[200~hello\x1b[Iworld\x1b[O\x1b\x1b[201~'), IN],
  ],
  [
    'paste start inside a paste is content',
    '\x1b[200~\x1b[200~x\x1b[I\x1b[201~y\x1b[O',
    [data('\x1b[200~\x1b[200~x\x1b[I\x1b[201~y'), OUT],
  ],
  ['broken paste marker then report', '\x1b[20\x1b[I\x1b[2x', [data('\x1b[20'), IN, data('\x1b[2x')]],
  ['utf-8 bytes seen as latin1', Buffer.from('héllo ✦ 日本\x1b[I', 'utf8').toString('latin1'), [data(Buffer.from('héllo ✦ 日本', 'utf8').toString('latin1')), IN]],
  ['control chars and Ctrl-C', '\x03\x1a\r\x1b[Ox', [data('\x03\x1a\r'), OUT, data('x')]],
];

describe('createFocusReportFilter', () => {
  for (const [name, input, expected] of SAMPLES) {
    it(`${name}: whole, split at every offset, and byte by byte`, () => {
      expect(run([input])).toEqual(expected);
      for (let cut = 0; cut <= input.length; cut++) {
        expect(run([input.slice(0, cut), input.slice(cut)]), `cut at ${cut}`).toEqual(expected);
      }
      for (let a = 1; a < input.length; a++) {
        for (let b = a + 1; b < input.length; b++) {
          expect(run([input.slice(0, a), input.slice(a, b), input.slice(b)]), `cuts at ${a},${b}`).toEqual(expected);
        }
      }
      expect(run([...input])).toEqual(expected);
    });
  }

  it('holds a trailing ESC or ESC [ until the next chunk or a flush', () => {
    const filter = createFocusReportFilter();
    expect(filter.push('a\x1b')).toEqual([data('a')]);
    expect(filter.pending).toBe(true);
    expect(filter.push('[')).toEqual([]);
    expect(filter.pending).toBe(true);
    expect(filter.push('I')).toEqual([IN]);
    expect(filter.pending).toBe(false);
    expect(filter.push('\x1b')).toEqual([]);
    expect(filter.flush()).toEqual([data('\x1b')]);
    expect(filter.pending).toBe(false);
    expect(filter.flush()).toEqual([]);
  });

  it('sends a held ESC that the next read shows to be a key of its own as its own piece', () => {
    const filter = createFocusReportFilter();
    expect(filter.push('\x1b')).toEqual([]);
    // Esc then j: two keys (as they came), not Alt-j
    expect(filter.push('j')).toEqual([data('\x1b'), data('j')]);
    expect(filter.push('\x1b')).toEqual([]);
    expect(filter.push('\x1b[Ix')).toEqual([data('\x1b'), IN, data('x')]);
    // within one read an ESC and the next byte stay together (Alt-x, SS3)
    expect(filter.push('\x1bx\x1bOA')).toEqual([data('\x1bx\x1bOA')]);
    // a CSI cut after ESC [ is one sequence, forwarded whole
    expect(filter.push('\x1b')).toEqual([]);
    expect(filter.push('[')).toEqual([]);
    expect(filter.push('A')).toEqual([data('\x1b[A')]);
  });

  it('does not hold anything inside a paste, even a trailing ESC', () => {
    const filter = createFocusReportFilter();
    expect(filter.push('\x1b[200~abc\x1b')).toEqual([data('\x1b[200~abc\x1b')]);
    expect(filter.pending).toBe(false);
    expect(filter.push('[201~\x1b[I')).toEqual([data('[201~'), IN]);
  });

  it('a flushed ESC [ followed later by 200~ still starts a paste', () => {
    const filter = createFocusReportFilter();
    expect(filter.push('\x1b[')).toEqual([]);
    expect(filter.flush()).toEqual([data('\x1b[')]);
    expect(filter.push('200~\x1b[I\x1b[201~')).toEqual([data('200~\x1b[I\x1b[201~')]);
  });
});
