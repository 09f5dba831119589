/**
 * Writes our own bytes (a bell, a desktop-notification sequence) into the agent's output stream only
 * at a boundary: never inside one of the agent's escape sequences or UTF-8 characters that a chunk left
 * unfinished. Fed every output chunk after it was written; what cannot go out now waits for the first
 * chunk that ends at a boundary. Pure apart from the `write` it is given.
 */
import { unfinishedTailStart } from './stream-boundary.js';

/** An unfinished sequence longer than this (a runaway OSC string) is let go: memory stays bounded. */
const MAX_UNFINISHED_BYTES = 64 * 1024;
/** Queued writes beyond this many are dropped (a stream that never reaches a boundary). */
const MAX_QUEUED = 8;
const EMPTY = new Uint8Array(0);

export class BoundaryWriter {
  private unfinished: Uint8Array = EMPTY;
  private queued: string[] = [];

  constructor(private readonly write: (data: string) => void) {}

  /** The agent's output ends at a boundary now. */
  get atBoundary(): boolean {
    return this.unfinished.length === 0;
  }

  /** How many writes wait for a boundary. */
  get pending(): number {
    return this.queued.length;
  }

  /** An output chunk of the agent, just written to the terminal. */
  observe(chunk: Uint8Array): void {
    const data = this.unfinished.length > 0 ? concat(this.unfinished, chunk) : chunk;
    const start = unfinishedTailStart(data);
    this.unfinished = start < 0 || data.length - start > MAX_UNFINISHED_BYTES ? EMPTY : Uint8Array.from(data.subarray(start));
    if (this.unfinished.length === 0 && this.queued.length > 0) this.flush();
  }

  /** Write now if the stream is at a boundary, else as soon as it is. */
  writeAtBoundary(data: string): void {
    if (this.atBoundary) {
      this.write(data);
      return;
    }
    if (this.queued.length < MAX_QUEUED) this.queued.push(data);
  }

  private flush(): void {
    const out = this.queued.join('');
    this.queued = [];
    this.write(out);
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
