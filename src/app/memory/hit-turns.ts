/**
 * Which prompt of a search hit holds the words (#41): the index ranks sessions; this reads each shown
 * hit's transcript with the reader's builder, a turn at a time, and stops at the first message holding
 * every word (findAnchor's rule; else the message holding the most). Only for hits already ranked and
 * cut to the shown count, within a time budget: a hit past it, or whose file is gone, gets no turn.
 */
import { existsSync } from 'node:fs';
import type { Block } from '../../reader/document.js';
import { anchorWords, findAnchor, holdsEvery } from '../../reader/find-anchor.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { SessionRow } from './api.js';

/** All hits together wait at most this long for their turn (search stays quick on big archives). */
export const HIT_TURNS_BUDGET_MS = 1500;
/** Messages holding some of the words kept to choose the best among when none holds all. */
const PARTIAL_KEEP = 64;

/** The turn (prompt number, from 1) of the first message of a session file holding the words; undefined when none. */
export async function findTurnInSession(file: string, words: string, deadline: number, agent?: SessionRow['agent']): Promise<number | undefined> {
  // Only the words are looked for: texts that cannot hold them are not cleaned (the same blocks and turns).
  // The reader (and with it every transcript parser) is loaded by the first hit that needs a read: a search
  // whose hits all hold the words in their first prompt loads none of it.
  const { streamSession } = await import('../../reader/build.js');
  const stream = await streamSession(file, { ...(agent ? { agent } : {}), words: anchorWords(words) });
  const partial: Block[] = [];
  try {
    for await (const block of stream.blocks) {
      const hit = findAnchor([block], words);
      if (hit?.all) return hit.turn > 0 ? hit.turn : undefined;
      if (hit && partial.length < PARTIAL_KEEP) partial.push(block);
      if (Date.now() > deadline) break;
    }
  } finally {
    await stream.blocks.return(undefined);
  }
  const best = findAnchor(partial, words);
  return best && best.turn > 0 ? best.turn : undefined;
}

/**
 * Whether the first line of a session's first prompt, as its condensed text holds it (condense.ts: a
 * prompt is a line starting `> `), holds every word: then findAnchor stops at that prompt, turn 1, and the
 * file need not be read (a block before the first prompt has no turn: seldom, and `--turn 1` is then the
 * session's start all the same). Search's words are most often the task's, and the task is the first prompt.
 */
export function firstPromptHolds(condensed: string, query: string): boolean {
  const at = condensed.startsWith('> ') ? 0 : condensed.indexOf('\n> ') + 1;
  if (at === 0 && !condensed.startsWith('> ')) return false;
  const end = condensed.indexOf('\n', at);
  // Cleaned as the reader cleans what it shows (the condensed text keeps a terminal's escapes as written),
  // but not masked again: the condensed text was masked when it was stored, and masking's first call in a
  // process (its patterns compiled) was ~7 ms of a search whose hits all hold the words in their first prompt.
  const line = condensed.slice(at + 2, end < 0 ? undefined : end);
  return holdsEvery(sanitizeLine(line), anchorWords(query));
}

/**
 * The hits with `turn` added where found (same order, same objects' fields). Hits are read one after
 * another (a 2-core machine gains nothing from reading files side by side) until the budget is spent.
 * `condensed`: a hit's condensed text, when at hand: a hit whose first prompt holds the words is turn 1
 * without a read (firstPromptHolds).
 */
export async function addHitTurns<T extends SessionRow>(hits: readonly T[], query: string, budgetMs = HIT_TURNS_BUDGET_MS, now: () => number = Date.now, condensed?: (hit: T) => string | undefined): Promise<(T & { turn?: number })[]> {
  const deadline = now() + budgetMs;
  const out: (T & { turn?: number })[] = [];
  for (const hit of hits) {
    let turn: number | undefined;
    // A hit whose transcript is gone has no turn (there is nothing to read at it).
    const there = hit.transcriptExists && existsSync(hit.transcript);
    const text = there ? condensed?.(hit) : undefined;
    if (text !== undefined && firstPromptHolds(text, query)) turn = 1;
    else if (there && now() < deadline) {
      try {
        turn = await findTurnInSession(hit.transcript, query, deadline, hit.agent);
      } catch {
        turn = undefined; // An unreadable transcript: the hit shows without its turn.
      }
    }
    out.push(turn === undefined ? { ...hit } : { ...hit, turn });
  }
  return out;
}
