/**
 * Pure: how much of a session's history a parser keeps. A live wrapper can follow a session of a million
 * entries for days, so every parser bounds what it holds: past these limits it keeps the session's first
 * prompts, its latest compaction and branch summaries, the latest title and model, and a window of the
 * most recent events (half the limits), and drops (and counts) the events in between. The limits sit above
 * a 100 MB transcript of ordinary turns (~130,000 events, ~40 MB by this weight), which stays whole.
 */
import type { HistoryLimits, TranscriptEvent } from './types.js';

export type { HistoryLimits } from './types.js';

/** For loading a whole file (`transcript`, `recap --session`): a 100 MB transcript stays whole. */
export const HISTORY_LIMITS: HistoryLimits = { maxEvents: 200_000, maxWeight: 64 * 1024 * 1024 };
/**
 * For a live wrapper following its agent for hours (the tracker): the recap needs the start and the recent
 * turns, and the wrapper's whole process must stay under 150 MB (bench/transcripts.bench.mjs follows a
 * session of 1,000,000 entries: 115-136 MB peak and a 24-31 ms longest event-loop stall with these limits,
 * 165 MB with twice them, 1.1 GB keeping everything; parsing that file's JSON alone, keeping nothing, peaks
 * at ~118 MB). 30,000 events are
 * still hundreds of turns, more than a recap's context ever takes; each prune rebuilds at most half of it.
 */
export const LIVE_HISTORY_LIMITS: HistoryLimits = { maxEvents: 30_000, maxWeight: 8 * 1024 * 1024 };
/** Typed prompts kept from the start of a session once its middle is dropped (the task is stated there). */
export const HEAD_PROMPTS = 3;
/** Compaction and branch summaries kept from the dropped part (the newest). */
export const HEAD_SUMMARIES = 8;

// Rough heap cost of one event: the object with its fields, plus its strings at one byte a character.
const EVENT_OVERHEAD = 120;

export function eventWeight(e: TranscriptEvent): number {
  let w = EVENT_OVERHEAD + e.sourceId.length;
  if ('text' in e && typeof e.text === 'string') w += e.text.length;
  if (e.kind === 'tool-call') {
    w += e.name.length + e.args.length + (e.command?.length ?? 0);
    for (const p of e.paths) w += p.length + 16;
  }
  return w;
}

/** True when events/weight are past the limits. */
export function overLimits(count: number, weight: number, limits: HistoryLimits): boolean {
  return count > limits.maxEvents || weight > limits.maxWeight;
}

/**
 * From the events of the part about to be dropped (oldest first), the ones that stay: the first
 * HEAD_PROMPTS typed prompts, the newest HEAD_SUMMARIES summaries, the last title and model, in their
 * order. `dropped` counts the others.
 */
export function headEvents(events: Iterable<TranscriptEvent>): { kept: TranscriptEvent[]; dropped: number } {
  const all: TranscriptEvent[] = [];
  for (const e of events) all.push(e);
  const keep = new Uint8Array(all.length);
  let prompts = 0;
  let summaries = 0;
  let title = false;
  let model = false;
  for (let i = 0; i < all.length && prompts < HEAD_PROMPTS; i++) {
    if ((all[i] as TranscriptEvent).kind === 'user') {
      keep[i] = 1;
      prompts++;
    }
  }
  for (let i = all.length - 1; i >= 0; i--) {
    const kind = (all[i] as TranscriptEvent).kind;
    if (kind === 'summary' && summaries < HEAD_SUMMARIES) {
      keep[i] = 1;
      summaries++;
    } else if (kind === 'title' && !title) {
      keep[i] = 1;
      title = true;
    } else if (kind === 'model' && !model) {
      keep[i] = 1;
      model = true;
    }
  }
  const kept = all.filter((_, i) => keep[i] === 1);
  return { kept, dropped: all.length - kept.length };
}

/**
 * Where the kept window starts in a list of events (oldest first): the newest events that fit in half the
 * limits. Always drops at least one event when called on a list over the limits.
 */
export function windowStart(events: readonly TranscriptEvent[], limits: HistoryLimits): number {
  const maxEvents = Math.max(1, Math.floor(limits.maxEvents / 2));
  const maxWeight = limits.maxWeight / 2;
  let weight = 0;
  let i = events.length;
  while (i > 0 && events.length - i < maxEvents) {
    const w = eventWeight(events[i - 1] as TranscriptEvent);
    if (weight + w > maxWeight && i < events.length) break;
    weight += w;
    i--;
  }
  return Math.max(i, 1);
}

/**
 * A linear history bounded as above (Codex's log): when over the limits, the head's kept events, then the
 * window. Returns the new list and how many events it dropped.
 */
export function boundLinear(events: TranscriptEvent[], limits: HistoryLimits): { events: TranscriptEvent[]; dropped: number } {
  const start = windowStart(events, limits);
  const head = headEvents(events.slice(0, start));
  return { events: [...head.kept, ...events.slice(start)], dropped: head.dropped };
}
