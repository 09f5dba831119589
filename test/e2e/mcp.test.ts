// `recapwrap mcp` as an agent meets it (#26): the SDK's own client over stdio against the built CLI, on a
// temp home with real session files laid out where each agent keeps them (the project's fixtures; the
// third-party corpus when ../shared is here). Every tool, wrong arguments, an unknown session, a
// malformed line written raw to stdin, stdout carrying JSON-RPC only, and exit when stdin closes.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layOutFolder, layOutSession, wordOnlyALaterPromptHas, type LaidOut } from '../helpers/agent-homes.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { startModelServer } from '../fakes/model-server.js';
import { pollUntil } from '../helpers/poll.js';
import { corpusPresent, RECAP_CORPUS_DIR, TRANSCRIPTS_DIR } from '../helpers/shared.js';

interface Listed { name: string; id: string; agent: string; folder: string; headline: string; snippet?: string }

const roots: string[] = [];
function tempHome(): { home: string; env: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), 'rw-mcp-'));
  roots.push(root);
  const home = join(root, 'home');
  mkdirSync(home);
  // No model for past sessions (the default): query_session answers with excerpts.
  return { home, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, RECAPWRAP_STATE_DIR: join(root, 'state'), TERM: 'dumb' } };
}

interface Connected {
  client: Client;
  /** Errors the client saw on the wire (a stdout line that is not JSON-RPC lands here). */
  wireErrors: Error[];
  stderr: () => string;
  initializeMs: number;
}

async function connect(env: Record<string, string>, cwd?: string): Promise<Connected> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, 'mcp'], env, cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'recapwrap-e2e', version: '1.0.0' });
  const wireErrors: Error[] = [];
  client.onerror = (error) => wireErrors.push(error);
  const started = performance.now();
  await client.connect(transport);
  return { client, wireErrors, stderr: () => stderr, initializeMs: performance.now() - started };
}

function text(result: unknown): string {
  const content = (result as CallToolResult).content;
  expect(content[0]?.type).toBe('text');
  return (content[0] as { text: string }).text;
}
async function call<T>(c: Connected, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await c.client.callTool({ name, arguments: args });
  expect(result.isError, `${name} ${JSON.stringify(args)}: ${text(result)}`).toBeFalsy();
  return JSON.parse(text(result)) as T;
}
async function callError(c: Connected, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await c.client.callTool({ name, arguments: args });
  expect(result.isError, `${name} ${JSON.stringify(args)} should fail: ${text(result)}`).toBe(true);
  return text(result);
}

