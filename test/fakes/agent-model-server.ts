/**
 * A fake model API on 127.0.0.1 for driving the REAL agent CLIs in end-to-end tests. It speaks OpenAI
 * chat completions, OpenAI Responses, Anthropic Messages and Gemini generateContent, streamed (SSE) or
 * not, and decides each answer from the request alone:
 * - no tools in the request (a one-off recap or a side call) → `<recap>…</recap>` naming hello.txt when
 *   the request mentions it;
 * - Claude Code's away-summary request ("The user stepped away …") → CLAUDE_AWAY_SUMMARY;
 * - the last message carries a tool result → a final answer that names hello.txt;
 * - the user's last prompt names a session `@@name` and recapwrap's MCP `get_session` is offered → a call of it
 *   (Codex offers MCP tools inside a Responses `namespace`: the call then names the namespace);
 * - the user's last prompt mentions `ls`/`list` → one shell tool call running `ls`;
 * - otherwise → one write tool call creating hello.txt (absolute when the tool wants `file_path` and the
 *   request states the working directory); apply_patch, or the shell, when the agent offers no write tool.
 * Tool and argument names are taken from the tools the agent offers, so one server serves every agent.
 * `slowMs` delays each streamed event; `failNext` fails the next request with that HTTP status;
 * `thinking` puts a reasoning part (each API's own form) before every tool call, as a thinking model
 * does (test/fixtures/make-fixtures.ts turns it on, so the fixtures hold the agents' thinking records).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface AgentModelServer {
  /** Base URL without a path (each agent appends its own: /v1, /v1beta). */
  url: string;
  /** OpenAI-style base URL (url + /v1). */
  baseUrl: string;
  requests: Array<{ path: string; body: Record<string, unknown> }>;
  slowMs: number;
  failNext?: number;
  thinking?: boolean;
  /** The answer after a tool result (default FINAL_ANSWER, which ends on a question); must name hello.txt. */
  finalAnswer?: string;
  /**
   * A scripted session (the reader fixtures of make-fixtures.ts): asked first for every request that
   * asks for JSON of no schema; its step is the answer, `undefined` falls back to the rules above.
   */
  script?: (turn: Turn) => Step | undefined;
  /** Gemini: the prompt token count each answer reports (default 100); a big one makes /compress worth it. */
  promptTokens?: number;
  close(): Promise<void>;
}

/** What the fake needs to know of a request, whatever the API. */
export interface Turn {
  tools: Array<{ name: string; params: string[] }>;
  afterTool: boolean;
  prompt: string;
  allText: string;
  cwd?: string;
  /** Tool results since the user's last prompt: which step of a scripted turn this request asks for. */
  rounds: number;
}

// `thought` (scripted steps): the reasoning put before the step when the server thinks (default THOUGHT).
export type Step =
  | { text: string; thought?: string }
  | { tool: string; args: Record<string, unknown>; preface: string; thought?: string }
  // A freeform tool (Codex's apply_patch): its input is plain text.
  | { custom: string; input: string; preface: string; thought?: string };

let callCounter = 0;
const callId = (prefix: string) => `${prefix}_fake_${process.pid}_${++callCounter}`;

export const FINAL_ANSWER = 'Done: hello.txt is written and the folder is listed. Want me to add more files?';
/** What the fake answers Claude Code's away-summary request (its recap prompt). */
export const CLAUDE_AWAY_SUMMARY = 'Goal: write hello.txt and list the folder. Next action: tell me which files to add.';

