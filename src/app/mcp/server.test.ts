// The server's own duties, in process over real streams (the memory is a fake collaborator): stdout kept
// for JSON-RPC, the index opened only at the first tool call and refreshed then, requests already read
// answered after stdin closes.
import { Console } from 'node:console';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pollUntil } from '../../../test/helpers/poll.js';
import type { McpMemory } from './memory-port.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { INDEXING_NOTE, REFRESH_INTERVAL_MS, createMcpServer, createMemoryGate, guardStdout, runMcpServer } from './server.js';
import { ToolError } from './tools.js';

function stream(): NodeJS.WriteStream & { text(): string } {
  const s = new PassThrough() as unknown as NodeJS.WriteStream & { text(): string };
  let text = '';
  s.on('data', (d: Buffer) => (text += d.toString('utf8')));
  s.text = () => text;
  return s;
}

// refreshMs: how long a refresh takes; 'held': each refresh runs until the test calls release().
function fakeMemory(refreshMs: number | 'held' = 0): McpMemory & { refreshes: number; release(): void; elsewhere?: number; locked?: boolean } {
  let release = () => {};
  const m = {
    refreshes: 0,
    elsewhere: undefined as number | undefined,
    locked: false,
    release: () => release(),
    async refresh() {
      m.refreshes++;
      await new Promise<void>((r) => (refreshMs === 'held' ? (release = r) : setTimeout(r, refreshMs)));
      return m.elsewhere !== undefined ? { elsewhere: m.elsewhere } : m.locked ? { locked: true as const } : {};
    },
    list: () => [],
    search: () => [],
    resolve: () => ({ ok: false as const, kind: 'none' as const, candidates: [] }),
    card: () => undefined,
    passages: () => [],
    condensedText: () => '',
    close() {},
  };
  return m;
}

describe('guardStdout', () => {
  it('gives the transport the real stdout and sends every other write (console.log too) to stderr', () => {
    const out = stream();
    const err = stream();
    const guard = guardStdout(out, err);
    const log = new Console(out, err);
    log.log('stray print');
    out.write('stray write\n');
    guard.channel.write('{"jsonrpc":"2.0"}\n');
    guard.restore();
    out.write('after restore\n');
    expect(out.text()).toBe('{"jsonrpc":"2.0"}\nafter restore\n');
    expect(err.text()).toBe('stray print\nstray write\n');
  });
});

