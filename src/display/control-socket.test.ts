import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdsFor, pollUntil } from '../../test/helpers/poll.js';
import { MAX_CONNECTIONS, MAX_REQUEST_BYTES, requestControl, startControlServer, stopControlServer } from './control-socket.js';

let dir: string;
let server: Server | undefined;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-sock-'));
  path = join(dir, 'run', '1.sock');
});
afterEach(() => {
  if (server) stopControlServer(server, path);
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

// Send raw bytes and collect reply lines until the server closes or n lines came.
function raw(data: string, n: number): Promise<string[]> {
  return new Promise((resolve) => {
    const s = createConnection(path);
    let buf = '';
    s.setEncoding('utf8');
    s.on('connect', () => s.write(data));
    s.on('data', (d: string) => {
      buf += d;
      const lines = buf.split('\n').filter(Boolean);
      if (lines.length >= n) {
        s.destroy();
        resolve(lines);
      }
    });
    s.on('close', () => resolve(buf.split('\n').filter(Boolean)));
    s.on('error', () => resolve(buf.split('\n').filter(Boolean)));
  });
}

describe('control socket', () => {
  it('answers commands, with a 0600 socket that replaces a stale file', async () => {
    writeFileSync(join(dir, 'stale'), '');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'run'));
    writeFileSync(path, 'stale socket file');
    let shown = 0;
    server = await startControlServer(path, async (cmd) => (cmd === 'show' ? (shown++, { line: 'recap: x' }) : { state: { pid: 1 } }));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await requestControl(path, 'status')).toEqual({ id: 1, ok: true, state: { pid: 1 } });
    expect(await requestControl(path, 'show')).toEqual({ id: 1, ok: true, line: 'recap: x' });
    expect(shown).toBe(1);
  });

  it("hands a request's other fields to the handler as sent (the popup picker's token and text)", async () => {
    const seen: unknown[] = [];
    server = await startControlServer(path, async (cmd, request) => (seen.push([cmd, request.token, request.text]), {}));
    expect(await requestControl(path, 'paste', 3000, { token: 'ab', text: 'line 1\nline 2', cmd: 'status', id: 9 })).toEqual({ id: 1, ok: true });
    expect(seen).toEqual([['paste', 'ab', 'line 1\nline 2']]);
  });

  it('replies with errors to garbage and unknown commands, and keeps serving', async () => {
    server = await startControlServer(path, async () => ({}));
    const replies = await raw('not json\n[1]\n{"cmd":"rm -rf"}\n{"id":7,"cmd":"status"}\n', 4);
    expect(replies.map((l) => JSON.parse(l))).toEqual([
      { ok: false, error: expect.stringContaining('one JSON object per line') },
      { id: null, ok: false, error: expect.stringContaining('unknown cmd') },
      { id: null, ok: false, error: expect.stringContaining('unknown cmd "rm -rf"') },
      { id: 7, ok: true },
    ]);
    expect(await requestControl(path, 'status')).toMatchObject({ ok: true });
  });

  it('refuses a huge line without crashing', async () => {
    server = await startControlServer(path, async () => ({}));
    const replies = await raw('x'.repeat(MAX_REQUEST_BYTES * 2), 1);
    expect(JSON.parse(replies[0]!)).toMatchObject({ ok: false, error: expect.stringContaining('over') });
    expect(await requestControl(path, 'status')).toMatchObject({ ok: true });
  });

  it('serves many clients at once', async () => {
    let n = 0;
    server = await startControlServer(path, async () => ({ n: ++n }));
    const replies = await Promise.all(Array.from({ length: 20 }, () => requestControl(path, 'status')));
    expect(replies.every((r) => r.ok === true)).toBe(true);
    expect(new Set(replies.map((r) => r.n)).size).toBe(20);
  });

  it('a client gets a clear error when nobody listens', async () => {
    await expect(requestControl(join(dir, 'nobody.sock'), 'status', 500)).rejects.toThrow();
  });

  // #19 point 1: a deeply nested id made JSON.stringify throw in the reply and took the wrapper down.
  it('answers deeply nested ids and commands with an error, never echoing them, and keeps serving', async () => {
    server = await startControlServer(path, async () => ({ state: { pid: 1 } }));
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const lines = [`{"id":${deep(1500)},"cmd":"status"}`, `{"id":1,"cmd":${deep(1500)}}`, `{"id":{"a":1},"cmd":"status"}`, `{"id":"${'x'.repeat(65)}","cmd":"status"}`, '{"id":2,"cmd":"status"}'];
    const replies = (await raw(lines.join('\n') + '\n', lines.length)).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(replies.slice(0, 4).map((r) => [r.id, r.ok])).toEqual([[null, false], [1, false], [null, false], [null, false]]);
    expect(replies.slice(0, 4).every((r) => String(r.error).length < 200)).toBe(true);
    expect(replies[4]).toEqual({ id: 2, ok: true, state: { pid: 1 } });
  });

  it('survives a handler that throws or returns what JSON cannot hold', async () => {
    let calls = 0;
    server = await startControlServer(path, async () => {
      calls++;
      if (calls === 1) throw new Error('boom');
      if (calls === 2) return { big: 10n } as unknown as Record<string, unknown>;
      return { fine: true };
    });
    expect(await requestControl(path, 'status')).toMatchObject({ ok: false, error: 'boom' });
    expect(await requestControl(path, 'status')).toMatchObject({ ok: false, error: 'internal error' });
    expect(await requestControl(path, 'status')).toMatchObject({ ok: true, fine: true });
  });

  it('escapes C1 and bidi characters in replies', async () => {
    server = await startControlServer(path, async () => ({ line: 'a\u009b2Jb\u202ec' }));
    const replies = await raw('{"id":1,"cmd":"status"}\n', 1);
    expect(replies[0]).not.toMatch(/[\u0080-\u009f\u202e]/);
    expect(JSON.parse(replies[0]!)).toMatchObject({ line: 'a\u009b2Jb\u202ec' });
  });

  // #19 point 7: replies are answered one at a time with backpressure; a client that floods and never
  // reads is held back by the kernel, and the server's memory does not grow with the flood.
  it('holds back a client that floods without reading its replies', async () => {
    let handled = 0;
    server = await startControlServer(path, async () => (handled++, { state: { pid: 1, pad: 'x'.repeat(200) } }));
    const s = createConnection(path);
    await new Promise<void>((resolve) => s.on('connect', () => resolve()));
    s.pause(); // never read replies
    const line = '{"id":1,"cmd":"status"}\n'.repeat(1000);
    for (let i = 0; i < 100; i++) s.write(line); // 100,000 requests (queued on the client's side)
    await pollUntil(() => handled > 0, { timeoutMs: 5000, description: 'the first replies' });
    // Wait for the stall: the count stops growing between two looks 100 ms apart.
    let last = -1;
    await pollUntil(() => {
      const same = handled === last;
      last = handled;
      return same;
    }, { timeoutMs: 5000, intervalMs: 100, description: 'the server to stop answering' });
    const stalled = handled;
    // Stopped answering once its replies piled up (the client's write side is blocked too). That it
    // stays stopped only time can show: a bounded look, failing the moment one more is answered.
    await holdsFor(() => handled === stalled, { forMs: 300, description: 'no more answers to a client that does not read' });
    expect(handled).toBeLessThan(5000); // ~400 here: what fits the socket buffers of the replies
    s.destroy();
    expect(await requestControl(path, 'status')).toMatchObject({ ok: true });
  });

  it('closes connections beyond the cap, and still serves once they go', async () => {
    server = await startControlServer(path, async () => ({}));
    const held = await Promise.all(
      Array.from({ length: MAX_CONNECTIONS + 5 }, () => new Promise<ReturnType<typeof createConnection>>((resolve) => {
        const c = createConnection(path);
        c.on('error', () => {});
        c.on('connect', () => resolve(c));
      })),
    );
    const closed = await pollUntil(() => held.filter((c) => c.destroyed || c.readableEnded).length, { timeoutMs: 5000, description: 'a connection over the cap closed' });
    for (const c of held) c.destroy();
    expect(closed).toBeGreaterThanOrEqual(1);
    // Serves again once the server has seen them go (it may still count some for a moment).
    await pollUntil(async () => (await requestControl(path, 'status')).ok === true, { timeoutMs: 5000, description: 'an answer once they went' });
  });

  it('refuses a socket folder open to others', async () => {
    const { chmodSync, mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'run'));
    chmodSync(join(dir, 'run'), 0o777);
    await expect(startControlServer(path, async () => ({}))).rejects.toThrow(/writable by other users/);
  });
});
