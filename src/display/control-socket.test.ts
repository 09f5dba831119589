import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES, requestControl, startControlServer, stopControlServer } from './control-socket.js';

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
});
