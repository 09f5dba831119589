/**
 * `recapwrap mcp`: a stdio MCP server (the official SDK) over the session index, the second front door
 * beside the CLI. stdout carries JSON-RPC only: the transport gets the real stdout and every other write
 * to it (console.log, a dependency's print) is sent to stderr. The index is opened and refreshed at the
 * first tool call, never before `initialize`; the server exits when stdin closes.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Writable } from 'node:stream';
import { stripHitMarks } from '../../memory/types.js';
import { stringifyJsonSafely } from '../../util/sanitize.js';
import type { McpMemory } from './memory-port.js';
import {
  TOOL_DESCRIPTIONS, TOOL_INPUTS, ToolError, getSession, listSessions, querySession, searchSessions,
  type ToolContext, type ToolName,
} from './tools.js';
import { readSession } from './read-session.js';

export const MCP_SERVER_NAME = 'recapwrap';
/** A refresh of the index is started again at a tool call once the last one is this old. */
export const REFRESH_INTERVAL_MS = 30_000;
/** A tool call waits at most this long for a refresh (a first index of a large home takes longer): it then answers from what is indexed. */
export const REFRESH_WAIT_MS = 20_000;

/** Added to a result given while the index is still being brought up to date. */
export const INDEXING_NOTE = 'The index is still being brought up to date (a first run on a big home takes a while): these results may be incomplete; ask again shortly.';

export type OpenMemory = () => Promise<McpMemory | { error: string }>;
export type McpLog = (message: string, fields?: Record<string, unknown>) => void;

function textResult(value: unknown): CallToolResult {
  // Agents show tool results in their terminal UI: no raw C1, bidi or zero-width character gets through.
  // Nor the index's highlight markers (search snippets): every tool's answer passes here, so none can
  // carry them. JSON leaves them raw, inside strings only, so removing them keeps the JSON valid.
  return { content: [{ type: 'text', text: stripHitMarks(typeof value === 'string' ? value : stringifyJsonSafely(value, 1)) }] };
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: stripHitMarks(message) }], isError: true };
}

/**
 * The memory as tools see it: opened on the first call (lazily: better-sqlite3 and the memory code load
 * then), refreshed then and again once REFRESH_INTERVAL_MS have passed; calls share one refresh in flight.
 */
export interface MemoryGate {
  get(): Promise<McpMemory>;
  /**
   * Whether the index may be partial: a refresh is still running (a call that stopped waiting), or the
   * last one was left to another recapwrap that was indexing.
   */
  refreshing(): boolean;
  close(): void;
}

export function createMemoryGate(open: OpenMemory, log: McpLog, now: () => number = Date.now, waitMs: number = REFRESH_WAIT_MS): MemoryGate {
  let opened: Promise<McpMemory> | undefined;
  let memory: McpMemory | undefined;
  let refreshing: Promise<void> | undefined;
  let lastRefresh = Number.NEGATIVE_INFINITY;
  // The last refresh was left to another recapwrap reading the session files.
  let elsewhere = false;

  const refresh = (m: McpMemory): Promise<void> => {
    if (refreshing) return refreshing;
    const started = now();
    lastRefresh = started;
    refreshing = m
      .refresh({ ifIdle: true })
      .then(
        (stats) => {
          // Another recapwrap indexing (a first `index`): the answers until the next refresh are of a partial index.
          elsewhere = stats.elsewhere !== undefined;
          const said = elsewhere ? 'another recapwrap is indexing; answering from the index as it is' : stats.locked ? 'another process is writing the index; answering from its last commit' : 'index refreshed';
          log(said, { ms: now() - started, ...(elsewhere ? { pid: stats.elsewhere } : {}) });
        },
        (error: unknown) => log('index refresh failed; answering from the index as it is', { error: (error as Error).message }),
      )
      .finally(() => {
        refreshing = undefined;
        partial = false;
      });
    return refreshing;
  };

  // A call that stopped waiting for the refresh answers from a partial index: only then is there something to say.
  let partial = false;
  const waitBounded = async (p: Promise<void>) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(() => {
      log('refresh still running; answering from the index as it is', { waitedMs: waitMs });
      partial = true;
      resolve();
    }, waitMs)));
    await Promise.race([p, late]);
    clearTimeout(timer);
  };

  return {
    async get() {
      opened ??= open().then((m) => {
        if ('error' in m) throw new ToolError(`The session index cannot be opened: ${m.error}`);
        memory = m;
        return m;
      });
      let m: McpMemory;
      try {
        m = await opened;
      } catch (error) {
        // Not kept: the next call tries again (a full disk freed, a lock released).
        opened = undefined;
        throw error instanceof ToolError ? error : new ToolError(`The session index cannot be opened: ${(error as Error).message}`);
      }
      // A call made while another's refresh runs (agents call tools side by side) waits for the same one.
      if (now() - lastRefresh >= REFRESH_INTERVAL_MS) await waitBounded(refresh(m));
      else if (refreshing) await waitBounded(refreshing);
      return m;
    },
    refreshing: () => (refreshing !== undefined && partial) || elsewhere,
    close() {
      memory?.close();
      memory = undefined;
    },
  };
}

