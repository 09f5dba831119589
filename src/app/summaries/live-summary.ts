/**
 * Model summaries of live sessions (issue #25): after the wrapper's write at a turn end or at exit, the
 * generator's cost gates (recap/summary-gate.ts: at exit, or ≥ 5 new user prompts since the last model
 * summary) decide; when one is open a detached `recapwrap index --summarize --session ID` asks the model,
 * so the agent's output and the wrapper's exit never wait for it (nor load the schema). Nothing with llm off.
 */
import { spawn } from 'node:child_process';
import { packageFile } from '../../util/package-dir.js';
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import { resolveGenerator } from '../../recap/engine.js';
import { shouldSummarize } from '../../recap/summary-gate.js';
import type { AgentId } from '../../transcripts/types.js';
import { debugLog } from '../../util/debug-log.js';
import { engineSettings } from '../recaps/recap-engine.js';

// Two folders below the package in src/ and in dist/ alike (see rolldown.config.mjs).

export interface LiveSummaryInput {
  row: { id: string; agent: AgentId; counts: { prompts: number } };
  /** The wrapper is exiting. */
  final: boolean;
  /** User prompts counted when the last model summary was stored (0: none yet). */
  summaryPrompts: number;
  /** User prompts counted when a wrapper last asked for one (the row's summaryAsked; 0: never). */
  summaryAsked: number;
  options: Options;
  env: Env;
}

/** The `recapwrap` arguments that summarise this session now, or undefined when no gate is open. */
export function liveSummaryArgs(e: LiveSummaryInput): string[] | undefined {
  if (!e.options.llm || resolveGenerator(engineSettings({ options: e.options, env: e.env, agent: e.row.agent })) === 'heuristic') return undefined;
  if (!shouldSummarize({ prompts: e.row.counts.prompts, promptsAtLastSummary: Math.max(e.summaryPrompts, e.summaryAsked), exiting: e.final })) return undefined;
  return ['index', '--summarize', '--session', e.row.id, '--generator', e.options.generator, ...(e.options.model ? ['--model', e.options.model] : [])];
}

/**
 * Start the summary when a gate is open; never throws, never waits. `claim` keeps "asked at N prompts" in
 * the index row before anything starts (false: another worker or wrapper already asked at N or later), so
 * the ask survives the memory worker's end: one summary per gate, even when it runs long or fails.
 */
export function maybeSummarizeLive(e: LiveSummaryInput, cwd: string, claim: (prompts: number) => boolean, start = startDetached): void {
  const args = liveSummaryArgs(e);
  if (!args) return;
  try {
    if (!claim(e.row.counts.prompts)) return;
    start(args, cwd, e.env);
    debugLog('memory', 'model summary asked', { agent: e.row.agent, prompts: e.row.counts.prompts, final: e.final });
  } catch (error) {
    debugLog('memory', 'model summary not started', { error: (error as Error).message });
  }
}

function startDetached(args: string[], cwd: string, env: Env): void {
  const child = spawn(process.execPath, [packageFile('bin', 'recapwrap.js'), ...args], { cwd, env: env as NodeJS.ProcessEnv, stdio: 'ignore', detached: true });
  child.on('error', (error) => debugLog('memory', 'model summary not started', { error: error.message }));
  child.unref();
}
