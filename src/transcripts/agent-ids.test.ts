import { describe, expect, it } from 'vitest';
import { agentFromCommand, formatAgentIds } from './agent-ids.js';
import { listAdapters } from './registry.js';

describe('agent ids', () => {
  it('the help texts list the ids of the one list, in its order', () => {
    expect(formatAgentIds()).toBe('pi, qwen, claude, codex or gemini');
    expect(formatAgentIds(',')).toBe('pi, qwen, claude, codex, gemini');
    expect(listAdapters().map((a) => a.id).join(', ')).toBe(formatAgentIds(','));
  });

  it('names the agent a wrapped command is from its basename', () => {
    expect(agentFromCommand('/usr/local/bin/claude')).toBe('claude');
    expect(agentFromCommand('Codex.EXE')).toBe('codex');
    expect(agentFromCommand('bash')).toBeUndefined();
  });
});
