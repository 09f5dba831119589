/**
 * The adapters, by agent id. Adding an agent is one import and one entry in ADAPTERS; nothing else in
 * recapwrap names agents (display names and flags live in each adapter).
 */
import { AGENT_IDS, type AgentId, type TranscriptAdapter } from './types.js';
import { claudeAdapter } from './claude/index.js';
import { codexAdapter } from './codex/index.js';
import { geminiAdapter } from './gemini/index.js';
import { piAdapter } from './pi/index.js';
import { qwenAdapter } from './qwen/index.js';

export { AGENT_IDS, agentFromCommand, isAgentId } from './agent-ids.js';

const ADAPTERS: Record<AgentId, TranscriptAdapter> = {
  pi: piAdapter,
  qwen: qwenAdapter,
  claude: claudeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
};

/** The adapter for an agent, or undefined while that agent has none. */
export function findAdapter(id: AgentId): TranscriptAdapter | undefined {
  return ADAPTERS[id];
}

export function getAdapter(id: AgentId): TranscriptAdapter {
  const adapter = ADAPTERS[id];
  if (!adapter) throw new Error(`No transcript support for '${id}' yet`);
  return adapter;
}

export function listAdapters(): TranscriptAdapter[] {
  return AGENT_IDS.map((id) => ADAPTERS[id]).filter((a): a is TranscriptAdapter => a !== undefined);
}

/** Which agent wrote a file, from its first lines (undefined when none claims it). */
export function detectAgent(firstLines: readonly string[]): AgentId | undefined {
  return listAdapters().find((a) => a.detect(firstLines))?.id;
}
