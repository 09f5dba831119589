/**
 * Each wrapper's control socket (Unix, 0600): a line-delimited JSON protocol so `recapwrap status`,
 * `recapwrap recap --pane ID --show` and tmux bindings can talk to a live wrapper:
 *   {"id":1,"cmd":"status"} → {"id":1,"ok":true,"state":{…}}
 *   {"id":2,"cmd":"show"}   → show a recap now;  {"id":3,"cmd":"recap"} → the recap line now
 *   {"cmd":"pick","token":…} / {"cmd":"paste","token":…,"text":…} → the tmux popup picker's own
 *   requests (app/wrap/picker-popup.ts checks the one-time token; other fields reach the handler as given)
 * Anything a client sends costs at most this feature, never the wrapper or the agent: malformed,
 * oversized or deeply nested requests get an error reply (the request is never echoed back), each
 * connection answers one request at a time and stops reading until its reply is taken (backpressure),
 * work is cut into slices of about a millisecond so the agent's output is never held up, and the
 * number of connections is capped. A stale socket file is replaced.
 */
import { chmodSync, unlinkSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { ensurePrivateDir } from '../util/safe-fs.js';
import { sanitizeLine, stringifyJsonSafely } from '../util/sanitize.js';

/**
 * A request line longer than this (UTF-8 bytes) is refused and the connection closed. Most requests are
 * ~30 bytes; a picker popup's `paste` carries a reference block, at most MAX_PASTE_BYTES of JSON
 * (app/wrap/picker-popup.ts), which fits with room for its other fields.
 */
export const MAX_REQUEST_BYTES = 16 * 1024;
/** Connections beyond this are closed at once (status lines connect briefly; nobody needs more). */
export const MAX_CONNECTIONS = 32;
// A UTF-8 character is at most 3 bytes per UTF-16 unit: most lines are judged without counting.
const overLimit = (text: string): boolean => text.length > MAX_REQUEST_BYTES || (text.length * 3 > MAX_REQUEST_BYTES && Buffer.byteLength(text) > MAX_REQUEST_BYTES);
/** Socket work runs in slices at most this long, then rests (agent output first)... */
export const SLICE_BUDGET_MS = 1;
/** ...for this long, so a flood can take at most about a third of a core from the agent's own output. */
export const SLICE_REST_MS = 2;
/** A connection that sends nothing for this long is closed (frees its slot). */
export const IDLE_CONNECTION_MS = 60_000;
/** A client gives up on a reply longer than this (a status reply is about a kilobyte). */
const MAX_REPLY_CHARS = 1024 * 1024;
/** Longest string `id` echoed back; other ids (objects, arrays, long strings) are refused. */
const MAX_ID_CHARS = 64;
export const CONTROL_COMMANDS = ['status', 'show', 'recap', 'pick', 'paste'] as const;
export type ControlCommand = (typeof CONTROL_COMMANDS)[number];

/** The request's other fields come as sent (JSON values): the handler checks what it uses. */
export type ControlHandler = (cmd: ControlCommand, request: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown>>;
/** Told about faults the server survived (debug log): a failed handler, a reply that could not be built. */
export type ControlLog = (message: string, fields?: Record<string, unknown>) => void;

export function socketPathFor(runtimeDir: string, pid: number): string {
  return join(runtimeDir, `${pid}.sock`);
}

type Reply = Record<string, unknown>;
type RequestId = number | string | null;

// The reply as one line; a body that cannot be serialized becomes an error reply, never a throw.
function encodeReply(body: Reply, log: ControlLog): string {
  try {
    return stringifyJsonSafely(body) + '\n';
  } catch (error) {
    log('reply not serializable', { error: (error as Error).message });
    return JSON.stringify({ id: typeof body.id === 'number' || typeof body.id === 'string' ? body.id : null, ok: false, error: 'internal error' }) + '\n';
  }
}

function validId(id: unknown): id is RequestId {
  return id === undefined || id === null || (typeof id === 'number' && Number.isFinite(id)) || (typeof id === 'string' && id.length <= MAX_ID_CHARS);
}

// One request line to its reply. Never throws; never echoes anything of the request but a valid id.
async function answer(line: string, handle: ControlHandler, log: ControlLog): Promise<Reply> {
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch {
    return { ok: false, error: 'expected one JSON object per line, like {"cmd":"status"}' };
  }
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return { id: null, ok: false, error: 'unknown cmd; expected one JSON object per line, like {"cmd":"status"}' };
  }
  const { id: rawId, cmd } = request as { id?: unknown; cmd?: unknown };
  if (!validId(rawId)) return { id: null, ok: false, error: `expected \`id\` to be a number or a string of at most ${MAX_ID_CHARS} characters` };
  const id = rawId ?? null;
  if (typeof cmd !== 'string' || !(CONTROL_COMMANDS as readonly string[]).includes(cmd)) {
    const shown = typeof cmd === 'string' && cmd.length <= 32 ? ` ${JSON.stringify(sanitizeLine(cmd))}` : '';
    return { id, ok: false, error: `unknown cmd${shown}; expected one of ${CONTROL_COMMANDS.join(', ')}` };
  }
  try {
    const body = await handle(cmd as ControlCommand, request as Record<string, unknown>);
    return { ...body, id, ok: true };
  } catch (error) {
    log('handler failed', { cmd, error: (error as Error)?.message });
    return { id, ok: false, error: sanitizeLine(String((error as Error)?.message ?? error)).slice(0, 200) };
  }
}

/*
 * One budget for all socket work in the process (every connection of every server): a caller runs until
 * the current slice is used up, then waits out a rest on a timer, during which the event loop forwards
 * the agent's output and anything else that is waiting.
 */
let sliceStart = 0;
async function takeTurn(): Promise<void> {
  const now = performance.now();
  if (now - sliceStart < SLICE_BUDGET_MS) return;
  if (sliceStart !== 0 && now - sliceStart < SLICE_BUDGET_MS + SLICE_REST_MS) {
    await new Promise<void>((resolve) => setTimeout(resolve, SLICE_REST_MS));
  }
  sliceStart = performance.now();
}

/*
 * Serve one connection: complete lines are answered in order, one at a time. Reading stops (pause) as
 * soon as data arrives and resumes only when every buffered line is answered and the replies are taken,
 * so a flooding client is held back by the kernel's socket buffers, not by our memory.
 */
function serve(socket: Socket, handle: ControlHandler, log: ControlLog): void {
  let buffer = '';
  let pumping = false;
  let closed = false;
  socket.setEncoding('utf8');
  socket.setTimeout(IDLE_CONNECTION_MS, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    closed = true;
    buffer = '';
  });
  const send = async (body: Reply): Promise<void> => {
    if (closed || socket.destroyed) return;
    if (socket.write(encodeReply(body, log))) return;
    // The client is not reading its replies: wait for it before answering anything more.
    await new Promise<void>((resolve) => {
      const done = () => {
        socket.off('drain', done);
        socket.off('close', done);
        resolve();
      };
      socket.on('drain', done);
      socket.on('close', done);
    });
  };
  const refuse = async (message: string) => {
    buffer = '';
    await send({ id: null, ok: false, error: message });
    socket.end();
    closed = true;
  };
  const pump = async (): Promise<void> => {
    if (pumping) return;
    pumping = true;
    try {
      while (!closed) {
        await takeTurn();
        if (closed) break;
        const nl = buffer.indexOf('\n');
        if (nl < 0) {
          if (overLimit(buffer)) await refuse(`request over ${MAX_REQUEST_BYTES} bytes`);
          break;
        }
        if (overLimit(buffer.slice(0, nl))) {
          await refuse(`request over ${MAX_REQUEST_BYTES} bytes`);
          break;
        }
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) await send(await answer(line, handle, log));
      }
    } finally {
      pumping = false;
    }
    if (!closed && !socket.destroyed) socket.resume();
  };
  socket.on('data', (data: string) => {
    socket.pause();
    buffer += data;
    pump().catch((error: unknown) => {
      log('connection failed', { error: (error as Error)?.message });
      socket.destroy();
    });
  });
}

