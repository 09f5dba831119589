import { describe, expect, it } from 'vitest';
import { defaultOptions, type Options } from '../config/options-table.js';
import { liveSummaryArgs, type LiveSummaryInput } from './live-summary.js';

const input = (prompts: number, over: Partial<LiveSummaryInput> = {}, options: Partial<Options> = {}): LiveSummaryInput => ({
  row: { id: 'sid-1', agent: 'claude', counts: { prompts } },
  final: false,
  summaryPrompts: 0,
  options: { ...defaultOptions(), generator: 'openai', ...options },
  env: { PATH: '' },
  ...over,
});

describe('liveSummaryArgs (the live wrapper asks for a model summary)', () => {
  it('asks once 5 new prompts arrived since the last model summary, and at exit', () => {
    expect(liveSummaryArgs(input(4))).toBeUndefined();
    expect(liveSummaryArgs(input(5))).toEqual(['index', '--summarize', '--session', 'sid-1', '--generator', 'openai']);
    expect(liveSummaryArgs(input(8, { summaryPrompts: 5 }))).toBeUndefined();
    expect(liveSummaryArgs(input(8, { summaryPrompts: 5, final: true }))).toBeDefined();
    expect(liveSummaryArgs(input(5, { summaryPrompts: 5, final: true }))).toBeUndefined();
  });

  it('counts from what this wrapper already asked for while that summary is on its way', () => {
    expect(liveSummaryArgs(input(6), 5)).toBeUndefined();
    expect(liveSummaryArgs(input(10), 5)).toBeDefined();
  });

  it('passes the model the wrapper was given, and asks nothing with llm off or the heuristic generator', () => {
    expect(liveSummaryArgs(input(5, {}, { model: 'gpt-x' }))?.slice(-2)).toEqual(['--model', 'gpt-x']);
    expect(liveSummaryArgs(input(9, { final: true }, { llm: false }))).toBeUndefined();
    expect(liveSummaryArgs(input(9, { final: true }, { generator: 'heuristic' }))).toBeUndefined();
    // auto: the agent's own one-off CLI when it has one.
    expect(liveSummaryArgs(input(9, { final: true }, { generator: 'auto' }))?.slice(-2)).toEqual(['--generator', 'auto']);
  });
});
