// A bell (or any of our bytes) is never written inside an unfinished escape sequence or UTF-8
// character of the agent's output: the output is split at every pair of offsets, a bell is asked for
// at each, and where it lands is checked against the sample's real boundaries (written out as tokens).
import { describe, expect, it } from 'vitest';
import { BoundaryWriter } from './boundary-writer.js';

const BEL = 0x07;
// Atomic pieces of an agent's output: the boundaries lie between them (and between ASCII letters).
const TOKENS = ['ab', '\x1b[31m', 'é', '\x1b]0;title\x07', '中', '\x1bP+q544e\x1b\\', '\x1b(B', '🙂', '\x1b[?2026h', '\x1b]8;;http://x\x1b\\', 'c', '\x1b7', '\x1b[38;2;1;2;3m', 'd'];
const SAMPLE = Buffer.from(TOKENS.join(''), 'utf8');
const BOUNDARIES = new Set<number>([0]);
{
  let offset = 0;
  for (const token of TOKENS) {
    const bytes = Buffer.from(token, 'utf8');
    if (/^[a-z]+$/.test(token)) for (let i = 1; i < bytes.length; i++) BOUNDARIES.add(offset + i);
    offset += bytes.length;
    BOUNDARIES.add(offset);
  }
}

// The bell as written in these checks: a NUL, so it cannot be mistaken for the sample's own BELs (the
// writer does not look at what it writes).
const MARK = '\x00';

// Run chunks through a writer, ringing before chunk `ringAt`; returns the bytes the terminal got.
function run(chunks: Buffer[], ringAt: number): { stream: Buffer; writer: BoundaryWriter } {
  const out: Buffer[] = [];
  const writer = new BoundaryWriter((data) => out.push(Buffer.from(data, 'latin1')));
  chunks.forEach((chunk, i) => {
    if (i === ringAt) writer.writeAtBoundary(MARK);
    out.push(chunk); // the chunk is written to the terminal first, then observed
    writer.observe(chunk);
  });
  if (ringAt >= chunks.length) writer.writeAtBoundary(MARK);
  return { stream: Buffer.concat(out), writer };
}

// Where in the original sample the mark sits.
function insertedAt(stream: Buffer): number {
  for (let i = 0; i < SAMPLE.length; i++) if (stream[i] !== SAMPLE[i]) return i;
  return SAMPLE.length;
}

describe('BoundaryWriter', () => {
  it('the bell lands at the first boundary at or after the moment it was asked for, for every split', () => {
    expect(SAMPLE.includes(BEL)).toBe(true); // an OSC ended by BEL: a bell inside it would end it early
    expect(SAMPLE.includes(0)).toBe(false);
    let delayed = 0;
    for (let i = 0; i <= SAMPLE.length; i++) {
      for (let j = i; j <= SAMPLE.length; j++) {
        const chunks = [SAMPLE.subarray(0, i), SAMPLE.subarray(i, j), SAMPLE.subarray(j)];
        // Ask for the bell after the first chunk: it is due at offset i.
        const { stream, writer } = run(chunks, 1);
        expect(stream.length, `split ${i}/${j}`).toBe(SAMPLE.length + 1);
        const at = insertedAt(stream);
        expect(BOUNDARIES.has(at), `split ${i}/${j}: bell at ${at}`).toBe(true);
        // Not later than needed: at i when i is a boundary, else at the end of the first chunk that ends on one.
        const expected = BOUNDARIES.has(i) ? i : BOUNDARIES.has(j) ? j : SAMPLE.length;
        expect(at, `split ${i}/${j}`).toBe(expected);
        if (at !== i) delayed++;
        expect(writer.pending).toBe(0);
      }
    }
    expect(delayed).toBeGreaterThan(0);
  });

  it('byte-by-byte output: each bell waits for the end of the sequence it would have cut', () => {
    const bytes = [...SAMPLE].map((b) => Buffer.from([b]));
    for (let k = 0; k <= bytes.length; k++) {
      const at = insertedAt(run(bytes, k).stream);
      expect(BOUNDARIES.has(at), `bell asked at ${k}, written at ${at}`).toBe(true);
      expect(at).toBe(Math.min(...[...BOUNDARIES].filter((b) => b >= k)));
    }
  });

  it('a stream that never ends a sequence keeps at most a few queued writes, and lets a runaway string go', () => {
    const out: string[] = [];
    const writer = new BoundaryWriter((d) => out.push(d));
    writer.observe(Buffer.from('\x1b]0;never ends'));
    for (let i = 0; i < 20; i++) writer.writeAtBoundary('\x07');
    expect(out).toEqual([]);
    expect(writer.pending).toBe(8);
    writer.observe(Buffer.alloc(70 * 1024, 0x41)); // > 64 KiB of string: given up on, boundary assumed
    expect(out).toEqual(['\x07'.repeat(8)]);
    expect(writer.atBoundary).toBe(true);
  });
});
