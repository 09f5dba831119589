// A Claude Code 1.0.x file whose parent chain is broken (an entry names a parent the file lacks): the
// session index reads it by all it holds (issue 42: such a session counted 0 prompts and was never
// listed); the live view still follows the chain as written.
import { describe, expect, it } from 'vitest';
import { createClaudeParser } from './parse.js';

const line = (o: Record<string, unknown>) => JSON.stringify({ sessionId: 's1', cwd: '/w', timestamp: '2025-06-01T10:00:00.000Z', ...o });
const LINES = [
  line({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'migrate the billing tables to v2' } }),
  line({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'Starting with invoices.' }] } }),
  // Its parent was never written to the file (seen in real 1.0.x files).
  line({ type: 'assistant', uuid: 'a2', parentUuid: 'not-in-this-file', message: { role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'Invoices migrated.' }], stop_reason: 'end_turn' } }),
  line({ type: 'assistant', uuid: 'a3', parentUuid: 'a2', message: { role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: 'Next: the refunds table.' }], stop_reason: 'end_turn' } }),
];

const prompts = (wholeFile: boolean) => {
  const parser = createClaudeParser({ wholeFile });
  for (const l of LINES) parser.push(l);
  return parser.snapshot().events.filter((e) => e.kind === 'user').map((e) => ('text' in e ? e.text : ''));
};

describe('a Claude Code file with a broken parent chain', () => {
  it('is read by all it holds for the index: the prompt before the break counts', () => {
    expect(prompts(true)).toEqual(['migrate the billing tables to v2']);
  });
  it('is followed as written by the live view (the chain from the last entry)', () => {
    expect(prompts(false)).toEqual([]);
  });
});
