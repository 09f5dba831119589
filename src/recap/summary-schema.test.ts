import { describe, expect, it } from 'vitest';
import { extractJsonObject, kebabName, parseModelSummary } from './summary-schema.js';

const good = { name: 'Billing: fix rounding!', description: 'Fix the rounding of invoice totals', summary: 'The user asked to fix rounding in src/billing/total.ts. The agent changed roundHalfEven and `npm test` passed (42 tests).', tags: ['TypeScript', '#billing', 'typescript'], next: 'Open a PR for the fix.' };

describe('parseModelSummary', () => {
  it('accepts a bare JSON object and normalizes it', () => {
    const r = parseModelSummary(JSON.stringify(good));
    expect(r).toEqual({ ok: true, value: { name: 'billing-fix-rounding', description: good.description, summary: good.summary, tags: ['typescript', 'billing'], next: good.next } });
  });

  it('finds the object inside a code fence with prose and reasoning around it', () => {
    const out = `<think>{"name": "hidden"}</think>Here you go:\n\`\`\`json\n${JSON.stringify(good, null, 2)}\n\`\`\`\nHope this helps {really}.`;
    const r = parseModelSummary(out);
    expect(r.ok && r.value.name).toBe('billing-fix-rounding');
  });

  it('rejects an answer without JSON, broken JSON, and missing keys with one clear line', () => {
    expect(parseModelSummary('I cannot do that.')).toEqual({ ok: false, error: 'Expected a JSON object in the answer, got none' });
    const broken = parseModelSummary('{"name": "a-b",');
    expect(broken.ok).toBe(false);
    const missing = parseModelSummary(JSON.stringify({ ...good, next: undefined }));
    expect(missing.ok === false && missing.error).toMatch(/next/);
  });

  it.each([
    ['an empty summary', { summary: '' }, /summary/],
    ['a template name', { name: '<name>' }, /name/],
    ['dots for a description', { description: '...' }, /description/],
    ['TODO as the next step', { next: 'TODO' }, /next/],
    ['only placeholder tags', { tags: ['tag1', '', '...'] }, /tags/],
    ['a name of symbols only', { name: '!!! ???' }, /name/],
    ['tags as a string', { tags: 'billing' }, /tags/],
  ])('rejects %s', (_what, over, field) => {
    const r = parseModelSummary(JSON.stringify({ ...good, ...over }));
    expect(r.ok).toBe(false);
    expect(r.ok === false && r.error).toMatch(field);
  });

  it('keeps over-long texts on one line within their budgets instead of asking again', () => {
    const r = parseModelSummary(JSON.stringify({ ...good, description: `line one\nline two ${'word '.repeat(60)}`, tags: Array.from({ length: 10 }, (_, i) => `t${i}`) }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.description).not.toMatch(/\n/);
    expect(r.value.description.length).toBeLessThanOrEqual(120);
    expect(r.value.description.endsWith('…')).toBe(true);
    expect(r.value.tags).toHaveLength(6);
  });
});

describe('kebabName', () => {
  it('makes lowercase ASCII kebab-case and cuts at a whole word', () => {
    expect(kebabName('Café Déjà-vu  Parser')).toBe('cafe-deja-vu-parser');
    expect(kebabName('alpha beta gamma delta', 16)).toBe('alpha-beta-gamma');
    expect(kebabName('日本語')).toBe('');
  });
});

describe('extractJsonObject', () => {
  it('prefers a fenced object over braces in the prose', () => {
    expect(extractJsonObject('use {x} then\n```\n{"a":1}\n```')).toBe('{"a":1}');
    expect(extractJsonObject('no braces')).toBeUndefined();
  });
});
