/**
 * Pure: turns byte chunks into complete lines, holding a partial last line until its newline.
 * Memory is bounded: a line longer than maxLineBytes is dropped (and counted) without being kept.
 * Bytes are decoded as UTF-8 per line, so a multi-byte character split across chunks stays whole.
 */

/** Lines longer than this are skipped (Claude and Codex records can be large, but not this large). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export class LineReader {
  private parts: Buffer[] = [];
  private partBytes = 0;
  private discarding = false;
  private skipped = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });

  constructor(private readonly maxLineBytes: number = MAX_LINE_BYTES) {}

  /** Lines skipped because they were longer than maxLineBytes. */
  get skippedLongLines(): number {
    return this.skipped;
  }

  /** Bytes held for the incomplete last line. */
  get pendingBytes(): number {
    return this.partBytes;
  }

  // Feed the next chunk; returns the lines it completed, without their newline (and without a trailing CR).
  push(chunk: Uint8Array): string[] {
    const lines: string[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        this.hold(chunk.subarray(start));
        return lines;
      }
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.discarding) {
        this.discarding = false;
        continue;
      }
      if (this.partBytes + piece.length > this.maxLineBytes) {
        this.dropPartial();
        continue;
      }
      lines.push(this.decode(piece));
    }
  }

  /** The incomplete last line, if any, as if it ended now (used at end of file); clears it. */
  flush(): string | undefined {
    if (this.discarding) {
      this.discarding = false;
      return undefined;
    }
    if (this.partBytes === 0) return undefined;
    return this.decode(new Uint8Array(0));
  }

  /** Forget everything held (the file was truncated or replaced). */
  reset(): void {
    this.parts = [];
    this.partBytes = 0;
    this.discarding = false;
  }

  private hold(rest: Uint8Array): void {
    if (rest.length === 0 || this.discarding) return;
    if (this.partBytes + rest.length > this.maxLineBytes) {
      this.dropPartial();
      this.discarding = true;
      return;
    }
    this.parts.push(Buffer.from(rest));
    this.partBytes += rest.length;
  }

  private dropPartial(): void {
    this.skipped++;
    this.parts = [];
    this.partBytes = 0;
  }

  private decode(last: Uint8Array): string {
    let bytes: Uint8Array = last;
    if (this.parts.length > 0) {
      bytes = Buffer.concat([...this.parts, last]);
      this.parts = [];
      this.partBytes = 0;
    }
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CARRIAGE_RETURN) end--;
    return this.decoder.decode(bytes.subarray(0, end));
  }
}
