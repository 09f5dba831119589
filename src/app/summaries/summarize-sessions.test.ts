import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type Reply } from '../../../test/fakes/model-server.js';
import { defaultOptions, type Options } from '../../config/options-table.js';
import { openSessionMemory, type SessionMemory } from '../memory/api.js';
import { describePlan, planSummaries, summarizeSessions } from './summarize-sessions.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures', 'transcripts');
const VALID = JSON.stringify({ name: 'Hello file listing', description: 'Create hello.txt and list the folder', summary: 'The user asked for hello.txt and a listing; the agent wrote it and ran ls.', tags: ['files'], next: 'Nothing left: the task was finished.' });

let dir: string;
let env: Record<string, string | undefined>;
let server: ModelServer | undefined;
let memory: SessionMemory | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rw-summarize-'));
  const home = join(dir, 'home');
  env = { HOME: home, RECAPWRAP_STATE_DIR: join(dir, 'state'), PATH: process.env.PATH, OPENAI_API_KEY: 'sk-test' };
  const place = (from: string, to: string) => {
    mkdirSync(dirname(join(home, to)), { recursive: true });
    copyFileSync(join(FIXTURES, from), join(home, to));
  };
  place('pi/interactive-2turns.jsonl', '.pi/agent/sessions/--home-dev-proj-pi-tui--/2026-11-23T14-22-08-561Z_01a208c9-20ac-75b4-b286-fdc8465df4a0.jsonl');
  place('codex/interactive-2turns.jsonl', '.codex/sessions/2026/11/23/rollout-2026-11-23T14-24-08-01a208ca-f01c-7592-87e5-609ae9691146.jsonl');
});
afterEach(async () => {
  memory?.close();
  memory = undefined;
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function setUp(script: Reply[], over: Partial<Options> = {}) {
  server = await startModelServer(script);
  const options: Options = { ...defaultOptions(), generator: 'openai', openaiBaseUrl: `${server.url}/v1`, openaiModel: 'gpt-sum', generatorTimeoutSeconds: 5, ...over };
  const opened = await openSessionMemory({ env, options, cwd: dir });
  if ('error' in opened) throw new Error(opened.error);
  memory = opened;
  await memory.refresh();
  return { memory, options };
}

describe('index --summarize', () => {
  it('says how many sessions and which model first, then stores each summary; a second run finds none left', async () => {
    const { memory, options } = await setUp([{ text: VALID }]);
    const plan = planSummaries(memory, options, env);
    expect(plan.sessions).toHaveLength(2);
    expect(describePlan(plan)).toMatch(/^Summarising 2 sessions by model: (1 pi|1 codex) with openai gpt-sum, (1 codex|1 pi) with openai gpt-sum\.$/);
    expect(server!.received).toHaveLength(0);
    const seen: string[] = [];
    const result = await summarizeSessions(memory, plan, options, env, { onEach: (row, outcome) => seen.push(`${row.agent}:${outcome.ok}`) });
    expect(result).toEqual({ summarised: 2, failed: 0, requests: 2 });
    expect(seen.sort()).toEqual(['codex:true', 'pi:true']);
    for (const row of memory.list()) {
      expect(row.generator).toEqual({ type: 'openai', model: 'gpt-sum' });
      expect(row.name).toBe('hello-file-listing');
      expect(memory.card(row.id)?.summary).toMatch(/hello\.txt/);
    }
    const body = server!.received[0]!.body.messages as Array<{ content: string }>;
    expect(body[1]!.content).toMatch(/<<<SESSION[\s\S]*hello\.txt|<<<SESSION[\s\S]*list/);
    expect(planSummaries(memory, options, env).sessions).toHaveLength(0);
  });

  it('never overwrites a name the user gave, and --limit bounds the sessions sent', async () => {
    const { memory, options } = await setUp([{ text: VALID }]);
    const [newest] = memory.list();
    memory.rename(newest!.id, 'my-own-name');
    const plan = planSummaries(memory, options, env, 1);
    expect(plan.sessions.map((r) => r.id)).toEqual([newest!.id]);
    await summarizeSessions(memory, plan, options, env);
    const after = memory.card(newest!.id)!;
    expect(after.name).toBe('my-own-name');
    expect(after.generator.type).toBe('openai');
    expect(server!.received).toHaveLength(1);
  });

  it('keeps the heuristic summary when every answer is invalid (2 calls each)', async () => {
    const { memory, options } = await setUp([{ text: 'not json' }]);
    const before = memory.list().map((r) => [r.id, r.name]);
    const result = await summarizeSessions(memory, planSummaries(memory, options, env), options, env);
    expect(result).toEqual({ summarised: 0, failed: 2, requests: 4 });
    expect(memory.list().map((r) => [r.id, r.name])).toEqual(before);
    expect(memory.list().every((r) => r.generator.type === 'heuristic')).toBe(true);
  });

  it('sends nothing with --no-llm, and says why', async () => {
    const { memory, options } = await setUp([{ text: VALID }], { llm: false });
    const plan = planSummaries(memory, options, env);
    expect(plan.sessions).toHaveLength(0);
    expect(describePlan(plan)).toBe('No session to summarise: model summaries are off (--no-llm or llm: false).');
    expect(await summarizeSessions(memory, plan, options, env)).toEqual({ summarised: 0, failed: 0, requests: 0 });
    expect(server!.received).toHaveLength(0);
  });
});
