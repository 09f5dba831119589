/**
 * Pure: the id/parentId tree of a transcript's entries, each entry with its events, kept in flat arrays.
 * Same rule as `activeBranch` (a parent not in the tree ends the walk; a cycle ends it; a later entry
 * with the same id replaces the earlier one), but with no object or array per entry: a 100 MB pi
 * session has ~70,000 entries, and a `{ parentId, events }` node plus a Set for the walk per entry cost
 * about 140 ms and a few MB of heap at load.
 */
import type { TranscriptEvent } from './types.js';

export class EntryTree {
  private readonly index = new Map<string, number>();
  private readonly parentIds: (string | null)[] = [];
  // Events of entry i are events[starts[i] .. starts[i + 1]).
  private readonly starts: number[] = [0];
  private readonly events: TranscriptEvent[] = [];
  private last: string | undefined;

  get size(): number {
    return this.index.size;
  }

  /** The id of the entry added last (the leaf, unless something names another). */
  get lastId(): string | undefined {
    return this.last;
  }

  has(id: string): boolean {
    return this.index.has(id);
  }

  add(id: string, parentId: string | null, events: readonly TranscriptEvent[]): void {
    // The usual parent is the entry before; keep that id string once rather than a second copy of it.
    const parent = parentId !== null && parentId === this.last ? this.last : parentId;
    this.index.set(id, this.parentIds.length);
    this.parentIds.push(parent);
    for (const event of events) this.events.push(event);
    this.starts.push(this.events.length);
    this.last = id;
  }

  /** The events of the entries from the root to leafId, in order; empty when leafId is not in the tree. */
  branchEvents(leafId: string | undefined): TranscriptEvent[] {
    const count = this.parentIds.length;
    const seen = new Uint8Array(count);
    const path: number[] = [];
    let at = leafId === undefined ? undefined : this.index.get(leafId);
    while (at !== undefined && seen[at] === 0) {
      seen[at] = 1;
      path.push(at);
      const parent = this.parentIds[at] as string | null;
      at = parent === null ? undefined : this.index.get(parent);
    }
    // No branch, no replaced id: the path is every entry in file order, so the branch is all events.
    let linear = path.length === count;
    for (let k = 0; linear && k < count; k++) linear = path[k] === count - 1 - k;
    if (linear) return this.events.slice();
    const out: TranscriptEvent[] = [];
    for (let k = path.length - 1; k >= 0; k--) {
      const entry = path[k] as number;
      const end = this.starts[entry + 1] as number;
      for (let e = this.starts[entry] as number; e < end; e++) out.push(this.events[e] as TranscriptEvent);
    }
    return out;
  }
}
