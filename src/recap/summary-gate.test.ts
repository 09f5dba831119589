import { describe, expect, it } from 'vitest';
import { shouldSummarize, SUMMARY_EVERY_PROMPTS } from './summary-gate.js';

describe('shouldSummarize', () => {
  it('waits for 5 new prompts mid-session, counted from the last model summary', () => {
    expect(SUMMARY_EVERY_PROMPTS).toBe(5);
    expect(shouldSummarize({ prompts: 4, exiting: false })).toBe(false);
    expect(shouldSummarize({ prompts: 5, exiting: false })).toBe(true);
    expect(shouldSummarize({ prompts: 9, promptsAtLastSummary: 5, exiting: false })).toBe(false);
    expect(shouldSummarize({ prompts: 10, promptsAtLastSummary: 5, exiting: false })).toBe(true);
  });

  it('summarises at exit when anything new arrived, never twice for the same prompts', () => {
    expect(shouldSummarize({ prompts: 1, exiting: true })).toBe(true);
    expect(shouldSummarize({ prompts: 7, promptsAtLastSummary: 6, exiting: true })).toBe(true);
    expect(shouldSummarize({ prompts: 6, promptsAtLastSummary: 6, exiting: true })).toBe(false);
    expect(shouldSummarize({ prompts: 0, exiting: true })).toBe(false);
  });
});