export function decideTurn(turn: Turn, finalAnswer = FINAL_ANSWER): Step {
  // A one-off recap (recapwrap's prompt), or any request without tools.
  if (turn.tools.length === 0 || turn.allText.includes('<<<TRANSCRIPT')) {
    const file = /hello\.txt/.test(turn.allText) ? 'hello.txt' : 'no file';
    return { text: `<recap>recap: the agent wrote ${file} for you (fake model). Next: check ${file}.</recap>` };
  }
  if (turn.afterTool) return { text: finalAnswer };
  // Claude Code's away summary (its own recap, #34): a side call with the tool list and its recap prompt.
  if (/stepped away and is coming back/i.test(turn.prompt)) return { text: CLAUDE_AWAY_SUMMARY };
  // Side queries with the tool list (Qwen's prompt suggestions, titles) carry long prompts: plain text.
  if (turn.prompt.length > 400) return { text: 'ok' };
  const names = turn.tools.map((t) => t.name);
  const find = (...wanted: string[]) => names.find((n) => wanted.includes(n));
  // recapwrap's MCP server offered (test/agents/mcp-agent-call.test.ts): a prompt naming @@name looks it up.
  const getSession = names.find((n) => /get_session$/.test(n));
  const ref = /@@[a-z0-9-]+/.exec(turn.prompt)?.[0];
  if (getSession && ref) return { tool: getSession, args: { session: ref }, preface: 'Looking that session up.' };
  const paramsOf = (name: string) => turn.tools.find((t) => t.name === name)?.params ?? [];
  if (/\b(ls|list)\b/i.test(turn.prompt)) {
    const shell = find('bash', 'Bash', 'run_shell_command', 'exec_command', 'shell_command', 'shell') ?? names[0] ?? 'bash';
    const params = paramsOf(shell);
    const args: Record<string, unknown> = params.includes('cmd') ? { cmd: 'ls' } : { command: shell === 'shell' ? ['ls'] : 'ls' };
    if (params.includes('description')) args.description = 'list files';
    return { tool: shell, args, preface: 'Listing the files.' };
  }
  if (!find('write', 'write_file', 'Write') && find('apply_patch')) {
    return { custom: 'apply_patch', input: '*** Begin Patch\n*** Add File: hello.txt\n+hello from the fake model\n*** End Patch\n', preface: 'Creating hello.txt.' };
  }
  // No file tool at all (Codex 0.169 offers only exec_command): write it with the shell.
  const shellOnly = !find('write', 'write_file', 'Write') && find('exec_command', 'shell_command', 'shell');
  if (shellOnly) {
    const script = "printf 'hello from the fake model\\n' > hello.txt";
    const args: Record<string, unknown> = paramsOf(shellOnly).includes('cmd') ? { cmd: script } : { command: shellOnly === 'shell' ? ['bash', '-lc', script] : script };
    return { tool: shellOnly, args, preface: 'Creating hello.txt.' };
  }
  const write = find('write', 'write_file', 'Write') ?? names[0] ?? 'write';
  const pathKey = paramsOf(write).includes('file_path') ? 'file_path' : 'path';
  const path = pathKey === 'file_path' && turn.cwd ? `${turn.cwd.replace(/\/$/, '')}/hello.txt` : 'hello.txt';
  return { tool: write, args: { [pathKey]: path, content: 'hello from the fake model\n' }, preface: 'Creating hello.txt.' };
}

