import { describe, expect, it } from 'vitest';
import type { OwnRecapRule } from '../types.js';
import { freshOwnRecap, OWN_RECAP_MAKE_MS, ownRecapCovers, ownRecapDueAt, ownRecapEligible, ownRecapFacts, ownRecapLine, recapFromOwn } from './own-recap.js';
import type { Recap, RecapEvent } from './types.js';

// The rules as the adapters declare them (docs/agent-recaps.md), repeated here so a change is a decision.
const CLAUDE: OwnRecapRule = { when: 'while-away', delayMs: 180_000, from: 'turn-end', minBlurMs: 2000, staleAfterMs: 270_000, counts: 'user-messages', minCount: 3, minSinceLast: 2, writes: true };
const CODEX: OwnRecapRule = { when: 'while-away', delayMs: 30 * 60_000, from: 'turn-or-blur', counts: 'turns', minCount: 3, minSinceLast: 2, writes: false };
const QWEN: OwnRecapRule = { when: 'on-return', delayMs: 5 * 60_000, counts: 'prompts', minCount: 3, minSinceLast: 2, writes: true };

const T = 1_800_000_000_000;
const u = (text: string, ts?: number): RecapEvent => ({ kind: 'user', text, ts });
const tr = (ts?: number): RecapEvent => ({ kind: 'tool-result', ok: true, text: 'ok', ts });
const said = (text: string, ts?: number): RecapEvent => ({ kind: 'assistant', text, ts });
const end = (ts: number): RecapEvent => ({ kind: 'turn-end', ts });
const own = (text: string, ts?: number): RecapEvent => ({ kind: 'agent-recap', text, ts, sourceId: `own-${ts}` });
/** n turns of a prompt, a tool result and an answer; the last ends at `endAt`. */
function turns(n: number, endAt = T): RecapEvent[] {
  const out: RecapEvent[] = [];
  for (let i = 0; i < n; i++) {
    const at = endAt - (n - 1 - i) * 60_000;
    out.push(u(`prompt ${i}`, at - 5000), tr(at - 3000), said(`answer ${i}`, at - 1000), end(at));
  }
  return out;
}

describe('freshOwnRecap: the agent’s own recap no turn followed', () => {
  it('is the last own recap when only turn ends, titles, model changes follow it', () => {
    expect(freshOwnRecap([...turns(1), own('Goal: x. Next: y.', T + 1)])).toEqual({ text: 'Goal: x. Next: y.', ts: T + 1, sourceId: `own-${T + 1}` });
    expect(freshOwnRecap([...turns(1), own('r', T + 1), { kind: 'title', text: 't' }, { kind: 'model', model: 'm' }, end(T + 2)])?.text).toBe('r');
  });

  it('is stale once a prompt, an answer, a tool call, an error or an exit follows it', () => {
    for (const after of [u('next'), said('more'), { kind: 'tool-call', name: 'Bash', args: '', paths: [] } as RecapEvent, { kind: 'error', text: 'e' } as RecapEvent, { kind: 'aborted' } as RecapEvent, { kind: 'exit' } as RecapEvent, { kind: 'summary', source: 'compaction', text: 's' } as RecapEvent]) {
      expect(freshOwnRecap([...turns(1), own('r', T + 1), after]), after.kind).toBeUndefined();
    }
  });

  it('is none without one, and an empty one is none', () => {
    expect(freshOwnRecap(turns(2))).toBeUndefined();
    expect(freshOwnRecap([...turns(1), own('  ', T + 1)])).toBeUndefined();
    expect(freshOwnRecap([])).toBeUndefined();
  });
});

describe('ownRecapFacts and eligibility', () => {
  it('counts user messages (prompts and tool results), prompts or turns; since the last own recap; the last turn end', () => {
    const events = [...turns(2), own('r', T + 1), ...turns(1, T + 120_000)];
    expect(ownRecapFacts(events, 'user-messages')).toEqual({ turnEndAt: T + 120_000, count: 6, sinceLast: 2, anyOwn: true });
    expect(ownRecapFacts(events, 'prompts')).toMatchObject({ count: 3, sinceLast: 1 });
    expect(ownRecapFacts(events, 'turns')).toMatchObject({ count: 3, sinceLast: 1 });
    // A slash command or a message typed mid-turn is not a prompt Qwen counts.
    expect(ownRecapFacts([{ kind: 'user', text: '/recap', command: true }, { kind: 'user', text: 'and lint', midTurn: true }], 'prompts').count).toBe(0);
  });

  it('a prompt after the last turn end: the turn is open (no turn end to count from)', () => {
    expect(ownRecapFacts([...turns(1), u('again', T + 10)]).turnEndAt).toBeUndefined();
  });

  it('Claude: 3 user messages; 2 since its last recap; none right after one', () => {
    expect(ownRecapEligible(CLAUDE, ownRecapFacts([u('a'), tr()], 'user-messages'))).toBe(false);
    expect(ownRecapEligible(CLAUDE, ownRecapFacts(turns(2), 'user-messages'))).toBe(true);
    expect(ownRecapEligible(CLAUDE, ownRecapFacts([...turns(2), own('r', T + 1)], 'user-messages'))).toBe(false);
    expect(ownRecapEligible(CLAUDE, ownRecapFacts([...turns(2), own('r', T + 1), u('x'), end(T + 9)], 'user-messages'))).toBe(false);
    expect(ownRecapEligible(CLAUDE, ownRecapFacts([...turns(2), own('r', T + 1), ...turns(1, T + 60_000)], 'user-messages'))).toBe(true);
  });

  it('an agent that does not write its recap: the caller’s count since the last return it covered', () => {
    const facts = ownRecapFacts(turns(5), 'turns');
    expect(ownRecapEligible(CODEX, facts)).toBe(true);
    expect(ownRecapEligible(CODEX, facts, 1)).toBe(false);
    expect(ownRecapEligible(CODEX, facts, 2)).toBe(true);
  });
});

