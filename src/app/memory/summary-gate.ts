/**
 * The seam for model summaries of live sessions: called after each write the live wrapper makes (each turn
 * end, and once at exit with `final`). The heuristic card is already stored; a model summary follows only
 * through the generator's cost gates (recap/summary-gate.ts: at exit, or ≥ 5 new user prompts since the
 * last one), then a detached `recapwrap index --summarize --session ID` (app/live-summary.ts).
 * In the built CLI this runs in the wrapper's memory worker thread (app/memory/worker.ts); the summary
 * itself runs in that detached process, so the exit waits only for the write.
 */
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import type { Session } from '../../transcripts/types.js';
import { maybeSummarizeLive } from '../summaries/live-summary.js';
import type { SessionMemory, SessionRow } from './api.js';

export interface LiveWriteEvent {
  memory: SessionMemory;
  row: SessionRow;
  session: Session;
  /** The wrapper is exiting (the last write of this run). */
  final: boolean;
  /** User prompts counted when the last model summary was written (0: none yet). */
  summaryPrompts: number;
  /** User prompts counted when a wrapper last asked for a model summary (0: never). */
  summaryAsked: number;
  options: Options;
  env: Env;
}

/** Runs after a live write; never throws (the caller logs and goes on if it does). */
export async function afterLiveWrite(e: LiveWriteEvent): Promise<void> {
  maybeSummarizeLive(e, process.cwd(), (prompts) => e.memory.store.claimSummary(e.row.id, prompts));
}
