// A session as the store takes it (src/memory tests): a small claude session of the folder /home/u/shop,
// every field overridable.
import type { SessionWrite } from '../../src/memory/types.js';

export function sessionWriteFixture(over: Partial<SessionWrite> & { id: string }): SessionWrite {
  return {
    agent: 'claude', transcript: `/t/${over.id}.jsonl`, cwd: '/home/u/shop', project: 'shop', headline: 'headline', line: 'recap: x',
    updatedAt: Date.parse('2026-11-20T10:00:00Z'), counts: { prompts: 1, turns: 1, toolCalls: 0 }, status: 'idle', language: 'en', tags: [],
    generator: { type: 'heuristic' }, done: [], next: [], artifacts: [], text: '> fix the checkout page', nameHints: { task: 'fix the checkout page', files: [], commands: [] },
    mark: { size: 10, mtimeMs: 1, entry: 's1' },
    ...over,
  };
}
