/**
 * Pure: the id/parentId tree of a transcript's entries, each entry with its events, kept in flat arrays.
 * Same rule as `activeBranch` (a parent not in the tree ends the walk; a cycle ends it; a later entry
 * with the same id replaces the earlier one), but with no object or array per entry: a 100 MB pi
 * session has ~70,000 entries, and a `{ parentId, events }` node plus a Set for the walk per entry cost
 * about 140 ms and a few MB of heap at load.
 *
 * Bounded (history.ts): past the limits, the tree is rebuilt as one head entry (the first prompts and the
 * summaries of the active branch's older part) followed by the newest entries in file order (any branch);
 * the rest is dropped and counted in `dropped`. After that, an entry whose parent is not in the tree
 * (dropped), or that has none, hangs from the head, so the session's first request stays on every branch.
 */
import { eventWeight, headEvents, HISTORY_LIMITS, overLimits, type HistoryLimits } from './history.js';
import type { TranscriptEvent } from './types.js';

// Not an id any agent writes (they are uuids, hex or `L<line>`), and never a JSON-decoded one in practice.
const HEAD_PREFIX = '\u0000history-head-';

export class EntryTree {
  private index = new Map<string, number>();
  private parentIds: (string | null)[] = [];
  // Events of entry i are events[starts[i] .. starts[i + 1]), then extra.get(i) (events added later).
  private starts: number[] = [0];
  private events: TranscriptEvent[] = [];
  private extra = new Map<number, TranscriptEvent[]>();
  private last: string | undefined;
  private weight = 0;
  private eventCount = 0;
  private droppedEvents = 0;
  private headId: string | undefined;
  private prunes = 0;
  // Every entry so far is the child of the one before (the first a root), no id was reused, and no events
  // were added later: the branch to the last entry is every event, and is read without a walk. That is
  // the usual file, and a live tracker snapshots it after every burst of lines.
  private linear = true;

  /**
   * mendBreaks: an entry whose parent is not in the file (a broken chain, seen in Claude Code 1.0.x files)
   * hangs from the entry written before it, so the branch to the leaf holds what came before the break:
   * the session index reads a file by all it holds. Without it (the live view) the walk ends there.
   */
  constructor(private readonly limits: HistoryLimits = HISTORY_LIMITS, private readonly mendBreaks = false) {}

  get size(): number {
    return this.index.size;
  }

  /** Events left out to keep memory bounded (see history.ts). */
  get dropped(): number {
    return this.droppedEvents;
  }

  /** The id of the entry added last (the leaf, unless something names another). */
  get lastId(): string | undefined {
    return this.last;
  }

  has(id: string): boolean {
    return this.index.has(id);
  }

  add(id: string, parentId: string | null, events: readonly TranscriptEvent[]): void {
    // After a prune, a parent that was dropped is somewhere in the dropped middle, and a new root follows
    // the same session: hang from the head.
    let parent = parentId;
    if (this.headId !== undefined && (parent === null || !this.index.has(parent))) parent = this.headId;
    // The usual parent is the entry before; keep that id string once rather than a second copy of it.
    if (parent !== null && parent === this.last) parent = this.last;
    const before = this.parentIds.length;
    if (this.linear && (this.index.has(id) || (before === 0 ? parent !== null : parent !== this.last))) this.linear = false;
    this.index.set(id, this.parentIds.length);
    this.parentIds.push(parent);
    for (const event of events) {
      this.events.push(event);
      this.weight += eventWeight(event);
    }
    this.eventCount += events.length;
    this.starts.push(this.events.length);
    this.last = id;
    if (overLimits(this.eventCount, this.weight, this.limits)) this.prune();
  }

  /** Add events to an entry already in the tree (metadata recorded beside it); false when id is unknown. */
  addTo(id: string, events: readonly TranscriptEvent[]): boolean {
    const at = this.index.get(id);
    if (at === undefined) return false;
    this.linear = false;
    const list = this.extra.get(at);
    if (list) list.push(...events);
    else this.extra.set(at, [...events]);
    for (const event of events) this.weight += eventWeight(event);
    this.eventCount += events.length;
    if (overLimits(this.eventCount, this.weight, this.limits)) this.prune();
    return true;
  }

  // Entry indexes from the root to leafId (root first); cycle-safe.
  private path(leafId: string | undefined): number[] {
    const seen = new Uint8Array(this.parentIds.length);
    const path: number[] = [];
    let at = leafId === undefined ? undefined : this.index.get(leafId);
    while (at !== undefined && seen[at] === 0) {
      seen[at] = 1;
      path.push(at);
      const parent = this.parentIds[at] as string | null;
      const next: number | undefined = parent === null ? undefined : this.index.get(parent);
      at = next === undefined && parent !== null && this.mendBreaks && at > 0 ? at - 1 : next;
    }
    return path.reverse();
  }

  private pushEntryEvents(entry: number, out: TranscriptEvent[]): void {
    const end = this.starts[entry + 1] as number;
    for (let e = this.starts[entry] as number; e < end; e++) out.push(this.events[e] as TranscriptEvent);
    const more = this.extra.get(entry);
    if (more) for (const e of more) out.push(e);
  }

