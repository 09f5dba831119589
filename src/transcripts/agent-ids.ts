/**
 * Agent ids and naming an agent from a wrapped command, without loading any adapter (the wrapper's
 * start-up path asks this for every command, agent or not).
 */
import { basename } from 'node:path';
import { AGENT_IDS, type AgentId } from './types.js';

export { AGENT_IDS };

export function isAgentId(value: string): value is AgentId {
  return (AGENT_IDS as readonly string[]).includes(value);
}

// The agent a wrapped command is, from its basename (`/usr/local/bin/claude` → claude, `claude.exe` too).
export function agentFromCommand(command: string): AgentId | undefined {
  const name = basename(command).replace(/\.(exe|cmd|js|mjs|cjs)$/i, '').toLowerCase();
  return isAgentId(name) ? name : undefined;
}
