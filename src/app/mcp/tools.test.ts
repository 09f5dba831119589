// The tool layer against a small in-memory memory (the collaborator is faked; the handlers are real).
import { describe, expect, it } from 'vitest';
import type { McpMemory, SearchHit, SessionCard, SessionFilter, SessionRow } from './memory-port.js';
import {
  ToolError, getSession, listSessions, parseSince, querySession, resolveSession, searchSessions,
  QUESTION_CONTEXT_MAX_CHARS, type AnswerResult, type QuestionInput, type ToolContext,
} from './tools.js';

const NOW = Date.parse('2026-11-25T12:00:00Z');

function row(id: string, name: string, over: Partial<SessionRow> = {}): SessionRow {
  return {
    id, agent: 'claude', cwd: '/w/billing', project: 'billing', name, headline: `${name} headline`,
    createdAt: '2026-11-20T10:00:00Z', updatedAt: '2026-11-24T10:00:00Z', transcript: `/t/${id}.jsonl`, transcriptExists: true,
    counts: { prompts: 3, turns: 3, toolCalls: 5 }, status: 'idle', tags: [], generator: { type: 'heuristic' }, userNamed: false, ...over,
  };
}

class FakeMemory implements McpMemory {
  refreshed = 0;
  calls: Array<{ fn: string; filter?: SessionFilter; ref?: string; cwd?: string }> = [];
  constructor(readonly rows: SessionRow[], readonly texts: Record<string, string> = {}) {}
  async refresh() {
    this.refreshed++;
    return {};
  }
  list(filter: SessionFilter = {}) {
    this.calls.push({ fn: 'list', filter });
    return this.rows.filter((r) => (!filter.agent || r.agent === filter.agent) && (!filter.since || Date.parse(r.updatedAt) >= filter.since)).slice(0, filter.limit);
  }
  search(query: string, filter: SessionFilter = {}): SearchHit[] {
    this.calls.push({ fn: 'search', filter });
    return this.list(filter).filter((r) => (this.texts[r.id] ?? '').includes(query)).map((r) => ({ ...r, snippet: `…${query}…`, score: 1, matched: [query] }));
  }
  resolve(ref: string, opts?: { cwd?: string }) {
    this.calls.push({ fn: 'resolve', ref, cwd: opts?.cwd });
    const name = ref.replace(/^@@/, '');
    const exact = this.rows.filter((r) => r.id === name || r.name === name);
    if (exact.length === 1) return { ok: true as const, row: exact[0] as SessionRow };
    const prefix = this.rows.filter((r) => r.id.startsWith(name) || r.name.startsWith(name));
    if (prefix.length === 1) return { ok: true as const, row: prefix[0] as SessionRow };
    return { ok: false as const, kind: prefix.length > 1 ? ('ambiguous' as const) : ('none' as const), candidates: prefix };
  }
  card(id: string): SessionCard | undefined {
    const r = this.rows.find((x) => x.id === id);
    return r && { ...r, done: ['did a thing'], next: ['do the next thing'], artifacts: [], line: 'recap: did a thing', language: 'en', resumeCommand: ['claude', '--resume', id] };
  }
  passages(id: string, question: string, limit = 6) {
    return (this.texts[id] ?? '').split('\n\n').filter((p) => question.split(' ').some((w) => p.includes(w))).slice(0, limit);
  }
  condensedText(id: string) {
    return this.texts[id] ?? '';
  }
  close() {}
}

function ctx(memory: FakeMemory, answerer: ToolContext['answerer'] = { unavailable: 'pastGenerator is heuristic' }): ToolContext {
  return { memory: async () => memory, cwd: '/w/billing', now: () => NOW, answerer };
}

const ROWS = [
  row('aaaa1111', 'billing-fk-fix', { updatedAt: '2026-11-25T11:00:00Z' }),
  row('aaaa2222', 'billing-schema', { agent: 'codex', updatedAt: '2026-11-10T11:00:00Z' }),
  row('bbbb3333', 'auth-refactor', { cwd: '/w/auth', transcriptExists: false }),
];
const TEXTS = { aaaa1111: 'we moved invoices to v2\n\nthe foreign key on line 142 still fails', bbbb3333: 'decided: keep JWT, drop sessions table' };

