/**
 * The seam for model summaries of live sessions: called after each write the live wrapper makes (each turn
 * end, and once at exit with `final`). The heuristic card is already stored; a model summary may follow only
 * through the generator's cost gates (at exit, or ≥ 5 new user prompts since the last one: row.counts.prompts
 * against the stored summaryPrompts). Nothing here yet: the model summaries (zod schema, retries) plug in.
 * In the built CLI this runs in the wrapper's memory worker thread (app/memory/worker.ts), not on its main
 * thread; at exit the wrapper waits for it at most 4 s plus the generator timeout (memory-writer.ts).
 */
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import type { Session } from '../../transcripts/types.js';
import type { SessionMemory, SessionRow } from './api.js';

export interface LiveWriteEvent {
  memory: SessionMemory;
  row: SessionRow;
  session: Session;
  /** The wrapper is exiting (the last write of this run). */
  final: boolean;
  /** User prompts counted when the last model summary was written (0: none yet). */
  summaryPrompts: number;
  options: Options;
  env: Env;
}

/** Runs after a live write; must never throw (the caller logs and goes on if it does). */
export async function afterLiveWrite(_event: LiveWriteEvent): Promise<void> {}
