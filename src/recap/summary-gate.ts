/**
 * When the live wrapper asks a model for its session's summary (issue #25, DESIGN.md "Session memory"):
 * at exit when anything new arrived since the last model summary, or mid-session once ≥ 5 new user
 * prompts arrived since it. Whether a model may be asked at all (--no-llm) is the runner's check. Pure.
 */

export const SUMMARY_EVERY_PROMPTS = 5;

export interface SummaryGateInput {
  /** User prompts in the session so far. */
  prompts: number;
  /** The prompt count when the last model summary was written (undefined: never). */
  promptsAtLastSummary?: number;
  /** The session is ending (the wrapped agent exited). */
  exiting: boolean;
}

export function shouldSummarize(input: SummaryGateInput): boolean {
  const fresh = input.prompts - (input.promptsAtLastSummary ?? 0);
  if (fresh <= 0) return false;
  return input.exiting || fresh >= SUMMARY_EVERY_PROMPTS;
}