function cwdFrom(text: string): string | undefined {
  return /(?:working in the directory|working director(?:y|ies)|cwd)[^/\n]*?(\/[^\s`'"<>]+)/i.exec(text)?.[1]?.replace(/[.,:;]+$/, '');
}

const isReminder = (t: string) => t.trimStart().startsWith('<system-reminder>');
const str = (v: unknown) => (typeof v === 'string' ? v : '');

// ---- OpenAI chat completions ----
interface ChatMessage { role: string; content?: unknown }
// The text of a message; `withReminders` keeps injected <system-reminder> parts (they state the cwd).
function chatText(content: unknown, withReminders = false): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => str(p?.text)).filter((t) => withReminders || !isReminder(t)).join('\n');
  return '';
}
function chatTurn(body: Record<string, unknown>): Turn {
  const messages = (body.messages as ChatMessage[] | undefined) ?? [];
  const tools = (body.tools as Array<{ function?: { name?: string; parameters?: { properties?: object } } }> | undefined) ?? [];
  const allText = messages.map((m) => chatText(m.content, true)).join('\n');
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  return {
    tools: tools.map((t) => ({ name: t.function?.name ?? '', params: Object.keys(t.function?.parameters?.properties ?? {}) })),
    afterTool: messages[messages.length - 1]?.role === 'tool',
    prompt: chatText(messages[lastUser]?.content),
    allText,
    cwd: cwdFrom(allText),
    rounds: messages.slice(lastUser + 1).filter((m) => m.role === 'tool').length,
  };
}

// ---- Anthropic Messages ----
interface Block { type?: string; text?: string; content?: unknown }
function anthropicTurn(body: Record<string, unknown>): Turn {
  const messages = (body.messages as Array<{ role: string; content: string | Block[] }> | undefined) ?? [];
  const tools = (body.tools as Array<{ name?: string; input_schema?: { properties?: object } }> | undefined) ?? [];
  const blocks = (c: string | Block[]): Block[] => (typeof c === 'string' ? [{ type: 'text', text: c }] : c);
  const system = typeof body.system === 'string' ? body.system : Array.isArray(body.system) ? (body.system as Block[]).map((b) => str(b.text)).join('\n') : '';
  const texts = messages.flatMap((m) => blocks(m.content).map((b) => (b.type === 'text' ? str(b.text) : str(b.content))));
  // What the person typed: text blocks that are not injected context (<system-reminder>, command caveats…).
  const userTexts = (m: { content: string | Block[] }) => blocks(m.content).filter((b) => b.type === 'text' && !/^\s*</.test(str(b.text))).map((b) => str(b.text));
  const lastIndex = messages.findLastIndex((m) => m.role === 'user' && userTexts(m).length > 0);
  const lastUser = messages[lastIndex];
  const last = messages[messages.length - 1];
  return {
    rounds: messages.slice(lastIndex + 1).flatMap((m) => (m.role === 'user' ? blocks(m.content) : [])).filter((b) => b.type === 'tool_result').length,
    tools: tools.map((t) => ({ name: t.name ?? '', params: Object.keys(t.input_schema?.properties ?? {}) })),
    afterTool: last?.role === 'user' && blocks(last.content).some((b) => b.type === 'tool_result'),
    prompt: lastUser ? (userTexts(lastUser).at(-1) ?? '') : '',
    allText: texts.join('\n'),
    cwd: cwdFrom(`${system}\n${texts.join('\n')}`),
  };
}

// ---- OpenAI Responses ----
interface Item { type?: string; role?: string; content?: unknown; output?: unknown }
interface ResponsesTool { type?: string; name?: string; parameters?: { properties?: object }; tools?: ResponsesTool[] }
// Codex groups MCP tools in a namespace (`{type: "namespace", name: "mcp__recapwrap", tools: [...]}`);
// a call of one names both: `{type: "function_call", namespace, name}`. Its tools are offered to
// decideTurn as `<namespace>__<name>` (the name MCP clients give them elsewhere).
const NAMESPACE_JOIN = '__';
function responsesTools(body: Record<string, unknown>): Array<ResponsesTool & { namespace?: string }> {
  const tools = (body.tools as ResponsesTool[] | undefined) ?? [];
  return tools.flatMap((t) =>
    t.type === 'namespace' && Array.isArray(t.tools) && t.name
      ? t.tools.filter((n) => n.name).map((n) => ({ ...n, name: `${t.name}${NAMESPACE_JOIN}${n.name}`, namespace: t.name }))
      : [t],
  );
}
// The namespace and the tool's own name of a tool decideTurn picked (undefined: not in a namespace).
function namespacedCall(body: Record<string, unknown>, tool: string): { namespace: string; name: string } | undefined {
  const found = responsesTools(body).find((t) => t.name === tool && t.namespace);
  return found?.namespace ? { namespace: found.namespace, name: tool.slice(found.namespace.length + NAMESPACE_JOIN.length) } : undefined;
}
function responsesTurn(body: Record<string, unknown>): Turn {
  const input = (Array.isArray(body.input) ? body.input : [{ type: 'message', role: 'user', content: str(body.input) }]) as Item[];
  const tools = responsesTools(body);
  const text = (c: unknown) => (typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => str(p?.text)).join('\n') : '');
  const isPrompt = (i: Item) => (i.type === 'message' || !i.type) && i.role === 'user' && !/^<(environment_context|user_instructions|permissions)/.test(text(i.content).trim());
  const users = input.filter(isPrompt).map((i) => text(i.content));
  const lastPrompt = input.findLastIndex(isPrompt);
  const all = input.map((i) => text(i.content) || str(i.output)).join('\n') + str(body.instructions);
  const last = input[input.length - 1];
  return {
    tools: tools.filter((t) => t.name).map((t) => ({ name: t.name as string, params: Object.keys(t.parameters?.properties ?? {}) })),
    afterTool: last?.type === 'function_call_output' || last?.type === 'custom_tool_call_output',
    prompt: users[users.length - 1] ?? '',
    allText: all,
    cwd: cwdFrom(all),
    rounds: input.slice(lastPrompt + 1).filter((i) => i.type === 'function_call_output' || i.type === 'custom_tool_call_output').length,
  };
}

// ---- Gemini ----
// Gemini CLI sends its <session_context> as the first part of the first prompt's own content.
const isGeminiContext = (t: string) => t.trimStart().startsWith('<session_context>');
interface Part { text?: string; functionCall?: unknown; functionResponse?: unknown }
function geminiTurn(body: Record<string, unknown>): Turn {
  const contents = (body.contents as Array<{ role?: string; parts?: Part[] }> | undefined) ?? [];
  const decls = ((body.tools as Array<{ functionDeclarations?: Array<{ name?: string; parameters?: { properties?: object }; parametersJsonSchema?: { properties?: object } }> }> | undefined) ?? []).flatMap((t) => t.functionDeclarations ?? []);
  const system = ((body.systemInstruction as { parts?: Part[] } | undefined)?.parts ?? []).map((p) => str(p.text)).join('\n');
  const texts = contents.flatMap((c) => (c.parts ?? []).map((p) => str(p.text)));
  const promptOf = (c: { role?: string; parts?: Part[] }) => (c.role === 'user' ? (c.parts ?? []).map((p) => str(p.text)).filter((t) => t && !isReminder(t) && !isGeminiContext(t)).join('\n') : '');
  const userPrompts = contents.map(promptOf).filter(Boolean);
  const lastPrompt = contents.findLastIndex((c) => promptOf(c) !== '');
  const last = contents[contents.length - 1];
  return {
    tools: decls.map((d) => ({ name: d.name ?? '', params: Object.keys(d.parametersJsonSchema?.properties ?? d.parameters?.properties ?? {}) })),
    afterTool: (last?.parts ?? []).some((p) => p.functionResponse !== undefined),
    prompt: userPrompts[userPrompts.length - 1] ?? '',
    allText: texts.join('\n'),
    cwd: cwdFrom(`${system}\n${texts.join('\n')}`),
    rounds: contents.slice(lastPrompt + 1).flatMap((c) => c.parts ?? []).filter((p) => p.functionResponse !== undefined).length,
  };
}

// The smallest value of a JSON schema (Gemini's OpenAPI-style types in upper case too).
function sampleOf(schema: Record<string, unknown> | undefined): unknown {
  const type = String(schema?.type ?? 'object').toLowerCase();
  if (Array.isArray(schema?.enum) && schema.enum.length > 0) return schema.enum[0];
  if (type === 'string') return 'fake';
  if (type === 'integer' || type === 'number') return 10;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  const props = (schema?.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sampleOf(v)]));
}

function geminiJsonAnswer(body: Record<string, unknown>): string | undefined {
  const config = body.generationConfig as { responseMimeType?: string; responseJsonSchema?: Record<string, unknown>; responseSchema?: Record<string, unknown> } | undefined;
  if (config?.responseMimeType !== 'application/json') return undefined;
  return JSON.stringify(sampleOf(config.responseJsonSchema ?? config.responseSchema));
}

type Writer = { event(name: string | undefined, data: unknown): Promise<void>; end(tail?: string): void };

function sse(res: ServerResponse, slowMs: number): Writer {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return {
    async event(name, data) {
      res.write(`${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
      if (slowMs) await new Promise((r) => setTimeout(r, slowMs));
    },
    end: (tail) => res.end(tail),
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const USAGE = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
const THOUGHT = 'The request needs one tool call; planning it.';
// Reasoning goes before tool calls only (the final answer comes without), when the server is asked for
// it; a scripted text step with its own `thought` gets it too.
const thinks = (step: Step, thinking: boolean) => thinking && (!('text' in step) || step.thought !== undefined);

// APIs without freeform tools get the patch as a plain answer (never happens with their agents).
function noCustom(step: Step): Exclude<Step, { custom: string }> {
  return 'custom' in step ? { text: step.preface, thought: step.thought } : step;
}

async function answerChat(res: ServerResponse, body: Record<string, unknown>, anyStep: Step, slowMs: number, thinking = false): Promise<void> {
  const step = noCustom(anyStep);
  const reasoning = thinks(step, thinking) ? { reasoning_content: step.thought ?? THOUGHT } : {};
  const model = str(body.model) || 'fake-model';
  if (!body.stream) {
    const message = 'text' in step ? { role: 'assistant', content: step.text } : { role: 'assistant', ...reasoning, content: step.preface, tool_calls: [{ id: callId('call'), type: 'function', function: { name: step.tool, arguments: JSON.stringify(step.args) } }] };
    return json(res, 200, { id: 'chatcmpl-fake', object: 'chat.completion', model, choices: [{ index: 0, message, finish_reason: 'text' in step ? 'stop' : 'tool_calls' }], usage: USAGE });
  }
  const w = sse(res, slowMs);
  const chunk = (delta: object, finish: string | null = null, usage?: object) => w.event(undefined, { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) });
  await chunk({ role: 'assistant', content: '' });
  if ('text' in step) {
    const half = Math.ceil(step.text.length / 2);
    await chunk({ content: step.text.slice(0, half) });
    await chunk({ content: step.text.slice(half) });
    await chunk({}, 'stop', USAGE);
  } else {
    if (reasoning.reasoning_content) await chunk(reasoning);
    await chunk({ content: step.preface });
    const args = JSON.stringify(step.args);
    await chunk({ tool_calls: [{ index: 0, id: callId('call'), type: 'function', function: { name: step.tool, arguments: args.slice(0, 5) } }] });
    await chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(5) } }] });
    await chunk({}, 'tool_calls', USAGE);
  }
  w.end('data: [DONE]\n\n');
}

