/**
 * Each wrapper's control socket (Unix, 0600): a line-delimited JSON protocol so `recapwrap status`,
 * `recapwrap recap --pane ID --show` and tmux bindings can talk to a live wrapper:
 *   {"id":1,"cmd":"status"} → {"id":1,"ok":true,"state":{…}}
 *   {"id":2,"cmd":"show"}   → show a recap now;  {"id":3,"cmd":"recap"} → the recap line now
 * Malformed or oversized requests get an error reply, never a crash; a stale socket file is replaced.
 */
import { chmodSync, mkdirSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

/** Requests longer than this are refused (and the connection closed). */
export const MAX_REQUEST_BYTES = 64 * 1024;
export const CONTROL_COMMANDS = ['status', 'show', 'recap'] as const;
export type ControlCommand = (typeof CONTROL_COMMANDS)[number];

export type ControlHandler = (cmd: ControlCommand) => Promise<Record<string, unknown>>;

export function socketPathFor(runtimeDir: string, pid: number): string {
  return join(runtimeDir, `${pid}.sock`);
}

function reply(socket: Socket, body: Record<string, unknown>): void {
  if (!socket.destroyed) socket.write(JSON.stringify(body) + '\n');
}

// Serve one connection: each complete line is one request, answered in order.
function serve(socket: Socket, handle: ControlHandler): void {
  let buffer = '';
  socket.setEncoding('utf8');
  socket.on('error', () => socket.destroy());
  socket.on('data', (data: string) => {
    buffer += data;
    if (buffer.length > MAX_REQUEST_BYTES && !buffer.includes('\n')) {
      reply(socket, { ok: false, error: `request over ${MAX_REQUEST_BYTES} bytes` });
      socket.end();
      buffer = '';
      return;
    }
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line) continue;
      let request: { id?: unknown; cmd?: unknown };
      try {
        request = JSON.parse(line) as { id?: unknown; cmd?: unknown };
        if (typeof request !== 'object' || request === null) throw new Error('not an object');
      } catch {
        reply(socket, { ok: false, error: 'expected one JSON object per line, like {"cmd":"status"}' });
        continue;
      }
      const id = request.id ?? null;
      if (typeof request.cmd !== 'string' || !(CONTROL_COMMANDS as readonly string[]).includes(request.cmd)) {
        reply(socket, { id, ok: false, error: `unknown cmd ${JSON.stringify(request.cmd)}; expected one of ${CONTROL_COMMANDS.join(', ')}` });
        continue;
      }
      handle(request.cmd as ControlCommand).then(
        (body) => reply(socket, { id, ok: true, ...body }),
        (error: unknown) => reply(socket, { id, ok: false, error: (error as Error).message }),
      );
    }
  });
}

/** Listen on the socket (replacing a stale file); resolves once listening. */
export function startControlServer(path: string, handle: ControlHandler): Promise<Server> {
  mkdirSync(join(path, '..'), { recursive: true, mode: 0o700 });
  try {
    unlinkSync(path); // a stale socket of a dead wrapper with our pid
  } catch {}
  const server = createServer((socket) => serve(socket, handle));
  server.unref();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      try {
        chmodSync(path, 0o600);
      } catch {}
      resolve(server);
    });
  });
}

export function stopControlServer(server: Server, path: string): void {
  server.close();
  try {
    unlinkSync(path);
  } catch {}
}

/** Send one request and resolve with the reply (rejects on timeout or a closed socket). */
export function requestControl(path: string, cmd: string, timeoutMs = 3000): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let buffer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer from ${path} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(JSON.stringify({ id: 1, cmd }) + '\n'));
    socket.on('data', (data: string) => {
      buffer += data;
      const nl = buffer.indexOf('\n');
      if (nl < 0) return;
      clearTimeout(timer);
      socket.end();
      try {
        resolve(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
      } catch (error) {
        reject(error as Error);
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
