/**
 * Items of every machine merged and ranked (rows newest first, hits by each index's own rank). Pure, and
 * without zod: loaded before the hosts answer.
 */

/** The most of one host's answer that is read (bytes); more is an error. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
/** The most items taken from one host (here, not in remote-schema.ts, so the ask can be sized before zod loads). */
export const MAX_ITEMS = 1000;

/** What a host's list left out, said on its line: malformed items, and items past the most read. */
export function leftOutNote(parsed: { dropped: number; beyond?: number }): string | undefined {
  const parts: string[] = [];
  if (parsed.dropped) parts.push(`${parsed.dropped} malformed item${parsed.dropped === 1 ? '' : 's'} left out`);
  if (parsed.beyond) parts.push(`it answered ${parsed.beyond} item${parsed.beyond === 1 ? '' : 's'} more than the ${MAX_ITEMS} read from a host; those left out`);
  return parts.length ? parts.join('; ') : undefined;
}

/** An item and the machine it came from (undefined: this one). */
export type Tagged<T> = T & { host?: string };

const time0 = (s: string) => Date.parse(s) || 0;

/** Rows of every machine, newest first, at most `limit`. */
export function mergeRows<T extends { updatedAt: string; host?: string }>(lists: readonly (readonly T[])[], limit: number): T[] {
  return lists.flat().sort((a, b) => time0(b.updatedAt) - time0(a.updatedAt) || (a.host ?? '').localeCompare(b.host ?? '')).slice(0, limit);
}

/**
 * Hits of every machine, best first, at most `limit`. Each index ranks its own hits (bm25: lower is
 * better, and not comparable between indexes), so the lists are interleaved by rank: every machine's
 * best, then every machine's second, … ; within a rank, the better score, then the newer.
 */
export function mergeHits<T extends { score: number; updatedAt: string; host?: string }>(lists: readonly (readonly T[])[], limit: number): T[] {
  const ranked = lists.flatMap((l) => [...l].sort((a, b) => a.score - b.score).map((item, rank) => ({ item, rank })));
  ranked.sort((a, b) => a.rank - b.rank || a.item.score - b.item.score || time0(b.item.updatedAt) - time0(a.item.updatedAt));
  return ranked.slice(0, limit).map((r) => r.item);
}

/**
 * One machine's part of a merged list: how many items it gave, and how many it holds when known (this
 * machine and a pulled copy count theirs; a host's JSON has no total, so a host that gave every item it
 * was asked for holds at least that many).
 */
export interface ListCount { given: number; total?: number }

/**
 * The line a cut merged list prints (stderr), as this machine's alone does: `20 of 58 sessions (--limit N
 * for more)`, or `of at least N` when a host's own total is unknown; '' when every item is shown.
 */
export function describeCutList(shown: number, counts: readonly ListCount[]): string {
  const known = counts.every((c) => c.total !== undefined);
  const total = counts.reduce((sum, c) => sum + (c.total ?? c.given), 0);
  if (total <= shown) return '';
  return `${shown} of ${known ? '' : 'at least '}${total} sessions (--limit N for more)\n`;
}