async function answerAnthropic(res: ServerResponse, body: Record<string, unknown>, anyStep: Step, slowMs: number, thinking = false): Promise<void> {
  const step = noCustom(anyStep);
  const model = str(body.model) || 'fake-model';
  const content: object[] = 'text' in step ? [{ type: 'text', text: step.text }] : [{ type: 'text', text: step.preface }, { type: 'tool_use', id: callId('toolu'), name: step.tool, input: step.args }];
  if (thinks(step, thinking)) content.unshift({ type: 'thinking', thinking: step.thought ?? THOUGHT, signature: 'fake-signature' });
  const stop = 'text' in step ? 'end_turn' : 'tool_use';
  const usage = { input_tokens: 100, output_tokens: 20 };
  // One id per answer: Claude Code joins the blocks of one id back into one message, so a shared id
  // would fold a turn's final answer and the next turn's tool call together in its history.
  const id = callId('msg');
  if (!body.stream) return json(res, 200, { id, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage });
  const w = sse(res, slowMs);
  await w.event('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 100, output_tokens: 1 } } });
  for (const [index, block] of content.entries()) {
    const b = block as { type: string; text?: string; id?: string; name?: string; input?: object; thinking?: string; signature?: string };
    if (b.type === 'thinking') {
      await w.event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      await w.event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: b.thinking } });
      await w.event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: b.signature } });
    } else if (b.type === 'text') {
      await w.event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      await w.event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: b.text } });
    } else {
      await w.event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
      await w.event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
    }
    await w.event('content_block_stop', { type: 'content_block_stop', index });
  }
  await w.event('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 20 } });
  await w.event('message_stop', { type: 'message_stop' });
  w.end();
}

