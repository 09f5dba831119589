/**
 * The adapters, by agent id: the one list of agents. Adding one is its folder, its id in AGENT_IDS and one
 * entry here and in sessions.ts (its sessions' listing and resume commands without its parsers, for the
 * session index's reads; Record<AgentId, …> makes the compiler hold each list to AGENT_IDS). Nothing else in recapwrap names
 * agents: display names, launch flags, the one-off recap command and the doctor checks live in each
 * adapter, and doctor, the recap engine's settings and the help texts come from here or from AGENT_IDS.
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
