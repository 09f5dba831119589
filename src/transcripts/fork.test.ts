// #36: a forked session names the one it came from, as each agent's file records it, and each adapter
// says how its agent resumes a session as a new branch (Gemini CLI has no fork).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPTS_DIR } from '../../test/helpers/shared.js';
import { getAdapter } from './registry.js';
import type { AgentId } from './types.js';

const lines = (agent: AgentId, file: string) => readFileSync(join(TRANSCRIPTS_DIR, agent, file), 'utf8').split('\n').filter(Boolean);
function parentOf(agent: AgentId, input: readonly string[]): string | undefined {
  const parser = getAdapter(agent).createParser();
  for (const line of input) parser.push(line);
  return parser.snapshot().parent;
}

describe('the parent of a forked session', () => {
  it("pi: the header's parentSession (the file it was forked from)", () => {
    expect(parentOf('pi', lines('pi', 'fork/child.jsonl'))).toBe('/home/dev/.pi/agent/sessions/tui/tui.jsonl');
    expect(parentOf('pi', lines('pi', 'interactive-2turns.jsonl'))).toBeUndefined();
  });

  it("Claude Code: the copies' forkedFrom.sessionId (never the session's own id)", () => {
    const own = lines('claude', 'interactive-2turns.jsonl');
    expect(parentOf('claude', own)).toBeUndefined();
    // What a fork writes: each copied entry under the new session id, naming where it came from.
    const forked = own.map((l) => {
      const rec = JSON.parse(l) as Record<string, unknown>;
      const copy = { ...rec, ...(rec.sessionId ? { sessionId: 'b0b0b0b0-0000-4000-8000-000000000001' } : {}) };
      return JSON.stringify(typeof rec.uuid === 'string' ? { ...copy, forkedFrom: { sessionId: rec.sessionId, messageUuid: rec.uuid } } : copy);
    });
    expect(parentOf('claude', forked)).toBe('6ca07d55-31d1-4eec-a511-114e0af851f5');
    // `--resume ID --fork-session` (seen with the real claude 2.1.330): the copied answers keep the id of
    // the session that asked for them, under the fork's own session id.
    const resumed = own.map((l) => {
      const rec = JSON.parse(l) as Record<string, unknown>;
      const copy = { ...rec, ...(rec.sessionId ? { sessionId: 'b0b0b0b0-0000-4000-8000-000000000001' } : {}) };
      return JSON.stringify(rec.type === 'assistant' ? { ...copy, requestSessionId: rec.sessionId } : copy);
    });
    expect(parentOf('claude', resumed)).toBe('6ca07d55-31d1-4eec-a511-114e0af851f5');
    const self = own.map((l) => (l.includes('"uuid"') ? JSON.stringify({ ...JSON.parse(l), forkedFrom: { sessionId: '6ca07d55-31d1-4eec-a511-114e0af851f5' } }) : l));
    expect(parentOf('claude', self)).toBeUndefined();
  });

  it("Codex: session_meta's forked_from_id", () => {
    const own = lines('codex', 'interactive-2turns.jsonl');
    expect(parentOf('codex', own)).toBeUndefined();
    const [meta, ...rest] = own;
    const rec = JSON.parse(meta as string) as { payload: Record<string, unknown> };
    const forked = [JSON.stringify({ ...rec, payload: { ...rec.payload, id: '01a208ca-0000-7000-8000-000000000002', session_id: '01a208ca-0000-7000-8000-000000000002', forked_from_id: '01a208ca-f01c-7592-87e5-609ae9691146' } }), ...rest];
    expect(parentOf('codex', forked)).toBe('01a208ca-f01c-7592-87e5-609ae9691146');
  });

  it('Qwen Code: forkedFrom.sessionId on the copies (as the real qwen 0.24.4 --fork-session writes them)', () => {
    const own = lines('qwen', 'interactive-2turns.jsonl');
    expect(parentOf('qwen', own)).toBeUndefined();
    const forked = own.map((l) => JSON.stringify({ ...JSON.parse(l), sessionId: 'c0c0c0c0-0000-4000-8000-000000000003', forkedFrom: { sessionId: 'a8be6670-f5b2-4c58-a8ba-dcb534645d00' } }));
    expect(parentOf('qwen', forked)).toBe('a8be6670-f5b2-4c58-a8ba-dcb534645d00');
  });
});

describe('resume as a branch: each agent\'s own fork', () => {
  const session = { id: '6ca07d55-31d1-4eec-a511-114e0af851f5', file: '/s/x.jsonl' };
  it('Claude Code and Qwen Code --resume ID --fork-session; pi --fork FILE; codex fork ID; Gemini CLI none', () => {
    expect(getAdapter('claude').forkArgs?.(session)).toEqual(['--resume', session.id, '--fork-session']);
    expect(getAdapter('qwen').forkArgs?.(session)).toEqual(['--resume', session.id, '--fork-session']);
    expect(getAdapter('pi').forkArgs?.(session)).toEqual(['--fork', '/s/x.jsonl']);
    expect(getAdapter('codex').forkArgs?.(session)).toEqual(['fork', session.id]);
    expect(getAdapter('gemini').forkArgs).toBeUndefined();
  });
});
