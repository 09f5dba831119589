/**
 * The part of the session memory (src/app/memory/api.ts) the MCP server uses: the read calls and
 * refresh. A narrow port, so the tool layer can be tested with a small in-memory fake.
 */
import type { SessionMemory } from '../memory/api.js';

export type { RefResult, SearchHit, SessionCard, SessionFilter, SessionRow } from '../memory/api.js';

export type McpMemory = Pick<SessionMemory, 'list' | 'search' | 'resolve' | 'card' | 'passages' | 'condensedText' | 'close'> & {
  /**
   * Bring the index up to date (its stats are only logged). ifIdle: skipped while another process holds
   * the write lock (better-sqlite3 waits for a lock synchronously: the server would answer nothing meanwhile),
   * (`locked`: the answers are from its last commit), or reads the session files (`elsewhere`: its
   * process id; the answers are then of a partial index).
   */
  refresh(opts?: { ifIdle?: boolean }): Promise<{ elsewhere?: number; locked?: true }>;
  /** The cards of the sessions one was forked from (`@@name~N`); absent: no lineage known. */
  lineage?: SessionMemory['lineage'];
};
