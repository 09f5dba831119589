/**
 * A model's summary of one session (issue #25): the generator the recap settings choose for the session's
 * agent (its own CLI one-off, openai, anthropic; `llm: false` or the heuristic: nothing is sent), the
 * summary prompt over the session's condensed text, and the answer checked by the zod schema. An invalid
 * answer is asked again once (so a summary is at most SUMMARY_MAX_CALLS model calls: with the agent
 * generator, runs of the agent's CLI); a transport or HTTP error is not retried. Each call is a debug-log
 * line saying what it is for. Never throws.
 */
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import { resolveCommand } from '../../pty/command-lookup.js';
import { resolveGenerator, type EngineSettings } from '../../recap/engine.js';
import { agentAttempt, recapModelFor } from '../../recap/providers/agent.js';
import { anthropicAttempt, openaiAttempt, type Attempt, type ModelRequest } from '../../recap/providers/http.js';
import { buildSummaryPrompt, SUMMARY_SYSTEM_PROMPT, type SummaryInput } from '../../recap/summary-prompt.js';
import { parseModelSummary, type ModelSummary } from '../../recap/summary-schema.js';
import type { GeneratorType } from '../../recap/types.js';
import type { AgentId } from '../../transcripts/types.js';
import { formatCount } from '../../util/plural.js';
import { engineSettings } from '../recaps/recap-engine.js';

/** Retries after an invalid answer; transport errors end the run at once. */
export const SUMMARY_INVALID_RETRIES = 1;
/** The most model calls one summary of one session makes (the README says it). */
export const SUMMARY_MAX_CALLS = SUMMARY_INVALID_RETRIES + 1;
/** A summary's JSON is longer than a recap line. */
export const SUMMARY_MAX_OUTPUT_TOKENS = 800;

export interface SummaryTarget extends SummaryInput {
  agent: AgentId;
  /** The session's folder (an agent one-off run whose spec wants it runs there). */
  cwd?: string;
  /** The session's id (for the debug log's line about each call). */
  session?: string;
}

export type SummaryModel = { type: Exclude<GeneratorType, 'heuristic'>; model: string };

export type SummaryOutcome =
  | { ok: true; summary: ModelSummary; generator: SummaryModel; tries: number }
  | { ok: false; error: string; tries: number; generator?: SummaryModel };

/** The recap settings as they apply to a summary of a session of this agent. */
export function summarySettings(options: Options, env: Env, agent: AgentId): EngineSettings {
  return engineSettings({ options, env, agent });
}

/** The generator and model a summary of a session of this agent goes to, or why none is asked. */
export function summaryModel(settings: EngineSettings): SummaryModel | { off: string } {
  const type = resolveGenerator(settings);
  if (type === 'heuristic') {
    if (!settings.llm) return { off: 'model summaries are off (--no-llm or llm: false)' };
    if (settings.generator === 'heuristic') return { off: 'the generator is heuristic' };
    return { off: `${settings.agent?.id ?? 'this agent'} has no one-off mode recapwrap knows (choose --generator openai or anthropic)` };
  }
  switch (type) {
    case 'openai':
      return { type, model: settings.model || settings.openai.model };
    case 'anthropic':
      return { type, model: settings.model || settings.anthropic.model };
    case 'agent':
      return { type, model: `${settings.agent?.id ?? 'agent'} ${settings.agent?.oneShot ? recapModelFor(settings.agent.oneShot, settings.model) || 'default' : 'default'}` };
    default:
      return type satisfies never;
  }
}

/**
 * Like summaryModel, and the agent's own CLI must be on PATH (its one-off mode writes the summary): a
 * plan says so once, before anything is sent, instead of failing each session in turn (#small item 3).
 */
