import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type Reply } from '../../../test/fakes/model-server.js';
import { defaultOptions, type Options } from '../../config/options-table.js';
import { reachableSummaryModel, runModelSummary, SUMMARY_MAX_CALLS, summaryModel, summarySettings } from './model-summary.js';

const VALID = JSON.stringify({ name: 'Ledger CSV import', description: 'Import bank CSV files into the ledger', summary: 'The user asked for a CSV importer. The agent wrote src/import/csv.ts and the tests pass.', tags: ['csv', 'ledger'], next: 'Handle the semicolon-separated exports.' });
const CONDENSED = 'user: add a CSV importer for the ledger\nassistant: wrote src/import/csv.ts\n$ npm test -> 12 passed';
const target = { agent: 'codex' as const, condensed: CONDENSED, project: 'ledger' };

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function withServer(script: Reply[], over: Partial<Options> = {}) {
  server = await startModelServer(script);
  const options: Options = { ...defaultOptions(), generator: 'openai', openaiBaseUrl: `${server.url}/v1`, openaiModel: 'gpt-sum', anthropicBaseUrl: server.url, generatorTimeoutSeconds: 5, ...over };
  return summarySettings(options, { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'ak-test' }, 'codex');
}

describe('runModelSummary against a model server on 127.0.0.1', () => {
  it('returns the checked summary of a valid answer after one request, the session text sent as data', async () => {
    const settings = await withServer([{ text: `\`\`\`json\n${VALID}\n\`\`\`` }]);
    const out = await runModelSummary(settings, target);
    expect(out).toMatchObject({ ok: true, tries: 1, generator: { type: 'openai', model: 'gpt-sum' } });
    expect(out.ok && out.summary.name).toBe('ledger-csv-import');
    expect(server!.received).toHaveLength(1);
    const messages = server!.received[0]!.body.messages as Array<{ role: string; content: string }>;
    expect(messages[0]!.content).toMatch(/never follow it/);
    expect(messages[1]!.content).toMatch(/<<<SESSION\n[\s\S]*src\/import\/csv\.ts[\s\S]*\nSESSION>>>/);
  });

  it('asks again after an invalid answer and counts the tries', async () => {
    const settings = await withServer([{ text: 'Sure! The session was about CSV.' }, { text: VALID }]);
    const out = await runModelSummary(settings, target);
    expect(out).toMatchObject({ ok: true, tries: 2 });
    expect(server!.received).toHaveLength(2);
  });

  it('gives up after 2 calls when every answer is invalid (placeholders, no JSON, garbage), each call logged with its purpose', async () => {
    const placeholder = JSON.stringify({ name: '<name>', description: '...', summary: '', tags: [], next: 'TODO' });
    const settings = await withServer([{ text: placeholder }, { text: 'no json here' }, { raw: 'not a completion' }, { text: VALID }]);
    const logged: Array<{ message: string; data?: Record<string, unknown> }> = [];
    const out = await runModelSummary({ ...settings, log: (message, data) => logged.push({ message, data }) }, { ...target, session: 'sess-42' });
    expect(out.ok).toBe(false);
    expect(out.tries).toBe(SUMMARY_MAX_CALLS);
    expect(SUMMARY_MAX_CALLS).toBe(2);
    expect(!out.ok && out.error).toMatch(/after 2 tries/);
    expect(server!.received).toHaveLength(2);
    const calls = logged.filter((l) => l.message === 'model call');
    expect(calls.map((c) => c.data?.purpose)).toEqual(['summary of codex session sess-42, call 1 of at most 2', 'summary of codex session sess-42, call 2 of at most 2']);
    expect(calls[0]?.data).toMatchObject({ generator: 'openai', model: 'gpt-sum' });
    expect(JSON.stringify(logged)).not.toContain('CSV importer'); // the purpose, never the text
  });

  it('does not retry a transport error or an HTTP error', async () => {
    let settings = await withServer([{ hangUp: true }, { text: VALID }]);
    let out = await runModelSummary(settings, target);
    expect(out).toMatchObject({ ok: false, tries: 1 });
    expect(server!.received).toHaveLength(1);
    await server!.close();
    settings = await withServer([{ status: 503 }, { text: VALID }]);
    out = await runModelSummary(settings, target);
    expect(out).toMatchObject({ ok: false, tries: 1 });
    expect(!out.ok && out.error).toMatch(/HTTP 503/);
    expect(server!.received).toHaveLength(1);
  });

  it('sends nothing with llm off (--no-llm), nor with the heuristic generator', async () => {
    for (const over of [{ llm: false }, { generator: 'heuristic' }, { generator: 'auto', llm: false }] as Partial<Options>[]) {
      const settings = await withServer([{ text: VALID }], over);
      const out = await runModelSummary(settings, target);
      expect(out).toMatchObject({ ok: false, tries: 0 });
      expect(server!.received).toHaveLength(0);
      await server!.close();
      server = undefined;
    }
  });

  it('uses the Anthropic Messages API when chosen, reading only its text blocks', async () => {
    const settings = await withServer([{ text: VALID }], { generator: 'anthropic', anthropicModel: 'claude-sum' });
    const out = await runModelSummary(settings, target);
    expect(out).toMatchObject({ ok: true, tries: 1, generator: { type: 'anthropic', model: 'claude-sum' } });
    expect(server!.received[0]!.path).toBe('/v1/messages');
  });
});

describe('summaryModel', () => {
  it("names the agent's one-off model under auto, and says why nothing is asked otherwise", () => {
    const env = { PATH: '' };
    const auto = summaryModel(summarySettings({ ...defaultOptions(), generator: 'auto' }, env, 'claude'));
    expect(auto).toMatchObject({ type: 'agent' });
    expect('model' in auto && auto.model).toMatch(/^claude /);
    expect(summaryModel(summarySettings({ ...defaultOptions(), llm: false }, env, 'claude'))).toEqual({ off: 'model summaries are off (--no-llm or llm: false)' });
  });
});

// `index --summarize` with pi not installed said "2 model calls" when none was made (#small item 3).
describe('bug-regression: an agent CLI that is not on PATH', () => {
  it('is no model call: its failure counts 0 tries', async () => {
    const settings = summarySettings({ ...defaultOptions(), generator: 'agent' }, { PATH: '/nonexistent-rw-test' }, 'pi');
    const out = await runModelSummary(settings, { ...target, agent: 'pi' });
    expect(out).toMatchObject({ ok: false, tries: 0, error: 'pi is not on PATH' });
  });

  it('is said before anything is tried: no reachable model', () => {
    const env = { PATH: '/nonexistent-rw-test' };
    const settings = summarySettings({ ...defaultOptions(), generator: 'auto' }, env, 'pi');
    expect(summaryModel(settings)).toMatchObject({ type: 'agent' });
    expect(reachableSummaryModel(settings, '/')).toEqual({ off: "pi is not on PATH (its own CLI writes its sessions' summaries; or choose --generator openai or anthropic)" });
    // Installed: the model as before.
    const bin = mkdtempSync(join(tmpdir(), 'rw-path-'));
    try {
      writeFileSync(join(bin, 'pi'), '#!/bin/sh\n', { mode: 0o755 });
      expect(reachableSummaryModel(summarySettings({ ...defaultOptions(), generator: 'auto' }, { PATH: bin }, 'pi'), '/')).toEqual(summaryModel(settings));
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
