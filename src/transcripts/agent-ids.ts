/**
 * Agent ids and naming an agent from a wrapped command, without loading any adapter (the wrapper's
 * start-up path asks this for every command, agent or not).
 */
import { basename } from 'node:path';
import { AGENT_IDS, type AgentId } from './types.js';

export { AGENT_IDS };

/** The ids for help and messages, from the one list: `pi, qwen, claude, codex or gemini` (or with `,` throughout). */
export function formatAgentIds(last: 'or' | ',' = 'or'): string {
  return last === ',' ? AGENT_IDS.join(', ') : `${AGENT_IDS.slice(0, -1).join(', ')} ${last} ${AGENT_IDS[AGENT_IDS.length - 1]}`;
}

export function isAgentId(value: string): value is AgentId {
  return (AGENT_IDS as readonly string[]).includes(value);
}

// The agent a wrapped command is, from its basename (`/usr/local/bin/claude` → claude, `claude.exe` too).
export function agentFromCommand(command: string): AgentId | undefined {
  const name = basename(command).replace(/\.(exe|cmd|js|mjs|cjs)$/i, '').toLowerCase();
  return isAgentId(name) ? name : undefined;
}