beforeAll(() => assertBuilt());
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe('recapwrap mcp on the project fixtures', () => {
  let env: Record<string, string>;
  let laid: LaidOut[];
  let marked: LaidOut;
  let c: Connected;

  beforeAll(async () => {
    const t = tempHome();
    env = t.env;
    laid = [];
    for (const agent of ['pi', 'qwen', 'claude', 'codex', 'gemini'] as const) laid.push(await layOutSession(t.home, agent, join(TRANSCRIPTS_DIR, agent, 'interactive-2turns.jsonl')));
    // One more Claude session whose later prompt alone has the words a user would ask about.
    const src = join(t.home, '..', 'marked.jsonl');
    writeFileSync(src, readFileSync(join(TRANSCRIPTS_DIR, 'claude', 'print-2turns.jsonl'), 'utf8').replaceAll('Please list them again', 'Please list them again and check the quartermaster ledger totals'));
    marked = await layOutSession(t.home, 'claude', src);
    laid.push(marked);
    c = await connect(env);
  });
  afterAll(async () => {
    await c?.client.close();
  });

  it('answers initialize and lists the five tools, each saying when to use it', async () => {
    process.stdout.write(`recapwrap mcp: initialize answered in ${c.initializeMs.toFixed(0)} ms (process start included; shared machine)\n`);
    expect(c.client.getServerVersion()).toMatchObject({ name: 'recapwrap' });
    const { tools } = await c.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_session', 'list_sessions', 'query_session', 'read_session', 'search_sessions']);
    for (const tool of tools) expect(tool.description, tool.name).toMatch(/earlier session|another pane|recent work/);
    expect(tools.find((t) => t.name === 'get_session')?.description).toContain('@@name');
    expect(tools.find((t) => t.name === 'search_sessions')?.inputSchema.required).toEqual(['query']);
  });

  it('list_sessions lists every session laid out, and filters by agent', async () => {
    const all = await call<{ count: number; sessions: Listed[] }>(c, 'list_sessions', {});
    expect(all.count).toBe(laid.length);
    expect(all.sessions.map((s) => s.id).sort()).toEqual(laid.map((l) => l.id).sort());
    for (const s of all.sessions) expect(s.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const claude = await call<{ sessions: Listed[] }>(c, 'list_sessions', { agent: 'claude', limit: 5 });
    expect(claude.sessions.map((s) => s.agent)).toEqual(['claude', 'claude']);
    const recent = await call<{ count: number }>(c, 'list_sessions', { since: '1w' });
    expect(recent.count).toBeLessThanOrEqual(laid.length);
  });

  it('search_sessions finds a session by words of its later prompt; get_session and query_session take its name, @@name or id prefix', async () => {
    const found = await call<{ sessions: Listed[] }>(c, 'search_sessions', { query: 'quartermaster ledger' });
    expect(found.sessions[0]?.id).toBe(marked.id);
    expect(found.sessions[0]?.snippet).toMatch(/quartermaster/i);
    const name = found.sessions[0]?.name as string;

    const card = await call<{ id: string; resumeCommand: string[]; transcript: string; next: string[]; done: string[] }>(c, 'get_session', { session: `@@${name}` });
    expect(card).toMatchObject({ id: marked.id, transcript: marked.file });
    expect(card.resumeCommand[0]).toBe('claude');
    expect(card.resumeCommand).toContain(marked.id);
    expect((await call<{ id: string }>(c, 'get_session', { session: marked.id.slice(0, 8) })).id).toBe(marked.id);

    const asked = await call<{ kind: string; note: string; excerpts: string[]; session: { id: string } }>(c, 'query_session', { session: name, question: 'which ledger did we check?' });
    expect(asked.kind).toBe('excerpts');
    expect(asked.session.id).toBe(marked.id);
    expect(asked.note).toMatch(/^These are excerpts of the session, not an answer/);
    expect(asked.excerpts.join('\n')).toContain('quartermaster ledger');
  });

  // A new user's search_sessions snippets read "add a \ue000deadline\ue001 to…": the index's private
  // highlight markers reached the calling model. No tool's output may carry them.
  it('bug-regression: no tool result carries the index\'s highlight markers (U+E000/U+E001)', async () => {
    const raw = async (name: string, args: Record<string, unknown>) => {
      const result = await c.client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${text(result)}`).toBeFalsy();
      return text(result);
    };
    const found = await raw('search_sessions', { query: 'quartermaster ledger' });
    expect(JSON.parse(found).sessions[0].snippet).toMatch(/quartermaster ledger/);
    const outputs = [
      found,
      await raw('list_sessions', {}),
      await raw('get_session', { session: marked.id }),
      await raw('query_session', { session: marked.id, question: 'quartermaster ledger' }),
      await raw('read_session', { session: marked.id, around: 'quartermaster' }),
    ];
    for (const out of outputs) expect(out).not.toMatch(/[\uE000\uE001]|\\ue00[01]/i);
  });

  it('query_session answers with the fast model when the user allowed one for past sessions (pastGenerator)', async () => {
    const model = await startModelServer([{ text: '<answer>The quartermaster ledger totals were checked.</answer>' }]);
    const withModel = await connect({ ...env, RECAPWRAP_PAST_GENERATOR: 'openai', RECAPWRAP_OPENAI_BASE_URL: `${model.url}/v1`, RECAPWRAP_OPENAI_MODEL: 'fast-model', OPENAI_API_KEY: 'sk-test' });
    try {
      const asked = await call<{ kind: string; answer: string; generator: unknown }>(withModel, 'query_session', { session: marked.id, question: 'which ledger did we check?' });
      expect(asked).toMatchObject({ kind: 'answer', answer: 'The quartermaster ledger totals were checked.', generator: { type: 'openai', model: 'fast-model' } });
      expect(model.received).toHaveLength(1);
      expect(JSON.stringify(model.received[0]?.body)).toContain('quartermaster ledger');
    } finally {
      await withModel.client.close();
      await model.close();
    }
  });

  it('turns wrong arguments, an unknown tool and an unknown session into tool errors, and keeps serving', async () => {
    expect(await callError(c, 'list_sessions', { limit: 'many' })).toContain('Expected `limit` to be a whole number from 1 to 100, got `"many"`');
    expect(await callError(c, 'list_sessions', { agent: 'vim' })).toContain('Expected `agent` to be one of pi, qwen, claude, codex, gemini, got `"vim"`');
    expect(await callError(c, 'list_sessions', { since: 'last week' })).toContain('Expected `since` to be an age like 30m');
    expect(await callError(c, 'search_sessions', {})).toContain('Expected `query` to be some words to look for, got `nothing`');
    expect(await callError(c, 'get_session', { session: 42 })).toContain('Expected `session` to be an id');
    expect(await callError(c, 'query_session', { session: laid[0]?.id })).toContain('Expected `question`');
    expect(await callError(c, 'get_session', { session: 'no-such-session-anywhere' })).toMatch(/^No session matches "no-such-session-anywhere"/);
    expect(await callError(c, 'query_session', { session: '@@nothing-named-so', question: 'what?' })).toMatch(/^No session matches "@@nothing-named-so"/);
    expect(await callError(c, 'drop_tables', {})).toMatch(/drop_tables not found/);
    expect((await call<{ count: number }>(c, 'list_sessions', { limit: 1 })).count).toBe(1);
    expect(c.wireErrors).toEqual([]);
    expect(c.stderr()).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('recapwrap mcp on the raw wire', () => {
  it('ignores a malformed line, answers the rest, writes only JSON-RPC to stdout, and exits when stdin closes', async () => {
    const { env } = tempHome();
    const child = spawn(process.execPath, [CLI_BIN, 'mcp'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('exit', (code, signal) => (exit = { code, signal }));
    const send = (line: string) => child.stdin.write(line + '\n');
    const responses = () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { jsonrpc: string; id?: unknown; result?: unknown; error?: unknown });
    send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    await pollUntil(() => responses().some((r) => r.id === 1), { description: 'the initialize response' });
    send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    send('this line is not JSON {');
    send('{"jsonrpc":"2.0","id":');
    send(JSON.stringify({ not: 'json-rpc' }));
    send(JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'list_sessions', arguments: { limit: -3 } } }));
    send(JSON.stringify({ jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'get_session', arguments: { session: 'nope' } } }));
    send(JSON.stringify({ jsonrpc: '2.0', id: 'c', method: 'no/such/method' }));
    send(JSON.stringify({ jsonrpc: '2.0', id: 'd', method: 'tools/call', params: { name: 'list_sessions', arguments: {} } }));
    // Closed at once: what was read is still answered, then the server exits on its own.
    child.stdin.end();
    await pollUntil(() => exit, { description: 'the server to exit after stdin closed' });
    expect(exit).toEqual({ code: 0, signal: null });

    // Every byte of stdout is JSON-RPC (responses() parsed every line), one answer per request.
    const all = responses();
    expect(out.endsWith('\n')).toBe(true);
    for (const r of all) expect(r.jsonrpc).toBe('2.0');
    expect(all.map((r) => String(r.id)).sort()).toEqual(['1', 'a', 'b', 'c', 'd']); // answers may come in any order
    const byId = new Map(all.map((r) => [r.id, r]));
    expect(byId.get('a')?.result).toMatchObject({ isError: true });
    expect(byId.get('b')?.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/^No session matches "nope"/) }] });
    expect(byId.get('c')?.error).toMatchObject({ code: -32601 });
    expect(byId.get('d')?.result).toMatchObject({ content: [{ type: 'text', text: expect.stringContaining('"count": 0') }] });
    expect(err).toContain('recapwrap mcp: ignored a line that is not JSON');
    expect(err).not.toContain('this line is not JSON'); // what was sent is not echoed into logs
  });
});

describe.skipIf(!corpusPresent)('recapwrap mcp on the third-party corpus laid out in the agents\' homes', () => {
  let laid: LaidOut[];
  let c: Connected;

  beforeAll(async () => {
    const t = tempHome();
    laid = await layOutFolder(t.home, RECAP_CORPUS_DIR);
    c = await connect(t.env);
  });
  afterAll(async () => {
    await c?.client.close();
  });

  it('lists every session, finds one by a word deep inside it, and shows and queries it', async () => {
    process.stdout.write(`recapwrap mcp (corpus, ${laid.length} sessions): initialize answered in ${c.initializeMs.toFixed(0)} ms\n`);
    const all = await call<{ count: number; sessions: Listed[] }>(c, 'list_sessions', { limit: 100 });
    expect(all.count).toBe(laid.length);
    expect(new Set(all.sessions.map((s) => s.agent))).toEqual(new Set(['pi', 'qwen', 'claude', 'codex', 'gemini']));

    // A word that only a later prompt of one session has.
    const probe = await wordOnlyALaterPromptHas(laid);
    expect(probe, 'a session with a word of its own in a later prompt').toBeDefined();
    const { word, laid: target } = probe as { word: string; laid: LaidOut };
    const found = await call<{ sessions: Listed[] }>(c, 'search_sessions', { query: word, limit: 5 });
    expect(found.sessions.slice(0, 3).map((s) => s.id)).toContain(target.id);
    const card = await call<{ id: string; transcript: string; agent: string }>(c, 'get_session', { session: target.id });
    expect(card).toMatchObject({ id: target.id, transcript: target.file, agent: target.agent });
    const asked = await call<{ kind: string; excerpts: string[] }>(c, 'query_session', { session: target.id, question: word });
    expect(asked.kind).toBe('excerpts');
    expect(asked.excerpts.join('\n').toLowerCase()).toContain(word);
    expect(c.wireErrors).toEqual([]);
  });
});

describe('recapwrap mcp read_session (#41)', () => {
  let c: Connected;
  let session: LaidOut;
  // Its /compact is a command, not a prompt (not numbered, not counted).
  const PROMPTS = 4;

  beforeAll(async () => {
    const t = tempHome();
    session = await layOutSession(t.home, 'claude', join(TRANSCRIPTS_DIR, 'claude', 'reader', 'compact-subagent', '41e0c0de-0000-4000-8000-00000000c1a0.jsonl'));
    c = await connect(t.env);
  });
  afterAll(async () => {
    await c?.client.close();
  });

  interface Page { text: string; prompts: number; turns?: { first: number; last: number }; from?: string; next?: { from: string; turn: number }; end?: boolean; matched?: { message: string; turn: number; allWords: boolean }; session: { id: string } }

  it('pages through the whole session: the header first, whole messages, each page within maxChars, next.from to go on', async () => {
    const pages: Page[] = [];
    let args: Record<string, unknown> = { session: session.id.slice(0, 8), maxChars: 1000 };
    for (let i = 0; i < 50; i++) {
      const page = await call<Page>(c, 'read_session', args);
      pages.push(page);
      if (!page.next) break;
      args = { session: session.id, maxChars: 1000, from: page.next.from };
    }
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.at(-1)?.end).toBe(true);
    expect(pages[0]?.session.id).toBe(session.id);
    expect(pages[0]?.text).toMatch(/^# .+\n\n\| \| \|\n\|---\|---\|\n\| Agent \| claude \|/);
    expect(pages[1]?.text).not.toContain('| Agent |');
    for (const page of pages) expect(page.text.length).toBeLessThanOrEqual(1000);
    const all = pages.map((p) => p.text).join('\n\n');
    const headings = [...all.matchAll(/^## Prompt (\d+)\/(\d+)/gm)].map((m) => `${m[1]}/${m[2]}`);
    expect(headings).toEqual(Array.from({ length: PROMPTS }, (_, i) => `${i + 1}/${PROMPTS}`));
    expect(all).toContain('```diff');
  });

  it('starts at prompt `turn`, or at the first message holding the words of `around`', async () => {
    const third = await call<Page>(c, 'read_session', { session: session.id, turn: 3 });
    expect(third.text).toMatch(/^## Prompt 3\/4 · /);
    expect(third.turns?.first).toBe(3);
    const around = await call<Page>(c, 'read_session', { session: session.id, around: 'show notes.md once more', view: 'focused' });
    // The fixture's `/compact` is a command, not a prompt: "Show notes.md once more" is prompt 4 of 4.
    expect(around.matched).toMatchObject({ turn: 4 });
    expect(around.text).toMatch(/^## Prompt 4\/4/);
    expect(around.text).not.toContain('🔧');
  });

  it('says what is wrong as a tool error: no such prompt, a bad page size, words found nowhere, two starts at once', async () => {
    expect(await callError(c, 'read_session', { session: session.id, turn: 9 })).toBe('No prompt 9: the session has 4 prompts.');
    expect(await callError(c, 'read_session', { session: session.id, maxChars: 10 })).toContain('Expected `maxChars` to be a whole number from 1000 to 100000');
    expect(await callError(c, 'read_session', { session: session.id, from: '<script>' })).toContain('Expected `from` to be the `next.from` of a previous page');
    expect(await callError(c, 'read_session', { session: session.id, around: 'zzyzx qwfp' })).toMatch(/^No message of this session holds any of "zzyzx qwfp"/);
    expect(await callError(c, 'read_session', { session: session.id, turn: 1, around: 'plan' })).toBe('Give at most one of `turn`, `around` and `from`.');
    expect(await callError(c, 'read_session', { session: 'no-such-session-anywhere' })).toMatch(/^No session matches/);
  });
});
