/**
 * Pure: where the agent's output stream stands at the end of a chunk. Overlay bytes written while the
 * terminal is inside an escape sequence or a multi-byte UTF-8 character would become part of it (a
 * colour cut in two, a stray character), so the bar is only drawn at a boundary. Knows 7-bit escape
 * sequences (CSI, OSC/DCS/APC/PM/SOS strings ended by BEL or ST, two- and three-byte ESC sequences)
 * and UTF-8; 8-bit C1 controls do not occur in UTF-8 output and are not tracked.
 */

const ESC = 0x1b;
const BEL = 0x07;
// ESC followed by one of these opens a string ended by BEL or ESC \ : OSC ], DCS P, SOS X, PM ^, APC _.
const STRING_INTRODUCERS = new Set([0x5d, 0x50, 0x58, 0x5e, 0x5f]);

/**
 * Index in `data` where an unfinished escape sequence or UTF-8 character begins, or -1 when the stream
 * ends at a boundary. `data` must start at a boundary (pass the unfinished tail of the previous chunk
 * in front of the next one).
 */
export function unfinishedTailStart(data: Uint8Array): number {
  const esc = data.lastIndexOf(ESC);
  if (esc >= 0 && !escapeEnds(data, esc)) return esc;
  return unfinishedUtf8Start(data, esc >= 0 ? esc : 0);
}

// Whether the escape sequence that starts at `at` (the last ESC in data) is complete.
function escapeEnds(data: Uint8Array, at: number): boolean {
  const next = data[at + 1];
  if (next === undefined) return false;
  if (next === 0x5b) {
    // CSI: parameter and intermediate bytes, then one final byte in 0x40-0x7e.
    for (let i = at + 2; i < data.length; i++) {
      const b = data[i] as number;
      if (b >= 0x40 && b <= 0x7e) return true;
      if (b < 0x20 || b > 0x3f) return true; // malformed: the terminal has left the sequence
    }
    return false;
  }
  // A string: since this is the last ESC, only a BEL can have ended it.
  if (STRING_INTRODUCERS.has(next)) return data.indexOf(BEL, at + 2) >= 0;
  // ESC intermediates (0x20-0x2f, e.g. ESC ( B) then a final byte.
  if (next >= 0x20 && next <= 0x2f) {
    for (let i = at + 2; i < data.length; i++) if ((data[i] as number) < 0x20 || (data[i] as number) > 0x2f) return true;
    return false;
  }
  return true; // a two-byte sequence (ESC 7, ESC \ ending a string, ESC M, …)
}

// Start of a UTF-8 character cut off at the end of data (at or after `from`), or -1.
function unfinishedUtf8Start(data: Uint8Array, from: number): number {
  for (let back = 1; back <= 3 && data.length - back >= from; back++) {
    const i = data.length - back;
    const b = data[i] as number;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: look further back for the lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? i : -1;
  }
  return -1;
}