async function answerResponses(res: ServerResponse, body: Record<string, unknown>, step: Step, slowMs: number, thinking = false): Promise<void> {
  const model = str(body.model) || 'fake-model';
  const id = `resp_fake_${++callCounter}`;
  const message = (text: string) => ({ type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] });
  const output: object[] =
    'text' in step
      ? [message(step.text)]
      : 'custom' in step
        ? [message(step.preface), { type: 'custom_tool_call', id: `ctc_${id}`, call_id: callId('call'), name: step.custom, input: step.input, status: 'completed' }]
        : [message(step.preface), { type: 'function_call', id: `fc_${id}`, call_id: callId('call'), name: step.tool, ...namespacedCall(body, step.tool), arguments: JSON.stringify(step.args), status: 'completed' }];
  if (thinks(step, thinking)) output.unshift({ type: 'reasoning', id: `rs_${id}`, summary: [{ type: 'summary_text', text: step.thought ?? THOUGHT }] });
  const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 120 };
  const response = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), status: 'completed', model, output, usage };
  if (!body.stream) return json(res, 200, response);
  const w = sse(res, slowMs);
  await w.event('response.created', { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } });
  for (const [index, item] of output.entries()) {
    await w.event('response.output_item.added', { type: 'response.output_item.added', output_index: index, item });
    const text = (item as { content?: Array<{ text: string }> }).content?.[0]?.text;
    if (text !== undefined) await w.event('response.output_text.delta', { type: 'response.output_text.delta', output_index: index, item_id: (item as { id: string }).id, content_index: 0, delta: text });
    await w.event('response.output_item.done', { type: 'response.output_item.done', output_index: index, item });
  }
  await w.event('response.completed', { type: 'response.completed', response });
  w.end();
}

