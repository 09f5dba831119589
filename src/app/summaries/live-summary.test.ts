import { describe, expect, it } from 'vitest';
import { defaultOptions, type Options } from '../../config/options-table.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../memory/open-store.js';
import type { SessionWrite } from '../../memory/types.js';
import { liveSummaryArgs, maybeSummarizeLive, type LiveSummaryInput } from './live-summary.js';

const write = (id: string, prompts: number): SessionWrite => ({
  id, agent: 'claude', transcript: `/t/${id}.jsonl`, cwd: '/w', project: 'w', headline: 'h', line: 'recap: h', updatedAt: Date.now(),
  counts: { prompts, turns: prompts, toolCalls: 0 }, status: 'idle', language: 'en', tags: [], generator: { type: 'heuristic' },
  done: [], next: [], artifacts: [], text: 'port the parser', nameHints: { task: 'port parser', files: [], commands: [] }, mark: { size: 1, mtimeMs: 1, entry: '' },
});

const input = (prompts: number, over: Partial<LiveSummaryInput> = {}, options: Partial<Options> = {}): LiveSummaryInput => ({
  row: { id: 'sid-1', agent: 'claude', counts: { prompts } },
  final: false,
  summaryPrompts: 0,
  summaryAsked: 0,
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

  it('counts from what a wrapper already asked for while that summary is on its way', () => {
    expect(liveSummaryArgs(input(6, { summaryAsked: 5 }))).toBeUndefined();
    expect(liveSummaryArgs(input(10, { summaryAsked: 5 }))).toBeDefined();
  });

  it('two turn ends after the gate opened, each in a new memory worker (a new index connection), start one summary', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rw-live-sum-'));
    try {
      const starts: string[][] = [];
      for (let turn = 0; turn < 2; turn++) {
        const opened = openStore(join(dir, 'index.db'));
        if (!opened.ok) throw new Error(opened.error);
        const store = opened.store;
        if (turn === 0) store.upsert(write('sid-1', 5));
        const row = store.byTranscript('/t/sid-1.jsonl');
        if (!row) throw new Error('Expected the row, got none');
        maybeSummarizeLive(input(row.counts.prompts, { summaryPrompts: row.summaryPrompts, summaryAsked: row.summaryAsked.prompts }), dir, (p) => store.claimSummary('sid-1', p), (args) => starts.push(args));
        store.close();
      }
      expect(starts).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('passes the model the wrapper was given, and asks nothing with llm off or the heuristic generator', () => {
    expect(liveSummaryArgs(input(5, {}, { model: 'gpt-x' }))?.slice(-2)).toEqual(['--model', 'gpt-x']);
    expect(liveSummaryArgs(input(9, { final: true }, { llm: false }))).toBeUndefined();
    expect(liveSummaryArgs(input(9, { final: true }, { generator: 'heuristic' }))).toBeUndefined();
    // auto: the agent's own one-off CLI when it has one.
    expect(liveSummaryArgs(input(9, { final: true }, { generator: 'auto' }))?.slice(-2)).toEqual(['--generator', 'auto']);
  });
});
