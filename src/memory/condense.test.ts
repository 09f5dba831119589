import { describe, expect, it } from 'vitest';
import { appendCondensed, condenseEvents, countsOf, tagsOf, taskOf } from './condense.js';
import type { MemoryEvent } from './types.js';

const events: MemoryEvent[] = [
  { kind: 'user', text: '/init' },
  { kind: 'user', text: 'add a retry to the uploader' },
  { kind: 'thinking', text: 'secret reasoning' },
  { kind: 'assistant', text: 'I will add the retry.' },
  { kind: 'tool-call', name: 'bash', args: '', command: 'npm test', paths: [], callId: 'c1' },
  { kind: 'tool-result', ok: false, text: 'FAIL src/upload.test.ts\n  long output body that stays out', callId: 'c1' },
  { kind: 'tool-call', name: 'edit', args: '', paths: ['src/upload.ts'], callId: 'c2' },
  { kind: 'tool-result', ok: true, text: 'edited', callId: 'c2' },
  { kind: 'turn-end' },
];

describe('condensed text', () => {
  it('has prompts, prose, commands with a one-line outcome and files; no reasoning, no output bodies', () => {
    const text = condenseEvents(events);
    expect(text).toContain('> add a retry to the uploader');
    expect(text).toContain('I will add the retry.');
    expect(text).toContain('$ npm test → failed: FAIL src/upload.test.ts');
    expect(text).toContain('file: src/upload.ts');
    expect(text).not.toContain('secret reasoning');
    expect(text).not.toContain('long output body');
  });

  it('keeps every prompt when over the cap: prose from the middle goes first', () => {
    const long: MemoryEvent[] = [];
    for (let i = 0; i < 200; i++) long.push({ kind: 'user', text: `prompt number ${i} about topic${i}` }, { kind: 'assistant', text: 'x'.repeat(500) });
    const text = condenseEvents(long, 10_000);
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(text).toContain('topic0');
    expect(text).toContain('topic199');
    expect(text).toContain('topic100');
  });

  it('counts, tags and the task', () => {
    expect(countsOf(events)).toEqual({ prompts: 2, turns: 1, toolCalls: 2 });
    expect(tagsOf(events)).toEqual(['typescript', 'tests']);
    expect(taskOf(events)).toBe('add a retry to the uploader');
  });
});

describe('appendCondensed', () => {
  it('joins, and past the cap keeps the start and the newest part', () => {
    expect(appendCondensed('> a', '> b')).toBe('> a\n> b');
    const before = Array.from({ length: 100 }, (_, i) => `> old ${i}`).join('\n');
    const out = appendCondensed(before, '> the newest line', 300);
    expect(out.length).toBeLessThanOrEqual(300);
    expect(out.startsWith('> old 0\n')).toBe(true);
    expect(out.endsWith('> the newest line')).toBe(true);
    expect(out).toContain('\n…\n');
  });
});
