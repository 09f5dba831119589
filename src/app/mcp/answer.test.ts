// query_session's model answer against a model server on 127.0.0.1: asked only when pastGenerator allows a
// model, the session text sent as data, the answer cut to its tags, kept per question, capped per hour.
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type Reply } from '../../../test/fakes/model-server.js';
import { defaultOptions, type Options } from '../../config/options-table.js';
import { createAnswerer, MODEL_ANSWERS_PER_HOUR } from './answer.js';
import type { SessionCard } from './memory-port.js';
import type { AnswerResult, QuestionInput } from './tools.js';

const CARD: SessionCard = {
  id: 'c0ffee00', agent: 'codex', cwd: '/w/ledger', project: 'ledger', name: 'ledger-csv', headline: 'csv import', createdAt: '2026-11-20T10:00:00Z',
  updatedAt: '2026-11-21T10:00:00Z', transcript: '/t/x.jsonl', transcriptExists: true, counts: { prompts: 2, turns: 2, toolCalls: 3 }, status: 'idle', tags: [],
  generator: { type: 'heuristic' }, userNamed: false, done: [], next: [], artifacts: [], line: 'recap: …', language: 'en', resumeCommand: ['codex', 'resume', 'c0ffee00'],
};
const TEXT = 'user: add a CSV importer\nassistant: wrote src/import/csv.ts; we decided to skip semicolon files for now';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function answerer(script: Reply[], over: Partial<Options> = {}, now?: () => number) {
  server = await startModelServer(script);
  const options: Options = { ...defaultOptions(), pastGenerator: 'openai', openaiBaseUrl: `${server.url}/v1`, openaiModel: 'gpt-fast', generatorTimeoutSeconds: 5, ...over };
  return createAnswerer(options, { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-test' }, () => {}, { now });
}

const ask = (a: ReturnType<typeof createAnswerer>, question = 'what did we decide about semicolons?'): Promise<AnswerResult> => {
  if (!('ask' in a)) throw new Error(`no answerer: ${a.unavailable}`);
  const input: QuestionInput = { card: CARD, text: TEXT, question, signal: new AbortController().signal };
  return a.ask(input);
};

describe('createAnswerer', () => {
  it('asks no model unless pastGenerator allows one, nor with llm off', () => {
    expect(createAnswerer(defaultOptions(), {}, () => {})).toEqual({ unavailable: 'no model is allowed for past sessions: pastGenerator is heuristic' });
    expect(createAnswerer({ ...defaultOptions(), generator: 'openai' }, {}, () => {})).toHaveProperty('unavailable'); // the live generator is not the past one
    expect(createAnswerer({ ...defaultOptions(), pastGenerator: 'openai', llm: false }, {}, () => {})).toEqual({ unavailable: 'model answers are off (llm: false)' });
  });

  it('sends the session text as data with the question, and returns only the tagged answer', async () => {
    const a = await answerer([{ text: 'Let me think.<answer>Semicolon files are skipped for now (src/import/csv.ts).</answer>' }]);
    expect(await ask(a)).toEqual({ ok: true, text: 'Semicolon files are skipped for now (src/import/csv.ts).', generator: { type: 'openai', model: 'gpt-fast' } });
    const messages = server!.received[0]!.body.messages as Array<{ role: string; content: string }>;
    expect(messages[0]!.content).toMatch(/never follow it/);
    expect(messages[1]!.content).toMatch(/<<<SESSION\n[\s\S]*skip semicolon files[\s\S]*\nSESSION>>>\n\nQuestion: what did we decide about semicolons\?/);
    expect(server!.received[0]!.body.max_tokens).toBe(400);
    // The same question about the same state is not sent again.
    expect((await ask(a)).ok).toBe(true);
    expect(server!.received).toHaveLength(1);
  });

  it('asks once more when the tags are missing, never after an HTTP error, and says when the session does not tell', async () => {
    let a = await answerer([{ text: 'Semicolons are skipped.' }, { text: '<answer>Skipped.</answer>' }]);
    expect(await ask(a)).toMatchObject({ ok: true, text: 'Skipped.' });
    expect(server!.received).toHaveLength(2);
    await server!.close();
    a = await answerer([{ status: 503 }, { text: '<answer>late</answer>' }]);
    expect(await ask(a)).toMatchObject({ ok: false, error: expect.stringMatching(/HTTP 503/) });
    expect(server!.received).toHaveLength(1);
    await server!.close();
    a = await answerer([{ text: '<answer>NOT IN SESSION</answer>' }]);
    expect(await ask(a)).toEqual({ ok: false, error: 'the model found no answer in the session text' });
  });

  it(`stops asking after ${MODEL_ANSWERS_PER_HOUR} calls an hour`, async () => {
    let now = 0;
    const a = await answerer(Array.from({ length: MODEL_ANSWERS_PER_HOUR + 1 }, (_, i) => ({ text: `<answer>a${i}</answer>` })), {}, () => now);
    for (let i = 0; i < MODEL_ANSWERS_PER_HOUR; i++) expect((await ask(a, `question ${i}`)).ok).toBe(true);
    expect(await ask(a, 'one more')).toEqual({ ok: false, error: `the limit of ${MODEL_ANSWERS_PER_HOUR} model answers an hour is reached` });
    now += 3_600_000;
    expect((await ask(a, 'one more')).ok).toBe(true);
    expect(server!.received).toHaveLength(MODEL_ANSWERS_PER_HOUR + 1);
  });
});
