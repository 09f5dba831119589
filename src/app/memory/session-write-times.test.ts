// A session as the index stores it: started is the earliest stamp and updated the latest, whatever order the
// file gives them in (#37 item 6: six real sessions had a header stamped after their last message).
import { describe, expect, it } from 'vitest';
import type { Recap } from '../../recap/types.js';
import type { Session } from '../../transcripts/types.js';
import { sessionWrite } from './session-write.js';

const T = Date.parse('2026-11-20T16:00:00Z');
const cards = { heuristic: () => ({ line: 'recap: x', headline: 'h', done: [], next: [], artifacts: [], status: 'idle', language: 'en' }) as unknown as Recap };

describe('sessionWrite times', () => {
  it('started = the earliest stamp, updated = the latest, with a header stamped after the messages', () => {
    const session = {
      agent: 'codex', id: 's1', file: '/t/s1.jsonl', cwd: '/nowhere/proj', stamp: 'e', startedAt: T + 38 * 60_000, updatedAt: T + 27 * 60_000,
      events: [{ kind: 'user', text: 'fix it', ts: T }, { kind: 'assistant', text: 'Fixed.', ts: T + 27 * 60_000 }, { kind: 'turn-end', ts: T + 27 * 60_000 }],
    } as unknown as Session;
    const w = sessionWrite(session, cards, { size: 10, mtimeMs: T + 60 * 60_000 });
    expect(w.createdAt).toBe(T);
    expect(w.updatedAt).toBe(T + 38 * 60_000);
  });

  it('no stamp at all: updated is the file time', () => {
    const session = { agent: 'pi', id: 's2', file: '/t/s2.jsonl', cwd: '/nowhere/proj', stamp: 'e', events: [{ kind: 'user', text: 'hi' }] } as unknown as Session;
    const w = sessionWrite(session, cards, { size: 10, mtimeMs: T });
    expect(w.createdAt).toBeUndefined();
    expect(w.updatedAt).toBe(T);
  });

  it('a session of 300,000 stamped events (a 100 MB transcript): no stack overflow', () => {
    const events = Array.from({ length: 300_000 }, (_, i) => ({ kind: 'assistant', text: 'ok', ts: T + i }));
    const session = { agent: 'pi', id: 's3', file: '/t/s3.jsonl', cwd: '/nowhere/proj', stamp: 'e', startedAt: T + 5, events } as unknown as Session;
    const w = sessionWrite(session, cards, { size: 10, mtimeMs: T });
    expect(w.createdAt).toBe(T);
    expect(w.updatedAt).toBe(T + 299_999);
  });
});