export function reachableSummaryModel(settings: EngineSettings, cwd: string): SummaryModel | { off: string } {
  const model = summaryModel(settings);
  if ('off' in model || model.type !== 'agent') return model;
  const command = settings.agent?.command || settings.agent?.id;
  if (command && !resolveCommand(command, settings.env, cwd).ok) return { off: `${command} is not on PATH (its own CLI writes its sessions' summaries; or choose --generator openai or anthropic)` };
  return model;
}

/**
 * One call to the chosen model (the summaries' and query_session's answers alike); no retry. `purpose`
 * goes to the debug log with the generator and model, one line per call, before it is made.
 */
export function callOnce(settings: EngineSettings, gen: SummaryModel, req: ModelRequest, signal: AbortSignal, purpose = 'a model call'): Promise<Attempt> {
  const s = settings;
  s.log?.('model call', { purpose, generator: gen.type, model: gen.model });
  switch (gen.type) {
    case 'openai':
      return openaiAttempt(req, signal, { ...s.openai, model: gen.model, timeoutMs: s.timeoutMs });
    case 'anthropic':
      if (!s.anthropic.apiKey) return Promise.resolve({ kind: 'failed', error: 'no API key: set ANTHROPIC_API_KEY (or RECAPWRAP_ANTHROPIC_API_KEY)', unsent: true });
      return anthropicAttempt(req, signal, { ...s.anthropic, model: gen.model, timeoutMs: s.timeoutMs });
    case 'agent':
      if (!s.agent?.oneShot) return Promise.resolve({ kind: 'failed', error: 'the agent generator needs a known agent' });
      return agentAttempt(req, signal, { agent: s.agent.id, command: s.agent.command, oneShot: s.agent.oneShot, model: s.model, timeoutMs: s.timeoutMs, env: s.env, home: s.home });
    default:
      return gen.type satisfies never;
  }
}

/** Ask the chosen model for the session's summary; the caller keeps the heuristic one when this fails. */
export async function runModelSummary(settings: EngineSettings, target: SummaryTarget, signal: AbortSignal = new AbortController().signal): Promise<SummaryOutcome> {
  const gen = summaryModel(settings);
  if ('off' in gen) return { ok: false, error: gen.off, tries: 0 };
  if (!target.condensed.trim()) return { ok: false, error: 'the session has no text to summarise', tries: 0, generator: gen };
  const req: ModelRequest = { system: SUMMARY_SYSTEM_PROMPT, prompt: buildSummaryPrompt(target), maxTokens: SUMMARY_MAX_OUTPUT_TOKENS };
  const started = Date.now();
  let lastError = 'no answer';
  let tries = 0;
  for (let i = 0; i <= SUMMARY_INVALID_RETRIES; i++) {
    if (signal.aborted) return { ok: false, error: 'aborted', tries, generator: gen };
    tries++;
    const purpose = `summary of ${target.agent} session ${target.session ?? '(no id)'}, call ${tries} of at most ${SUMMARY_MAX_CALLS}`;
    const attempt = await callOnce(settings, gen, req, signal, purpose).catch((error: Error): Attempt => ({ kind: 'failed', error: error.message }));
    if (attempt.kind === 'failed') {
      // `tries` counts the calls made: one that never reached a model is not one.
      if (attempt.unsent) tries--;
      settings.log?.('model summary failed', { generator: gen.type, model: gen.model, tries, error: attempt.error });
      return { ok: false, error: attempt.error, tries, generator: gen };
    }
    const parsed = attempt.kind === 'text' ? parseModelSummary(attempt.text) : { ok: false as const, error: attempt.error };
    if (parsed.ok) {
      // Durations go to the debug log, never the text.
      settings.log?.('model summary', { generator: gen.type, model: gen.model, tries, ms: Date.now() - started });
      return { ok: true, summary: parsed.value, generator: gen, tries };
    }
    lastError = parsed.error;
  }
  settings.log?.('model summary invalid; heuristic kept', { generator: gen.type, model: gen.model, tries, error: lastError });
  return { ok: false, error: `${lastError} (after ${formatCount(tries, 'try', 'tries')})`, tries, generator: gen };
}

