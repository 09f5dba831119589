/**
 * HTTP generators: any OpenAI-compatible `/chat/completions` endpoint (OpenAI, Ollama, LM Studio, vLLM,
 * OpenRouter) and Anthropic `/v1/messages`. Streaming off, ≤ 300 output tokens, temperature 0.3. A transport
 * error, an HTTP error or the timeout ends the attempt (no retry: the heuristic is shown instead); an answer
 * that parses but has no `<recap>` tag is asked again, at most twice.
 */
import { buildPrompt, extractRecap, systemPrompt } from '../prompt.js';
import type { RecapContext } from '../context.js';
import type { GeneratorResult } from '../types.js';

export const MAX_OUTPUT_TOKENS = 300;
export const TEMPERATURE = 0.3;
export const MALFORMED_RETRIES = 2;

export interface HttpGeneratorSettings {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  /** The cells the recap is shown in (the prompt states the budget). */
  cells?: number;
}

/** One call's outcome: the model's text, an answer of the wrong shape (worth asking again), or a failure (not). */
/** `unsent`: the call never reached a model (its command could not be started, no key): no call was made. */
export type Attempt = { kind: 'text'; text: string } | { kind: 'malformed'; error: string } | { kind: 'failed'; error: string; unsent?: boolean };

/** What one call sends: the system prompt, the user message and the output budget. */
export interface ModelRequest {
  system: string;
  prompt: string;
  maxTokens?: number;
}

function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

async function postJson(url: string, headers: Record<string, string>, body: unknown, signal: AbortSignal, timeoutMs: number): Promise<{ status: number; json?: unknown; text: string } | { error: string }> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const both = AbortSignal.any([signal, timeout]);
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: both });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  } catch (error) {
    if (signal.aborted) return { error: 'aborted' };
    if (timeout.aborted) return { error: `timed out after ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}` };
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { error: `cannot reach ${new URL(url).host}: ${cause?.code ?? cause?.message ?? (error as Error).message}` };
  }
}

function httpError(status: number, json: unknown, text: string): string {
  const err = (json as { error?: { message?: unknown } | string } | undefined)?.error;
  const message = typeof err === 'string' ? err : typeof err?.message === 'string' ? err.message : text.slice(0, 160);
  return `HTTP ${status}${message ? `: ${message.replace(/\s+/g, ' ').trim()}` : ''}`;
}

async function runAttempts(model: string, signal: AbortSignal, attempt: () => Promise<Attempt>): Promise<GeneratorResult> {
  let lastError = 'no answer';
  for (let i = 0; i <= MALFORMED_RETRIES; i++) {
    if (signal.aborted) return { ok: false, error: 'aborted' };
    const result = await attempt();
    if (result.kind === 'failed') return { ok: false, error: result.error, model };
    if (result.kind === 'text') {
      const recap = extractRecap(result.text);
      if (recap) return { ok: true, text: recap, model };
      lastError = 'the answer had no <recap> tag';
    } else {
      lastError = result.error;
    }
  }
  return { ok: false, error: `${lastError} (after ${MALFORMED_RETRIES + 1} tries)`, model };
}

export async function openaiGenerate(ctx: RecapContext, signal: AbortSignal, settings: HttpGeneratorSettings): Promise<GeneratorResult> {
  const req = { system: systemPrompt(settings.cells), prompt: buildPrompt(ctx, settings.cells) };
  return runAttempts(settings.model, signal, () => openaiAttempt(req, signal, settings));
}

/** One `/chat/completions` call (no retry here: callers decide what is worth asking again). */
export async function openaiAttempt(req: ModelRequest, signal: AbortSignal, settings: HttpGeneratorSettings): Promise<Attempt> {
  const url = joinUrl(settings.baseUrl, '/chat/completions');
  const body = {
    model: settings.model,
    messages: [
      { role: 'system', content: req.system },
      { role: 'user', content: req.prompt },
    ],
    max_tokens: req.maxTokens ?? MAX_OUTPUT_TOKENS,
    temperature: TEMPERATURE,
    stream: false,
  };
  const headers: Record<string, string> = settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {};
  const res = await postJson(url, headers, body, signal, settings.timeoutMs);
  if ('error' in res) return { kind: 'failed', error: res.error };
  if (res.status < 200 || res.status >= 300) return { kind: 'failed', error: httpError(res.status, res.json, res.text) };
  const content = (res.json as { choices?: Array<{ message?: { content?: unknown } }> } | undefined)?.choices?.[0]?.message?.content;
  if (typeof content === 'string') return { kind: 'text', text: content };
  if (Array.isArray(content)) return { kind: 'text', text: content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('') };
  return { kind: 'malformed', error: 'the answer was not a chat completion' };
}

export const ANTHROPIC_VERSION = '2023-06-01';

export async function anthropicGenerate(ctx: RecapContext, signal: AbortSignal, settings: HttpGeneratorSettings): Promise<GeneratorResult> {
  const req = { system: systemPrompt(settings.cells), prompt: buildPrompt(ctx, settings.cells) };
  return runAttempts(settings.model, signal, () => anthropicAttempt(req, signal, settings));
}

/** One `/v1/messages` call (no retry here). */
export async function anthropicAttempt(req: ModelRequest, signal: AbortSignal, settings: HttpGeneratorSettings): Promise<Attempt> {
  const base = settings.baseUrl.replace(/\/+$/, '');
  const url = base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`;
  const body = {
    model: settings.model,
    max_tokens: req.maxTokens ?? MAX_OUTPUT_TOKENS,
    temperature: TEMPERATURE,
    system: req.system,
    messages: [{ role: 'user', content: req.prompt }],
  };
  const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
  if (settings.apiKey) headers['x-api-key'] = settings.apiKey;
  const res = await postJson(url, headers, body, signal, settings.timeoutMs);
  if ('error' in res) return { kind: 'failed', error: res.error };
  if (res.status < 200 || res.status >= 300) return { kind: 'failed', error: httpError(res.status, res.json, res.text) };
  const content = (res.json as { content?: Array<{ type?: string; text?: unknown }> } | undefined)?.content;
  if (!Array.isArray(content)) return { kind: 'malformed', error: 'the answer was not a Messages response' };
  // Only text blocks: thinking blocks are never shown.
  return { kind: 'text', text: content.filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b.text as string).join('') };
}
