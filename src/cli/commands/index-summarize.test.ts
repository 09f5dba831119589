import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { layOutSession } from '../../../test/helpers/agent-homes.js';
import { startModelServer, type ModelServer, type Reply } from '../../../test/fakes/model-server.js';
import { tellApart } from './index-summarize.js';
import { runMemoryCommand, type MemoryCliOptions } from './memory-run.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures', 'transcripts');
const VALID = JSON.stringify({ name: 'Hello listing', description: 'Write hello.txt and list the folder', summary: 'The user asked for hello.txt and a listing; the agent wrote it and ran ls twice.', tags: ['files', 'shell'], next: 'Nothing left: the task was finished.' });

let dir: string;
let server: ModelServer;
let said: string[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rw-index-summarize-'));
  await layOutSession(join(dir, 'home'), 'pi', join(FIXTURES, 'pi', 'interactive-2turns.jsonl'));
  await layOutSession(join(dir, 'home'), 'claude', join(FIXTURES, 'claude', 'interactive-2turns.jsonl'));
  said = [];
});
afterEach(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function index(script: Reply[], options: MemoryCliOptions, extraEnv: Record<string, string> = {}) {
  server ??= await startModelServer(script);
  const env = { HOME: join(dir, 'home'), RECAPWRAP_STATE_DIR: join(dir, 'state'), PATH: process.env.PATH, RECAPWRAP_GENERATOR: 'openai', RECAPWRAP_OPENAI_BASE_URL: `${server.url}/v1`, RECAPWRAP_OPENAI_MODEL: 'gpt-sum', OPENAI_API_KEY: 'sk-test', ...extraEnv };
  const log = (text: string) => said.push(`${text.trim()} [requests so far: ${server.received.length}]`);
  return runMemoryCommand('index', [], options, { env, cwd: dir, now: Date.now(), columns: Number.POSITIVE_INFINITY, color: false, log });
}

describe('recapwrap index --summarize', () => {
  it('says how many sessions and which model before sending anything, then summarises them (--json)', async () => {
    server = await startModelServer([{ text: VALID }]);
    const r = await index([], { summarize: true, json: true });
    expect(r.code).toBe(0);
    // The plan comes first, before any request: the count and the model per agent.
    expect(said[0]).toMatch(/^Summarising 2 sessions by model: 1 (claude|pi) with openai gpt-sum, 1 (claude|pi) with openai gpt-sum\. \[requests so far: 0\]$/);
    expect(said.slice(1).map((l) => l.replace(/^\[\d\/2\] (claude|pi) /, '').replace(/ \[requests.*/, ''))).toEqual(['hello-listing: summarised', 'hello-listing: summarised']);
    const out = JSON.parse(r.out) as { summarised: number; failed: number; requests: number; sessions: Array<{ name: string; ok: boolean }> };
    expect(out).toMatchObject({ summarised: 2, failed: 0, requests: 2 });
    // Names are unique per folder; these two sessions are in different folders.
    expect(out.sessions.map((s) => s.name)).toEqual(['hello-listing', 'hello-listing']);
    // Nothing is left to summarise: a second run sends nothing.
    const again = await index([], { summarize: true });
    expect(again.code).toBe(0);
    expect(server.received).toHaveLength(2);
    expect(again.out).toBe('No session to summarise: none in the index has only a heuristic summary.\n');
  });

  it('keeps the heuristic summary after 2 invalid answers (the bound), and exits 1', async () => {
    server = await startModelServer([{ text: '```json\n{"name": "", "summary": "..."}\n```' }]);
    const r = await index([], { summarize: true, limit: '1' });
    expect(r.code).toBe(1);
    expect(server.received).toHaveLength(2);
    expect(r.out).toMatch(/^summarised 0 of 1 session \(1 kept the heuristic summary; 2 model calls\)/);
    expect(said.join('\n')).toMatch(/kept the heuristic summary \(Expected "name" to say something/);
    const shown = await runMemoryCommand('sessions', [], { json: true }, { env: { HOME: join(dir, 'home'), RECAPWRAP_STATE_DIR: join(dir, 'state') }, cwd: dir, now: Date.now(), columns: Number.POSITIVE_INFINITY, color: false });
    expect((JSON.parse(shown.out) as Array<{ generator: { type: string } }>).every((s) => s.generator.type === 'heuristic')).toBe(true);
  });

  it('does not retry a transport error', async () => {
    server = await startModelServer([{ hangUp: true }]);
    const r = await index([], { summarize: true, session: 'hello', limit: undefined }, {});
    // `hello` is no session's name yet: a clear error, nothing sent.
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no session matches "hello"/);
    const all = await index([], { summarize: true });
    expect(all.code).toBe(1);
    expect(server.received).toHaveLength(2); // one call per session, no retry
  });

  it('refuses --limit or --session without --summarize (usage error, exit 2)', async () => {
    server = await startModelServer([{ text: VALID }]);
    const r = await index([], { limit: '3' });
    expect(r).toEqual({ out: '', err: 'recapwrap: --limit and --session go with --summarize\n', code: 2 });
    expect(server.received).toHaveLength(0);
  });

  it('sends nothing with --no-llm (the server sees zero requests) and says why', async () => {
    server = await startModelServer([{ text: VALID }]);
    const r = await index([], { summarize: true, llm: false });
    expect(r.code).toBe(1);
    expect(r.err).toBe('recapwrap: No session to summarise: model summaries are off (--no-llm or llm: false).\n');
    expect(server.received).toHaveLength(0);
    // Nor with llm off in the environment (a config value works the same).
    expect((await index([], { summarize: true }, { RECAPWRAP_LLM: '0' })).code).toBe(1);
    expect(server.received).toHaveLength(0);
  });

  // With pi not installed a new user read "Summarising 2 sessions by model: 2 pi with pi default (its own
  // CLI)", then each failing, then "2 model calls" and exit 1 (#small item 3).
  it('bug-regression: an agent CLI not on PATH is said once, up front; no call is announced or counted', async () => {
    server = await startModelServer([{ text: VALID }]);
    const empty = join(dir, 'empty-bin');
    mkdirSync(empty);
    const r = await index([], { summarize: true, limit: '2' }, { RECAPWRAP_GENERATOR: 'agent', PATH: empty });
    expect(said).toEqual([]);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^recapwrap: No session to summarise: (pi|claude) is not on PATH \(its own CLI writes its sessions' summaries; or choose --generator openai or anthropic\); (claude|pi) is not on PATH \(.*\)\.\n$/);
    // Exit 1: nothing asked for can be done (a script learns the setup is wrong), as with --no-llm.
    expect(r.code).toBe(1);
    const json = await index([], { summarize: true, json: true }, { RECAPWRAP_GENERATOR: 'agent', PATH: empty });
    expect(JSON.parse(json.out)).toMatchObject({ summarised: 0, failed: 0, requests: 0 });
    expect(json.code).toBe(1);
  });

  it('never overwrites a name the user gave', async () => {
    server = await startModelServer([{ text: VALID }]);
    const env = { HOME: join(dir, 'home'), RECAPWRAP_STATE_DIR: join(dir, 'state') };
    const deps = { env, cwd: dir, now: Date.now(), columns: Number.POSITIVE_INFINITY, color: false };
    const list = JSON.parse((await runMemoryCommand('sessions', [], { json: true }, deps)).out) as Array<{ id: string }>;
    expect((await runMemoryCommand('name', [list[0]!.id, 'my-pick'], {}, deps)).code).toBe(0);
    expect((await index([], { summarize: true, session: 'my-pick' })).code).toBe(0);
    const card = JSON.parse((await runMemoryCommand('show', ['my-pick'], { json: true }, deps)).out) as { name: string; summary: string; generator: { type: string } };
    expect(card).toMatchObject({ name: 'my-pick', generator: { type: 'openai' } });
    expect(card.summary).toMatch(/hello\.txt/);
    // The state folder holds the summary in the index only.
    expect(readdirSync(join(dir, 'state')).filter((f) => statSync(join(dir, 'state', f)).isFile()).some((f) => readFileSync(join(dir, 'state', f)).includes('my-pick'))).toBe(true);
  });
});

describe('index --summarize progress lines', () => {
  // Two demos make two sessions of one name: `[1/2] pi myproj-fix-failing-test … [2/2] pi myproj-fix-failing-test` told nothing apart.
  it('tell sessions of one name apart by an id prefix and their folder; other names get nothing', () => {
    const rows = [
      { id: '01a221a4-f374-70e1', name: 'myproj-fix-failing-test', cwd: '/tmp/recapwrap-demo-a/myproj' },
      { id: '01a221a4-e000-70e1', name: 'myproj-fix-failing-test', cwd: '/home/u/x/myproj' },
      { id: '01a221a4-d000-70e1', name: 'other', cwd: '/tmp/o' },
    ];
    const told = tellApart(rows, '/home/u');
    expect([...told.entries()]).toEqual([
      ['01a221a4-f374-70e1', ' (01a221a4-f, /tmp/recapwrap-demo-a/myproj)'],
      ['01a221a4-e000-70e1', ' (01a221a4-e, ~/x/myproj)'],
    ]);
  });
});