/** The MCP server with its tools registered (not connected). */
export function createMcpServer(ctx: ToolContext & { indexing?: () => boolean }, version: string, log: McpLog): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version }, { capabilities: { tools: {} } });
  const wrap = <A,>(name: ToolName, handler: (args: A, signal: AbortSignal) => Promise<unknown>) =>
    async (args: A, extra: { signal: AbortSignal }): Promise<CallToolResult> => {
      const started = Date.now();
      try {
        const value = await handler(args, extra.signal);
        if (ctx.indexing?.() && value && typeof value === 'object') Object.assign(value, { indexing: INDEXING_NOTE });
        const result = textResult(value);
        log('tool call', { tool: name, ms: Date.now() - started, ok: true });
        return result;
      } catch (error) {
        log('tool call', { tool: name, ms: Date.now() - started, ok: false, internal: !(error instanceof ToolError) });
        if (error instanceof ToolError) return errorResult(error.message);
        return errorResult(`recapwrap could not answer ${name}: ${(error as Error).message}`);
      }
    };
  server.registerTool('search_sessions', { title: 'Search past sessions', description: TOOL_DESCRIPTIONS.search_sessions, inputSchema: TOOL_INPUTS.search_sessions, annotations: { readOnlyHint: true, openWorldHint: false } },
    wrap('search_sessions', (args) => searchSessions(args, ctx)));
  server.registerTool('list_sessions', { title: 'List past sessions', description: TOOL_DESCRIPTIONS.list_sessions, inputSchema: TOOL_INPUTS.list_sessions, annotations: { readOnlyHint: true, openWorldHint: false } },
    wrap('list_sessions', (args) => listSessions(args, ctx)));
  server.registerTool('get_session', { title: 'Get a past session', description: TOOL_DESCRIPTIONS.get_session, inputSchema: TOOL_INPUTS.get_session, annotations: { readOnlyHint: true, openWorldHint: false } },
    wrap('get_session', (args) => getSession(args, ctx)));
  server.registerTool('query_session', { title: 'Ask about a past session', description: TOOL_DESCRIPTIONS.query_session, inputSchema: TOOL_INPUTS.query_session, annotations: { readOnlyHint: true, openWorldHint: false } },
    wrap('query_session', (args, signal) => querySession(args, ctx, signal)));
  server.registerTool('read_session', { title: 'Read a past session', description: TOOL_DESCRIPTIONS.read_session, inputSchema: TOOL_INPUTS.read_session, annotations: { readOnlyHint: true, openWorldHint: false } },
    wrap('read_session', (args) => readSession(args, ctx)));
  return server;
}

export interface StdoutGuard {
  /** The real stdout, for the transport only. */
  channel: Writable;
  restore(): void;
}

/**
 * Keep stdout for JSON-RPC: the returned channel writes to the real stdout; any other write to
 * process.stdout (console.log included: it calls stdout.write) goes to stderr instead.
 */
export function guardStdout(stdout: NodeJS.WriteStream = process.stdout, stderr: NodeJS.WriteStream = process.stderr): StdoutGuard {
  const realWrite = stdout.write;
  const write = realWrite.bind(stdout);
  const channel = {
    write: (chunk: string | Uint8Array) => write(chunk),
    once: (event: string, listener: () => void) => stdout.once(event, listener),
  } as unknown as Writable;
  stdout.write = ((chunk: string | Uint8Array, encoding?: BufferEncoding | ((error?: Error | null) => void), cb?: (error?: Error | null) => void) =>
    typeof encoding === 'function' ? stderr.write(chunk, encoding) : stderr.write(chunk, encoding as BufferEncoding, cb)) as typeof stdout.write;
  return { channel, restore: () => (stdout.write = realWrite) };
}

/** After stdin closes, requests already read get this long to be answered. */
export const DRAIN_MS = 30_000;

type RequestId = string | number;

/**
 * Count the requests read and not yet answered on this transport; the returned function resolves once
 * none is pending (or after `timeoutMs`).
 */
export function trackRequests(transport: StdioServerTransport): (timeoutMs: number) => Promise<void> {
  const pending = new Set<RequestId>();
  let settled: (() => void) | undefined;
  const onmessage = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && 'id' in message) pending.add(message.id as RequestId);
    onmessage?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    if (!('method' in message) && 'id' in message) {
      pending.delete(message.id as RequestId);
      if (pending.size === 0) settled?.();
    }
  };
  return (timeoutMs) =>
    pending.size === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, timeoutMs);
          settled = () => {
            clearTimeout(timer);
            resolve();
          };
        });
}

export interface RunMcpInput {
  ctx: Omit<ToolContext, 'memory'>;
  openMemory: OpenMemory;
  version: string;
  log: McpLog;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
}

/** Serve on stdin/stdout until stdin closes; resolves then (the caller exits). */
export async function runMcpServer(input: RunMcpInput): Promise<void> {
  const stdin = input.stdin ?? process.stdin;
  const stdout = input.stdout ?? process.stdout;
  const stderr = input.stderr ?? process.stderr;
  const guard = guardStdout(stdout, stderr);
  const gate = createMemoryGate(input.openMemory, input.log);
  const server = createMcpServer({ ...input.ctx, memory: () => gate.get(), indexing: () => gate.refreshing() }, input.version, input.log);
  // A line that is not JSON-RPC is dropped by the transport and reported here: one stderr line, without its text.
  server.server.onerror = (error) => {
    const what = error instanceof SyntaxError ? 'a line that is not JSON' : error.name === 'ZodError' ? 'a line that is not a JSON-RPC message' : error.name;
    stderr.write(`recapwrap mcp: ignored ${what}\n`);
    input.log('protocol error', { kind: what });
  };
  const transport = new StdioServerTransport(stdin, guard.channel);
  const closed = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  const drained = trackRequests(transport);
  input.log('serving', { pid: process.pid });
  await closed;
  // Requests already read are answered before the server closes (a client may write and close at once).
  await drained(DRAIN_MS);
  input.log('stdin closed; exiting');
  await server.close().catch(() => {});
  gate.close();
  await new Promise<void>((resolve) => (stdout.writableLength > 0 ? stdout.once('drain', () => resolve()) : resolve()));
  guard.restore();
}