async function answerGemini(res: ServerResponse, streaming: boolean, anyStep: Step, slowMs: number, thinking = false, promptTokens = 100): Promise<void> {
  const step = noCustom(anyStep);
  const parts: object[] = 'text' in step ? [{ text: step.text }] : [{ text: step.preface }, { functionCall: { name: step.tool, args: step.args } }];
  if (thinks(step, thinking)) parts.unshift({ text: step.thought ?? THOUGHT, thought: true });
  const usageMetadata = { promptTokenCount: promptTokens, candidatesTokenCount: 20, totalTokenCount: promptTokens + 20 };
  const reply = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: 'fake-model' };
  if (!streaming) return json(res, 200, reply);
  const w = sse(res, slowMs);
  await w.event(undefined, reply);
  w.end();
}

export async function startAgentModelServer(): Promise<AgentModelServer> {
  const sockets = new Set<Socket>();
  const state: AgentModelServer = { url: '', baseUrl: '', requests: [], slowMs: 0, close: async () => {} };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString('utf8')));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] as string;
      if (req.method === 'GET') {
        if (path.endsWith('/models')) return json(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model' }], models: [] });
        return json(res, 404, { error: { message: `no ${path}` } });
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(data) as Record<string, unknown>;
      } catch {}
      state.requests.push({ path, body });
      if (state.failNext) {
        const status = state.failNext;
        state.failNext = undefined;
        return json(res, status, { error: { message: `fake failure ${status}`, type: 'server_error', code: status } });
      }
      if (path.endsWith('/count_tokens') || path.endsWith(':countTokens')) return json(res, 200, { input_tokens: 100, totalTokens: 100 });
      const slow = state.slowMs;
      const think = state.thinking === true;
      const final = state.finalAnswer ?? FINAL_ANSWER;
      const decide = (turn: Turn) => state.script?.(turn) ?? decideTurn(turn, final);
      if (path.endsWith('/chat/completions')) return void answerChat(res, body, decide(chatTurn(body)), slow, think);
      if (path.endsWith('/messages')) return void answerAnthropic(res, body, decide(anthropicTurn(body)), slow, think);
      if (path.endsWith('/responses')) return void answerResponses(res, body, decide(responsesTurn(body)), slow, think);
      if (path.includes(':streamGenerateContent') || path.includes(':generateContent')) {
        // Gemini CLI's side calls (model routing, next speaker) ask for JSON of a schema.
        const schemaJson = geminiJsonAnswer(body);
        const step = schemaJson === undefined ? decide(geminiTurn(body)) : { text: schemaJson };
        return void answerGemini(res, path.includes(':stream'), step, slow, think, state.promptTokens);
      }
      return json(res, 404, { error: { message: `no ${path}` } });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.baseUrl = `${state.url}/v1`;
  state.close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return state;
}
