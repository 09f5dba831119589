/**
 * What to say when an agent's CLI is not installed (`recapwrap claude` with no `claude` on PATH): the
 * agent's name, the npm package that installs it, and the demo that needs none. Pure.
 */
import { basename } from 'node:path';

/** Each agent's command, its product name and the npm package of its CLI. */
export const AGENT_INSTALLS = {
  claude: { name: 'Claude Code', pkg: '@anthropic-ai/claude-code' },
  codex: { name: 'Codex', pkg: '@openai/codex' },
  gemini: { name: 'Gemini CLI', pkg: '@google/gemini-cli' },
  qwen: { name: 'Qwen Code', pkg: '@qwen-code/qwen-code' },
  pi: { name: 'pi', pkg: '@mariozechner/pi-coding-agent' },
} as const satisfies Record<string, { name: string; pkg: string }>;

/** The lines after `command not found: CMD` when CMD is one of the five agents' commands; undefined otherwise. */
export function missingAgentHint(command: string): string | undefined {
  const known = AGENT_INSTALLS[basename(command) as keyof typeof AGENT_INSTALLS];
  if (!known) return undefined;
  return `${known.name} is not installed, or not on your PATH\n  install it: npm install -g ${known.pkg}\n  or try recapwrap with its own scripted agent (no key, no network): recapwrap demo`;
}