describe('ownRecapDueAt and ownRecapCovers', () => {
  const claudeFacts = ownRecapFacts(turns(2), 'user-messages'); // last turn ended at T

  it('Claude: 3 minutes after the turn end while away, at least 2 s after the blur; none when its cache is cold by then', () => {
    expect(ownRecapDueAt(CLAUDE, claudeFacts, T + 1000)).toBe(T + 180_000);
    expect(ownRecapDueAt(CLAUDE, claudeFacts, T + 200_000)).toBe(T + 202_000);
    expect(ownRecapDueAt(CLAUDE, claudeFacts, T + 268_000)).toBe(T + 270_000);
    expect(ownRecapDueAt(CLAUDE, claudeFacts, T + 268_001)).toBeUndefined();
    expect(ownRecapDueAt(CLAUDE, ownRecapFacts(turns(1), 'user-messages'), T)).toBeUndefined(); // 2 user messages
    expect(ownRecapDueAt(CLAUDE, ownRecapFacts([...turns(2), u('go')], 'user-messages'), T)).toBeUndefined(); // mid-turn
  });

  it('Claude: a return covers when it made its recap before (and had the time to); shorter returns do not', () => {
    expect(ownRecapCovers(CLAUDE, claudeFacts, T + 1000, T + 240_000)).toBe(true);
    expect(ownRecapCovers(CLAUDE, claudeFacts, T + 1000, T + 180_000 + OWN_RECAP_MAKE_MS)).toBe(true);
    expect(ownRecapCovers(CLAUDE, claudeFacts, T + 1000, T + 180_000 + OWN_RECAP_MAKE_MS - 1)).toBe(false);
    expect(ownRecapCovers(CLAUDE, claudeFacts, T + 1000, T + 60_000)).toBe(false);
    // Left long after the turn ended: its cache was cold, it made none.
    expect(ownRecapCovers(CLAUDE, claudeFacts, T + 600_000, T + 1_200_000)).toBe(false);
  });

  it('Codex: 30 minutes after the later of the turn end and the blur, 3 completed turns', () => {
    const facts = ownRecapFacts(turns(3), 'turns');
    expect(ownRecapDueAt(CODEX, facts, T + 60_000)).toBe(T + 60_000 + 30 * 60_000);
    expect(ownRecapCovers(CODEX, facts, T + 60_000, T + 60_000 + 31 * 60_000)).toBe(true);
    expect(ownRecapCovers(CODEX, facts, T + 60_000, T + 60_000 + 29 * 60_000)).toBe(false);
    expect(ownRecapCovers(CODEX, ownRecapFacts(turns(2), 'turns'), T, T + 3_600_000)).toBe(false);
  });

  it('Qwen: a return after its threshold, 3 prompts, 2 since its last recap', () => {
    const facts = ownRecapFacts(turns(3), 'prompts');
    expect(ownRecapDueAt(QWEN, facts, T)).toBeUndefined(); // made on the return, not while away
    expect(ownRecapCovers(QWEN, facts, T, T + 5 * 60_000)).toBe(true);
    expect(ownRecapCovers(QWEN, facts, T, T + 5 * 60_000 - 1)).toBe(false);
    expect(ownRecapCovers(QWEN, ownRecapFacts([...turns(3), own('r', T + 1), ...turns(1, T + 60_000)], 'prompts'), T + 60_000, T + 3_600_000)).toBe(false);
    expect(ownRecapCovers(QWEN, ownRecapFacts([...turns(3), own('r', T + 1), ...turns(2, T + 120_000)], 'prompts'), T + 120_000, T + 3_600_000)).toBe(true);
  });
});

describe('an own recap as a Recap', () => {
  it('a one-line recap line: the label, control characters out, fitted to 220 chars', () => {
    expect(ownRecapLine('Goal: x.\nNext action: y.')).toBe('recap: Goal: x. Next action: y.');
    expect(ownRecapLine('recap: the agent wrote it. Next: check it.')).toBe('recap: the agent wrote it. Next: check it.');
    expect(ownRecapLine('※ Recap: done.')).toBe('recap: done.');
    expect(ownRecapLine('a\u001b[31mred\u0007 b')).not.toMatch(/[\u0000-\u001f]/);
    const long = ownRecapLine(`${'word '.repeat(80)}Next: ship it.`);
    expect(long.length).toBeLessThanOrEqual(220);
  });

  it('takes the line and generator over the heuristic card; its time is the record’s', () => {
    const heuristic = { line: 'recap: h', headline: 'h', done: ['d'], next: ['n'], artifacts: [], status: 'waiting', language: 'en', generator: { type: 'heuristic' }, session: { agent: 'claude', id: 'i', file: 'f' }, stamp: 's', createdAt: 'x', parts: { state: 's', outcome: [], next: '' } } satisfies Recap;
    const r = recapFromOwn(heuristic, { text: 'Goal: g. Next: n.', ts: T }, 'claude');
    expect(r).toMatchObject({ line: 'recap: Goal: g. Next: n.', generator: { type: 'agent', agent: 'claude', own: true }, headline: 'h', done: ['d'], createdAt: new Date(T).toISOString() });
    expect(r.parts).toBeUndefined();
  });
});