  /** The events of the entries from the root to leafId, in order; empty when leafId is not in the tree. */
  branchEvents(leafId: string | undefined): TranscriptEvent[] {
    if (this.linear && leafId !== undefined && leafId === this.last) return this.events.slice();
    const count = this.parentIds.length;
    const path = this.path(leafId);
    // No branch, no replaced id, nothing added later: the path is every entry in file order, so the branch is all events.
    let linear = path.length === count && this.extra.size === 0;
    for (let k = 0; linear && k < count; k++) linear = path[k] === k;
    if (linear) return this.events.slice();
    const out: TranscriptEvent[] = [];
    for (const entry of path) this.pushEntryEvents(entry, out);
    return out;
  }

  /**
   * The events of the entries not on the root→leafId path (the other branches the file holds), in file
   * order; empty for a linear file. The session's counts are of every branch (what `read` shows), its
   * recap of the active one. An entry replaced by a later one with the same id is left out, as on the path.
   */
  offBranchEvents(leafId: string | undefined): TranscriptEvent[] {
    if (this.linear && leafId !== undefined && leafId === this.last) return [];
    const count = this.parentIds.length;
    const onPath = new Uint8Array(count);
    for (const entry of this.path(leafId)) onPath[entry] = 1;
    const live = new Uint8Array(count);
    for (const i of this.index.values()) live[i] = 1;
    const out: TranscriptEvent[] = [];
    for (let i = 0; i < count; i++) if (live[i] === 1 && onPath[i] === 0) this.pushEntryEvents(i, out);
    return out;
  }

  /*
   * Keep the newest entries in file order that fit in half the limits, whole; before them one head entry
   * with what headEvents keeps of the active branch's older part. Entries older than the window that are
   * not on the active branch go. O(entries), run once per half-limit of new events; works on the flat
   * arrays (no array per entry), since it runs inside a push, on the agent's event loop.
   */
  private prune(): void {
    const count = this.parentIds.length;
    const starts = this.starts;
    const events = this.events;
    const extra = this.extra;
    const entryWeight = (i: number): number => {
      let w = 0;
      const end = starts[i + 1] as number;
      for (let e = starts[i] as number; e < end; e++) w += eventWeight(events[e] as TranscriptEvent);
      const more = extra.get(i);
      if (more) for (const e of more) w += eventWeight(e);
      return w;
    };
    const entryCount = (i: number): number => (starts[i + 1] as number) - (starts[i] as number) + (extra.get(i)?.length ?? 0);
    // The window: newest entries first, while they fit in half the limits (at least one entry dropped).
    let cut = count;
    let kept = 0;
    let keptWeight = 0;
    while (cut > 1) {
      const n = entryCount(cut - 1);
      const w = entryWeight(cut - 1);
      if (cut < count && (kept + n > this.limits.maxEvents / 2 || keptWeight + w > this.limits.maxWeight / 2)) break;
      kept += n;
      keptWeight += w;
      cut--;
    }
    const older: TranscriptEvent[] = [];
    for (const entry of this.path(this.last)) if (entry < cut) this.pushEntryEvents(entry, older);
    let before = 0;
    for (let i = 0; i < cut; i++) before += entryCount(i);
    const head = headEvents(older);
    this.droppedEvents += before - head.kept.length;

    const ids: (string | undefined)[] = new Array<string | undefined>(count - cut);
    for (const [id, i] of this.index) if (i >= cut) ids[i - cut] = id;
    const headId = `${HEAD_PREFIX}${++this.prunes}`;
    const index = new Map<string, number>([[headId, 0]]);
    const parentIds: (string | null)[] = [null];
    const newStarts: number[] = [0, head.kept.length];
    const newEvents: TranscriptEvent[] = head.kept;
    let weight = 0;
    for (const e of head.kept) weight += eventWeight(e);
    for (let i = cut; i < count; i++) {
      const id = ids[i - cut];
      if (id === undefined) continue; // replaced by a later entry with the same id
      const parent = this.parentIds[i] as string | null;
      const parentAt = parent === null ? undefined : this.index.get(parent);
      index.set(id, parentIds.length);
      parentIds.push(parentAt !== undefined && parentAt >= cut ? parent : headId);
      const end = starts[i + 1] as number;
      for (let e = starts[i] as number; e < end; e++) newEvents.push(events[e] as TranscriptEvent);
      const more = extra.get(i);
      if (more) for (const e of more) newEvents.push(e);
      newStarts.push(newEvents.length);
    }
    this.weight = weight + keptWeight;
    this.index = index;
    this.parentIds = parentIds;
    this.starts = newStarts;
    this.events = newEvents;
    this.extra = new Map();
    this.eventCount = newEvents.length;
    this.headId = headId;
    this.linear = true;
    for (let i = 1; i < parentIds.length && this.linear; i++) {
      const parent = parentIds[i] as string | null;
      this.linear = parent !== null && index.get(parent) === i - 1;
    }
  }
}
