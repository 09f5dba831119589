// #36: the fake model speaks Codex's Responses "namespace" (MCP tools grouped under the server's name):
// a prompt naming @@name gets a call of the namespaced get_session that names its namespace, as the real
// Codex 0.169 dispatches it (test/agents/mcp-agent-call.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentModelServer, type AgentModelServer } from '../fakes/agent-model-server.js';

describe('the fake model and a Responses namespace', () => {
  let model: AgentModelServer;
  beforeAll(async () => {
    model = await startAgentModelServer();
  });
  afterAll(() => model.close());

  it('calls get_session inside the mcp__recapwrap namespace, naming the namespace', async () => {
    const body = {
      model: 'gpt-5-codex',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'what did we do in @@shop-fix?' }] }],
      tools: [
        { type: 'function', name: 'exec_command', parameters: { properties: { cmd: {} } } },
        { type: 'namespace', name: 'mcp__recapwrap', description: 'Tools in the mcp__recapwrap namespace.', tools: [{ type: 'function', name: 'get_session', parameters: { properties: { session: {} } } }] },
      ],
    };
    const res = await fetch(`${model.baseUrl}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const out = (await res.json()) as { output: Array<Record<string, unknown>> };
    const call = out.output.find((o) => o.type === 'function_call');
    expect(call).toMatchObject({ name: 'get_session', namespace: 'mcp__recapwrap', arguments: JSON.stringify({ session: '@@shop-fix' }) });
  });

  it('a tool outside a namespace is called by its name alone', async () => {
    const body = { model: 'm', input: [{ type: 'message', role: 'user', content: 'now list the files with ls' }], tools: [{ type: 'function', name: 'exec_command', parameters: { properties: { cmd: {} } } }] };
    const out = (await (await fetch(`${model.baseUrl}/responses`, { method: 'POST', body: JSON.stringify(body) })).json()) as { output: Array<Record<string, unknown>> };
    const call = out.output.find((o) => o.type === 'function_call');
    expect(call?.name).toBe('exec_command');
    expect(call).not.toHaveProperty('namespace');
  });
});