describe('parseSince', () => {
  it('reads ages and ISO dates, and refuses anything else', () => {
    expect(parseSince('3d', NOW)).toBe(NOW - 3 * 86_400_000);
    expect(parseSince('12H', NOW)).toBe(NOW - 12 * 3_600_000);
    expect(parseSince('2w', NOW)).toBe(NOW - 14 * 86_400_000);
    expect(parseSince('0d', NOW)).toBeUndefined();
    expect(parseSince('2026-11-20', NOW)).toBe(Date.parse('2026-11-20'));
    for (const bad of ['yesterday', '3', 'd3', '2026-13-45', '-1d', '']) expect(parseSince(bad, NOW), bad).toBeUndefined();
  });
});

describe('list_sessions', () => {
  it('passes agent, folder (resolved against the server folder), since and limit to the memory', async () => {
    const m = new FakeMemory(ROWS);
    const out = (await listSessions({ agent: 'claude', folder: '.', since: '7d', limit: 5 }, ctx(m))) as { count: number; sessions: Array<{ name: string; folder: string }> };
    expect(m.calls[0]?.filter).toEqual({ agent: 'claude', folder: '/w/billing', since: NOW - 7 * 86_400_000, limit: 5 });
    expect(out.sessions.map((s) => s.name)).toEqual(['billing-fk-fix', 'auth-refactor']);
    expect(out.count).toBe(2);
  });

  it('defaults to 20 sessions and says when a transcript is gone', async () => {
    const m = new FakeMemory(ROWS);
    const out = (await listSessions({}, ctx(m))) as { sessions: Array<Record<string, unknown>> };
    expect(m.calls[0]?.filter).toEqual({ limit: 20 });
    expect(out.sessions.find((s) => s.name === 'auth-refactor')?.transcriptGone).toBe(true);
    expect(out.sessions.find((s) => s.name === 'billing-fk-fix')).not.toHaveProperty('transcriptGone');
  });

  it('turns a bad `since` into a tool error before touching the memory', async () => {
    const m = new FakeMemory(ROWS);
    await expect(listSessions({ since: 'last week' }, ctx(m))).rejects.toThrow(new ToolError('Expected `since` to be an age like 30m, 12h, 3d or 2w, or an ISO date, got `last week`'));
    expect(m.calls).toEqual([]);
  });
});

describe('search_sessions', () => {
  it('returns hits with their snippet, and a hint when nothing matches', async () => {
    const m = new FakeMemory(ROWS, TEXTS);
    const hit = (await searchSessions({ query: ' foreign key ' }, ctx(m))) as { query: string; sessions: Array<{ name: string; snippet: string }> };
    expect(hit.query).toBe('foreign key');
    expect(hit.sessions).toEqual([expect.objectContaining({ name: 'billing-fk-fix', snippet: '…foreign key…' })]);
    expect(m.calls[0]?.filter).toEqual({ limit: 10 });
    const none = (await searchSessions({ query: 'kubernetes' }, ctx(m))) as { count: number; hint?: string };
    expect(none.count).toBe(0);
    expect(none.hint).toMatch(/No session contains these words/);
  });

  it('refuses a query of spaces', async () => {
    await expect(searchSessions({ query: '   ' }, ctx(new FakeMemory(ROWS)))).rejects.toBeInstanceOf(ToolError);
  });
});

describe('get_session', () => {
  it('resolves @@name in the server folder and returns the card', async () => {
    const m = new FakeMemory(ROWS);
    const card = (await getSession({ session: '@@billing-fk-fix' }, ctx(m))) as SessionCard & { folder: string };
    expect(m.calls.find((c) => c.fn === 'resolve')).toEqual({ fn: 'resolve', ref: '@@billing-fk-fix', cwd: '/w/billing' });
    expect(card.id).toBe('aaaa1111');
    expect(card.next).toEqual(['do the next thing']);
    expect(card.resumeCommand).toEqual(['claude', '--resume', 'aaaa1111']);
    expect(card.folder).toBe('/w/billing');
  });

  it('says when the transcript is gone', async () => {
    const card = (await getSession({ session: 'auth-refactor' }, ctx(new FakeMemory(ROWS)))) as { transcriptNote?: string };
    expect(card.transcriptNote).toMatch(/transcript file is gone/);
  });

  it('lists the candidates of an ambiguous reference, and names none for an unknown one', async () => {
    const m = new FakeMemory(ROWS);
    await expect(getSession({ session: 'aaaa' }, ctx(m))).rejects.toThrow(/"aaaa" matches 2 sessions; call again with one of these names or ids:\n- billing-fk-fix \(id aaaa1111, claude, \/w\/billing, 2026-11-25 11:00\)/);
    await expect(getSession({ session: 'nothing-like-it' }, ctx(m))).rejects.toThrow(/^No session matches "nothing-like-it"\. Try search_sessions/);
    await expect(getSession({ session: '@@' }, ctx(m))).rejects.toThrow(/Expected `session` to be/);
    await expect(getSession({ session: 'no\x1b[2Jthing' }, ctx(m))).rejects.toThrow(/^No session matches "nothing"/); // the escape sequence is not echoed
  });
});

