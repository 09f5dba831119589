import { describe, expect, it } from 'vitest';
import type { Recap } from '../../recap/types.js';
import type { Session, TranscriptEvent } from '../../transcripts/types.js';
import { sessionWrite } from './session-write.js';

const heuristic: Recap = {
  line: 'recap: waiting for you · added a flag', headline: 'added a flag', done: ['added a flag'], next: [], artifacts: [], status: 'waiting', language: 'en',
  generator: { type: 'heuristic' }, session: { agent: 'claude', id: 'sid', file: '/w/sid.jsonl' }, stamp: 's', createdAt: '2026-11-27T00:00:00.000Z',
};
const cards = { heuristic: () => heuristic };
const turn: TranscriptEvent[] = [
  { kind: 'user', text: 'add a flag', sourceId: '1', ts: 1 },
  { kind: 'assistant', text: 'Added.', sourceId: '2', ts: 2 },
  { kind: 'turn-end', sourceId: '3', ts: 3 },
];
const own: TranscriptEvent = { kind: 'agent-recap', text: 'Goal: a flag. Next action: test it.', sourceId: '4', ts: 4 };
const session = (events: TranscriptEvent[]): Session => ({ agent: 'claude', id: 'sid', file: '/w/sid.jsonl', cwd: '/w', stamp: 's', skipped: 0, events });

describe('the index card and the agent’s own recap (#34)', () => {
  it("carries the agent's fresh own recap as its line and generator", () => {
    const w = sessionWrite(session([...turn, own]), cards, { size: 10, mtimeMs: 5 });
    expect(w.line).toBe('recap: Goal: a flag. Next action: test it.');
    expect(w.generator).toEqual({ type: 'agent', agent: 'claude', own: true });
    expect(w.headline).toBe('added a flag');
  });

  it('keeps the heuristic line once a turn followed it (stale), and without one', () => {
    for (const events of [[...turn, own, { kind: 'user', text: 'and docs', sourceId: '5', ts: 5 } as TranscriptEvent], turn]) {
      const w = sessionWrite(session(events), cards, { size: 10, mtimeMs: 5 });
      expect(w.line).toBe(heuristic.line);
      expect(w.generator).toEqual({ type: 'heuristic' });
    }
  });
});