describe('createMemoryGate', () => {
  it('opens on the first call, refreshes then and again once the last refresh is old', async () => {
    let opens = 0;
    let now = 1_000_000;
    const memory = fakeMemory();
    const gate = createMemoryGate(async () => (opens++, memory), () => {}, () => now);
    expect(opens).toBe(0);
    await Promise.all([gate.get(), gate.get()]);
    expect([opens, memory.refreshes]).toEqual([1, 1]);
    now += REFRESH_INTERVAL_MS - 1;
    await gate.get();
    expect(memory.refreshes).toBe(1);
    now += 1;
    await gate.get();
    expect([opens, memory.refreshes]).toEqual([1, 2]);
  });

  // The refresh runs until released (not for a time a loaded machine could outlast): get() answering at
  // all while it runs is the bounded wait.
  it('stops waiting for a slow refresh and says so until it is done', async () => {
    const memory = fakeMemory('held');
    const gate = createMemoryGate(async () => memory, () => {}, Date.now, 50);
    await gate.get();
    expect(gate.refreshing()).toBe(true);
    memory.release();
    await pollUntil(() => !gate.refreshing(), { description: 'the refresh to end' });
    expect(memory.refreshes).toBe(1);
  });

  it("a call made while another call's refresh runs waits for it: an index brought up to date is never called incomplete (#37)", async () => {
    const memory = fakeMemory('held');
    const gate = createMemoryGate(async () => memory, () => {}, Date.now, 5000);
    const first = gate.get();
    await pollUntil(() => memory.refreshes === 1, { description: "the first call's refresh to run" });
    const order: string[] = [];
    const second = gate.get().then(() => order.push('second answered'));
    // Every promise step the second call could take without waiting, taken.
    await new Promise((r) => setImmediate(r));
    order.push('refresh done');
    memory.release();
    await Promise.all([first, second]);
    expect(order).toEqual(['refresh done', 'second answered']);
    expect(gate.refreshing()).toBe(false);
    expect(memory.refreshes).toBe(1);
  });

  it('says the index may be partial while another recapwrap indexes, until a refresh of its own runs again', async () => {
    let now = 1_000_000;
    const memory = fakeMemory();
    const logged: string[] = [];
    const gate = createMemoryGate(async () => memory, (msg) => logged.push(msg), () => now);
    memory.elsewhere = 4242;
    await gate.get();
    expect(gate.refreshing()).toBe(true);
    expect(logged).toContain('another recapwrap is indexing; answering from the index as it is');
    memory.elsewhere = undefined;
    now += REFRESH_INTERVAL_MS;
    await gate.get();
    expect(gate.refreshing()).toBe(false);
  });

  it('logs a refresh left undone for another process\'s write as such, not as done', async () => {
    const memory = fakeMemory();
    const logged: string[] = [];
    const gate = createMemoryGate(async () => memory, (msg) => logged.push(msg), () => 1_000_000);
    memory.locked = true;
    await gate.get();
    await pollUntil(() => logged.includes('another process is writing the index; answering from its last commit'), { description: 'the refresh to be logged' });
    expect(logged).not.toContain('index refreshed');
  });

  it('turns an index that cannot be opened into a tool error, and tries again at the next call', async () => {
    let fail = true;
    const gate = createMemoryGate(async () => (fail ? { error: 'the state folder is writable by others' } : fakeMemory()), () => {});
    await expect(gate.get()).rejects.toEqual(new ToolError('The session index cannot be opened: the state folder is writable by others'));
    fail = false;
    await expect(gate.get()).resolves.toBeDefined();
  });
});

describe('runMcpServer', () => {
  it('answers initialize without opening the index, and answers a slow call read before stdin closed', async () => {
    const stdin = new PassThrough() as unknown as NodeJS.ReadStream;
    const stdout = stream();
    const stderr = stream();
    let opens = 0;
    const memory = fakeMemory(300);
    const done = runMcpServer({
      version: '9.9.9',
      log: () => {},
      ctx: { cwd: '/', now: Date.now, answerer: { unavailable: 'off' } },
      openMemory: async () => (opens++, memory),
      stdin, stdout, stderr,
    });
    const lines = () => stdout.text().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id?: number; result?: { content?: Array<{ text: string }> } });
    (stdin as unknown as PassThrough).write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) + '\n');
    await pollUntil(() => lines().some((l) => l.id === 1), { description: 'the initialize answer' });
    expect(opens).toBe(0);
    (stdin as unknown as PassThrough).write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_sessions', arguments: {} } }) + '\n');
    (stdin as unknown as PassThrough).end();
    await done;
    expect([opens, memory.refreshes]).toEqual([1, 1]);
    expect(lines().find((l) => l.id === 2)?.result?.content?.[0]?.text).toContain('"count": 0');
    expect(stderr.text()).toBe('');
  });
});

describe('createMcpServer', () => {
  it('says a result may be incomplete while the index is still being brought up to date', async () => {
    let indexing = true;
    const server = createMcpServer({ memory: async () => fakeMemory(), cwd: '/', now: Date.now, answerer: { unavailable: 'off' }, indexing: () => indexing }, '1', () => {});
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(b);
    const text = async () => ((await client.callTool({ name: 'list_sessions', arguments: {} })).content as Array<{ text: string }>)[0]?.text ?? '';
    expect(JSON.parse(await text())).toEqual({ count: 0, sessions: [], indexing: INDEXING_NOTE });
    indexing = false;
    expect(JSON.parse(await text())).toEqual({ count: 0, sessions: [] });
    await client.close();
  });
});