describe('query_session', () => {
  it('returns labelled excerpts when no model is allowed', async () => {
    const out = (await querySession({ session: 'billing-fk-fix', question: 'foreign key' }, ctx(new FakeMemory(ROWS, TEXTS)), new AbortController().signal)) as Record<string, unknown>;
    expect(out.kind).toBe('excerpts');
    expect(out.note).toMatch(/^These are excerpts of the session, not an answer.*\(pastGenerator is heuristic\)/);
    expect(out.excerpts).toEqual(['the foreign key on line 142 still fails']);
    expect(out.session).toEqual(expect.objectContaining({ name: 'billing-fk-fix', id: 'aaaa1111' }));
  });

  it('asks the model with the session text when one is allowed', async () => {
    const asked: QuestionInput[] = [];
    const answerer = { ask: async (input: QuestionInput): Promise<AnswerResult> => (asked.push(input), { ok: true, text: 'JWT stays.', generator: { type: 'openai', model: 'm' } }) };
    const out = (await querySession({ session: 'auth-refactor', question: 'what did we decide?' }, ctx(new FakeMemory(ROWS, TEXTS), answerer), new AbortController().signal)) as Record<string, unknown>;
    expect(out).toEqual(expect.objectContaining({ kind: 'answer', answer: 'JWT stays.', generator: { type: 'openai', model: 'm' } }));
    expect(asked[0]?.text).toBe(TEXTS.bbbb3333);
    expect(asked[0]?.card.id).toBe('bbbb3333');
  });

  it('sends a long session only in part, and falls back to excerpts when the model fails', async () => {
    const long = Array.from({ length: 400 }, (_, i) => `passage ${i} about ${i === 7 ? 'the deploy key' : 'nothing much'} ${'x'.repeat(100)}`).join('\n\n');
    const asked: QuestionInput[] = [];
    const answerer = { ask: async (input: QuestionInput): Promise<AnswerResult> => (asked.push(input), { ok: false, error: 'HTTP 500' }) };
    const out = (await querySession({ session: 'billing-fk-fix', question: 'deploy' }, ctx(new FakeMemory(ROWS, { aaaa1111: long }), answerer), new AbortController().signal)) as Record<string, unknown>;
    expect(long.length).toBeGreaterThan(QUESTION_CONTEXT_MAX_CHARS);
    expect(asked[0]?.text.length).toBeLessThanOrEqual(QUESTION_CONTEXT_MAX_CHARS);
    expect(asked[0]?.text).toContain('the deploy key');
    expect(out.kind).toBe('excerpts');
    expect(out.note).toMatch(/the model failed \(HTTP 500\)/);
  });
});

describe('resolveSession', () => {
  it('returns the one row', () => {
    expect(resolveSession(new FakeMemory(ROWS), 'bbbb', '/').name).toBe('auth-refactor');
  });

  it('refuses a guess on a part of a name shorter than three characters', () => {
    const m = new FakeMemory(ROWS);
    // The memory's fuzzy step would take "x" for a name containing it.
    m.resolve = () => ({ ok: true as const, row: ROWS[2] as SessionRow });
    expect(() => resolveSession(m, 'x', '/')).toThrow(/^No session matches "x" by id or name/);
    expect(resolveSession(m, '@@auth', '/').name).toBe('auth-refactor');
    expect(resolveSession(m, 'bbbb', '/').name).toBe('auth-refactor'); // an id prefix is not a guess
    expect(() => resolveSession(m, 'bb', '/')).toThrow(/too short/); // the memory takes no prefix this short: a guess
  });
});