/**
 * Listen on the socket in a private folder (created 0700, refused when not ours), replacing a stale
 * socket file; resolves once listening, rejects (never throws) on any failure.
 */
export async function startControlServer(path: string, handle: ControlHandler, log: ControlLog = () => {}): Promise<Server> {
  ensurePrivateDir(dirname(path));
  try {
    unlinkSync(path); // a stale socket of a dead wrapper with our pid
  } catch {
    // None there.
  }
  const server = createServer((socket) => {
    try {
      serve(socket, handle, log);
    } catch (error) {
      log('connection setup failed', { error: (error as Error).message });
      socket.destroy();
    }
  });
  server.maxConnections = MAX_CONNECTIONS;
  server.unref();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      // After listening, a server error (EMFILE on accept, …) costs this feature only.
      server.on('error', (error) => log('server error', { error: error.message }));
      try {
        chmodSync(path, 0o600);
      } catch {
        // The folder is 0700 already: the mode is a second lock, not the only one.
      }
      resolve(server);
    });
  });
}

export function stopControlServer(server: Server, path: string): void {
  server.close();
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/** Send one request (cmd and any other fields) and resolve with the reply (rejects on timeout or a closed socket). */
export function requestControl(path: string, cmd: string, timeoutMs = 3000, fields: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let buffer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer from ${path} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(JSON.stringify({ ...fields, id: 1, cmd }) + '\n'));
    socket.on('data', (data: string) => {
      buffer += data;
      const nl = buffer.indexOf('\n');
      if (nl < 0) {
        if (buffer.length <= MAX_REPLY_CHARS) return;
        clearTimeout(timer);
        socket.destroy();
        reject(new Error(`reply from ${path} over ${MAX_REPLY_CHARS} characters`));
        return;
      }
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
