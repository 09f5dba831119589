/**
 * query_session's model answer, only when the user allowed a model for past sessions (`pastGenerator`,
 * the setting `recap --session` uses; `llm: false` sends nothing). Cost-gated like recaps: the question
 * and the session's text cut to a budget, one call (asked again once if the answer has no tags, never
 * after a transport error), an answer kept per (session state, question), at most a few calls an hour.
 */
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import { withPastGenerator } from '../../config/past-generator.js';
import type { Attempt, ModelRequest } from '../../recap/providers/http.js';
import { buildQuestionPrompt, extractAnswer, QUESTION_MAX_OUTPUT_TOKENS, QUESTION_SYSTEM_PROMPT } from '../../recap/question-prompt.js';
import { sanitizeBlock } from '../../util/sanitize.js';
import { callOnce, summaryModel, summarySettings } from '../summaries/model-summary.js';
import type { McpLog } from './server.js';
import type { AnswerResult, QuestionInput, ToolContext } from './tools.js';

/** At most this many model calls per server process per hour; past it, questions get excerpts. */
export const MODEL_ANSWERS_PER_HOUR = 20;
const HOUR_MS = 3_600_000;
const CACHE_MAX = 200;

export interface AnswererDeps {
  now?: () => number;
  /** One model call (tests inject a fake transport here; the default is the generator's own). */
  call?: typeof callOnce;
}

/** The answerer for `recapwrap mcp`, or why no model is asked. */
export function createAnswerer(options: Options, env: Env, log: McpLog, deps: AnswererDeps = {}): ToolContext['answerer'] {
  const past = withPastGenerator(options);
  if (!past.llm) return { unavailable: 'model answers are off (llm: false)' };
  if (past.generator === 'heuristic') return { unavailable: 'no model is allowed for past sessions: pastGenerator is heuristic' };
  const now = deps.now ?? Date.now;
  const call = deps.call ?? callOnce;
  const cache = new Map<string, AnswerResult>();
  let calls: number[] = [];

  return {
    async ask(input: QuestionInput): Promise<AnswerResult> {
      const { card, question } = input;
      const key = `${card.id}\0${card.updatedAt}\0${question}`;
      const cached = cache.get(key);
      if (cached) return cached;
      const settings = summarySettings(past, env, card.agent);
      const gen = summaryModel(settings);
      if ('off' in gen) return { ok: false, error: gen.off };
      if (!input.text.trim()) return { ok: false, error: 'the session has no text to ask about' };
      calls = calls.filter((t) => now() - t < HOUR_MS);
      if (calls.length >= MODEL_ANSWERS_PER_HOUR) return { ok: false, error: `the limit of ${MODEL_ANSWERS_PER_HOUR} model answers an hour is reached` };
      const req: ModelRequest = {
        system: QUESTION_SYSTEM_PROMPT,
        prompt: buildQuestionPrompt({ question, text: input.text, agent: card.agent, name: card.name, folder: card.cwd, updatedAt: card.updatedAt }),
        maxTokens: QUESTION_MAX_OUTPUT_TOKENS,
      };
      const started = now();
      let result: AnswerResult = { ok: false, error: 'no answer' };
      // One more try only when the answer came without its tags; a failed call is not repeated.
      for (let attempt = 0; attempt < 2; attempt++) {
        calls.push(now());
        const out = await call(settings, gen, req, input.signal, `answer to query_session about ${card.agent} session ${card.id}`).catch((error: Error): Attempt => ({ kind: 'failed', error: error.message }));
        if (out.kind !== 'text') {
          result = { ok: false, error: out.error };
          if (out.kind === 'failed') break;
          continue;
        }
        const answer = extractAnswer(out.text);
        if ('text' in answer) {
          result = { ok: true, text: sanitizeBlock(answer.text), generator: { type: gen.type, model: gen.model } };
          break;
        }
        result = { ok: false, error: answer.none === 'not-in-session' ? 'the model found no answer in the session text' : 'the answer had no <answer> tag' };
        if (answer.none === 'not-in-session') break;
      }
      // Durations and outcomes go to the debug log, never the text.
      log('model answer', { generator: gen.type, model: gen.model, ms: now() - started, ok: result.ok });
      if (result.ok || /no answer in the session/.test(result.error)) {
        cache.set(key, result);
        if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value as string);
      }
      return result;
    },
  };
}
