/**
 * Each agent's sessions without its parsers (each adapter's sessions.ts): where they are and how one is
 * resumed. The session index's refresh and its cards take them from here, so a read command (`search`,
 * `sessions`) loads no transcript parser (the registry's chunk: ~129 KB) unless it reads a transcript.
 * Record<AgentId, …> holds this list to AGENT_IDS as registry.ts holds the adapters.
 */
import { AGENT_IDS, type AgentId, type AgentSessions } from './types.js';
import { claudeSessions } from './claude/sessions.js';
import { codexSessions } from './codex/sessions.js';
import { geminiSessions } from './gemini/sessions.js';
import { piSessions } from './pi/sessions.js';
import { qwenSessions } from './qwen/sessions.js';

const SESSIONS: Record<AgentId, AgentSessions> = {
  pi: piSessions,
  qwen: qwenSessions,
  claude: claudeSessions,
  codex: codexSessions,
  gemini: geminiSessions,
};

/** The agent's sessions' parts, or undefined for an id no agent has. */
export function findAgentSessions(id: AgentId): AgentSessions | undefined {
  return SESSIONS[id];
}

/** Every agent's, in the order of AGENT_IDS (registry.ts listAdapters' order). */
export function listAgentSessions(): AgentSessions[] {
  return AGENT_IDS.map((id) => SESSIONS[id]);
}
