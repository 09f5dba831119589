/**
 * Model summaries of live sessions (issue #25): after the wrapper's write at a turn end or at exit, the
 * generator's cost gates (recap/summary-gate.ts: at exit, or ≥ 5 new user prompts since the last model
 * summary) decide; when one is open a detached `recapwrap index --summarize --session ID` asks the model,
 * so the agent's output and the wrapper's exit never wait for it (nor load the schema). Nothing with llm off.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Options } from '../config/options-table.js';
import type { Env } from '../config/paths.js';
import { resolveGenerator } from '../recap/engine.js';
import { shouldSummarize } from '../recap/summary-gate.js';
import type { AgentId } from '../transcripts/types.js';
import { debugLog } from '../util/debug-log.js';
import { engineSettings } from './recap-engine.js';

// Two folders below the package in src/ and in dist/ alike (see rolldown.config.mjs).
const CLI = fileURLToPath(new URL('../../bin/recapwrap.js', import.meta.url));

export interface LiveSummaryInput {
  row: { id: string; agent: AgentId; counts: { prompts: number } };
  /** The wrapper is exiting. */
  final: boolean;
  /** User prompts counted when the last model summary was stored (0: none yet). */
  summaryPrompts: number;
  options: Options;
  env: Env;
}

/** The `recapwrap` arguments that summarise this session now, or undefined when no gate is open. */
export function liveSummaryArgs(e: LiveSummaryInput, askedAt = 0): string[] | undefined {
  if (!e.options.llm || resolveGenerator(engineSettings({ options: e.options, env: e.env, agent: e.row.agent })) === 'heuristic') return undefined;
  if (!shouldSummarize({ prompts: e.row.counts.prompts, promptsAtLastSummary: Math.max(e.summaryPrompts, askedAt), exiting: e.final })) return undefined;
  return ['index', '--summarize', '--session', e.row.id, '--generator', e.options.generator, ...(e.options.model ? ['--model', e.options.model] : [])];
}

// Prompts counted when this wrapper last asked: the stored mark moves only when a summary lands.
const asked = new Map<string, number>();

/** Start the summary when a gate is open; never throws, never waits. */
export function maybeSummarizeLive(e: LiveSummaryInput, cwd: string): void {
  const args = liveSummaryArgs(e, asked.get(e.row.id));
  if (!args) return;
  asked.set(e.row.id, e.row.counts.prompts);
  try {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: e.env as NodeJS.ProcessEnv, stdio: 'ignore', detached: true });
    child.on('error', (error) => debugLog('memory', 'model summary not started', { error: error.message }));
    child.unref();
    debugLog('memory', 'model summary asked', { agent: e.row.agent, prompts: e.row.counts.prompts, final: e.final });
  } catch (error) {
    debugLog('memory', 'model summary not started', { error: (error as Error).message });
  }
}
