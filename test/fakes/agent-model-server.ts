/**
 * A fake model API on 127.0.0.1 for driving the REAL agent CLIs in end-to-end tests: OpenAI chat
 * completions (streamed as server-sent events, or plain JSON), scripted from the request alone:
 * - no tools in the request (a one-off recap) → `<recap>…</recap>` naming the file of the transcript;
 * - the last message is a tool result → a final answer that names hello.txt;
 * - the user's last prompt mentions `ls`/`list` → one shell tool call running `ls`;
 * - otherwise → one write tool call creating hello.txt.
 * Tool names and argument names are taken from the tools the agent offers (pi: write/bash with path;
 * others: write_file/run_shell_command with file_path), so one server serves several agents.
 * `slowMs` delays each streamed chunk; `failNext` makes the next request fail with that HTTP status.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface AgentModelServer {
  /** Base URL including /v1. */
  baseUrl: string;
  requests: Array<{ path: string; body: Record<string, unknown> }>;
  slowMs: number;
  failNext?: number;
  close(): Promise<void>;
}

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: unknown[];
}

interface Tool {
  function?: { name?: string; parameters?: { properties?: Record<string, unknown> } };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p?.text === 'string' ? p.text : '')).filter((t) => !t.startsWith('<system-reminder>')).join('\n');
  return '';
}

let callCounter = 0;

type Step = { text: string } | { tool: string; args: Record<string, unknown>; preface: string };

export function decide(body: Record<string, unknown>): Step {
  const messages = (body.messages as ChatMessage[] | undefined) ?? [];
  const tools = (body.tools as Tool[] | undefined) ?? [];
  const last = messages[messages.length - 1];
  if (tools.length === 0) {
    const all = messages.map((m) => textOf(m.content)).join('\n');
    const file = /hello\.txt/.test(all) ? 'hello.txt' : 'no file';
    return { text: `<recap>recap: the agent wrote ${file} for you (fake model). Next: check ${file}.</recap>` };
  }
  if (last?.role === 'tool') return { text: 'Done: hello.txt is written and the folder is listed. Want me to add more files?' };
  const prompt = textOf([...messages].reverse().find((m) => m.role === 'user')?.content);
  const names = tools.map((t) => t.function?.name ?? '');
  const find = (...wanted: string[]) => names.find((n) => wanted.includes(n));
  if (/\b(ls|list)\b/i.test(prompt)) {
    const shell = find('bash', 'run_shell_command', 'shell', 'exec_command') ?? names[0] ?? 'bash';
    const args: Record<string, unknown> = { command: 'ls' };
    if (shell === 'run_shell_command') args.description = 'list files';
    return { tool: shell, args, preface: 'Listing the files.' };
  }
  const write = find('write', 'write_file', 'Write') ?? names[0] ?? 'write';
  const props = tools.find((t) => t.function?.name === write)?.function?.parameters?.properties ?? {};
  const pathKey = 'file_path' in props ? 'file_path' : 'path';
  return { tool: write, args: { [pathKey]: 'hello.txt', content: 'hello from the fake model\n' }, preface: 'Creating hello.txt.' };
}

function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null, usage?: unknown): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
}

async function stream(res: ServerResponse, model: string, step: Step, slowMs: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = async (s: string) => {
    res.write(s);
    if (slowMs) await new Promise((r) => setTimeout(r, slowMs));
  };
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  await send(chunk(model, { role: 'assistant', content: '' }));
  if ('text' in step) {
    const half = Math.ceil(step.text.length / 2);
    await send(chunk(model, { content: step.text.slice(0, half) }));
    await send(chunk(model, { content: step.text.slice(half) }));
    await send(chunk(model, {}, 'stop', usage));
  } else {
    await send(chunk(model, { content: step.preface }));
    const id = `call_fake_${process.pid}_${++callCounter}`;
    const args = JSON.stringify(step.args);
    await send(chunk(model, { tool_calls: [{ index: 0, id, type: 'function', function: { name: step.tool, arguments: args.slice(0, 5) } }] }));
    await send(chunk(model, { tool_calls: [{ index: 0, function: { arguments: args.slice(5) } }] }));
    await send(chunk(model, {}, 'tool_calls', usage));
  }
  res.end('data: [DONE]\n\n');
}

function plain(res: ServerResponse, model: string, step: Step): void {
  const message = 'text' in step ? { role: 'assistant', content: step.text } : { role: 'assistant', content: step.preface, tool_calls: [{ id: `call_fake_${++callCounter}`, type: 'function', function: { name: step.tool, arguments: JSON.stringify(step.args) } }] };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion', model, choices: [{ index: 0, message, finish_reason: 'text' in step ? 'stop' : 'tool_calls' }], usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } }));
}

export async function startAgentModelServer(): Promise<AgentModelServer> {
  const sockets = new Set<Socket>();
  const state: AgentModelServer = { baseUrl: '', requests: [], slowMs: 0, close: async () => {} };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '';
      if (req.method === 'GET' && path.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model' }] }));
        return;
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(data) as Record<string, unknown>;
      } catch {}
      state.requests.push({ path, body });
      if (state.failNext) {
        const status = state.failNext;
        state.failNext = undefined;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `fake failure ${status}`, type: 'server_error' } }));
        return;
      }
      const model = typeof body.model === 'string' ? body.model : 'fake-model';
      const step = decide(body);
      if (body.stream) void stream(res, model, step, state.slowMs);
      else plain(res, model, step);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return state;
}
