import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPresent, RECAP_CORPUS_DIR, TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import type { SessionSnapshot } from '../types.js';
import { createGeminiParser, parseGeminiWhole } from './parse.js';

function parseLines(lines: string[]): SessionSnapshot {
  const p = createGeminiParser();
  for (const l of lines) p.push(l);
  return p.snapshot();
}
const FIXTURE = join(TRANSCRIPTS_DIR, 'gemini', 'print-2turns.jsonl');
const count = (s: SessionSnapshot) => s.events.reduce<Record<string, number>>((c, e) => ((c[e.kind] = (c[e.kind] ?? 0) + 1), c), {});
const users = (s: SessionSnapshot) => s.events.flatMap((e) => (e.kind === 'user' ? [e.text] : []));
const texts = (s: SessionSnapshot) => s.events.flatMap((e) => (e.kind === 'assistant' ? [e.text] : []));
const meta = JSON.stringify({ sessionId: '11111111-2222-3333-4444-555555555555', projectHash: 'ab', startTime: '2026-11-22T08:00:00.000Z', lastUpdated: '2026-11-22T08:00:00.000Z', kind: 'main' });
const msg = (id: string, type: string, content: unknown, extra: object = {}) => JSON.stringify({ id, timestamp: '2026-11-22T08:00:01.000Z', type, content, ...extra });
const call = (id: string, name: string, args: object, status: string, output: object) => ({
  id, name, args, status, timestamp: '2026-11-22T08:00:02.000Z',
  result: [{ functionResponse: { id, name, response: output } }],
});

describe('gemini parser on real files', () => {
  it('0.61 JSONL, two turns with a resume: checkpoints replayed, tool results once', () => {
    const s = parseLines(readFileSync(FIXTURE, 'utf8').split('\n'));
    expect(s.id).toBe('77bca096-2477-41aa-bc0d-e5db47c15396');
    expect(s.cwd).toBe('/home/dev/proj/gemini-print');
    expect(s.title).toBeUndefined(); // no $set.summary in this run (the title rule is tested below)
    expect(s.model).toBe('gemini-2.5-flash');
    expect(s.skipped).toBe(0);
    // The injected <session_context> is not a prompt; the duplicate `_response` record adds no result.
    expect(users(s)).toEqual(['List the files here', 'Please list them again']);
    expect(count(s)).toEqual({ user: 2, thinking: 2, assistant: 4, 'tool-call': 2, 'tool-result': 2, 'turn-end': 2, model: 1 });
    expect(s.events.at(-1)).toMatchObject({ kind: 'turn-end' });
    expect(texts(s).at(-1)).toMatch(/^Done: hello\.txt/);
  });

  it('fed line by line as it is written, the same session as a whole read, stamps changing as it grows', () => {
    const lines = readFileSync(FIXTURE, 'utf8').split('\n');
    const p = createGeminiParser();
    const stamps = new Set<string>();
    for (const l of lines) {
      p.push(l);
      stamps.add(p.snapshot().stamp);
    }
    expect(p.snapshot()).toEqual(parseLines(lines));
    expect(stamps.size).toBeGreaterThan(10);
  });

  it.skipIf(!corpusPresent)('the pre-0.39 single JSON document from the corpus (whole, and pretty-printed line by line)', () => {
    const content = readFileSync(join(RECAP_CORPUS_DIR, 'gemini', 'figma-dashstack.json'), 'utf8');
    const s = parseGeminiWhole(content);
    expect(s.id).toBe('7befeae5-6b85-4b89-a3e3-c161793cc484');
    expect(s.model).toBe('gemini-3-pro-preview');
    expect(count(s)).toEqual({ user: 1, model: 1, thinking: 63, assistant: 1, 'tool-call': 62, 'tool-result': 62, 'turn-end': 1 });
    const failed = s.events.flatMap((e) => (e.kind === 'tool-result' && !e.ok ? [e.name] : []));
    expect(failed).toEqual(['activate_skill', 'push_files']);
    expect(users(s)[0]).toMatch(/^You are an expert frontend software engineer/);
    const writes = s.events.flatMap((e) => (e.kind === 'tool-call' && e.name === 'write_file' ? e.paths : []));
    expect(writes).toHaveLength(14);
    expect(s.events.filter((e) => e.kind === 'tool-call' && e.command).length).toBe(14);
    // A live file of that format arrives as lines: the same session.
    const live = parseLines(content.split('\n'));
    expect(live.events).toEqual(s.events);
    expect(live.skipped).toBe(0);
  });
});

describe('gemini parser rules', () => {
  it('a re-appended id replaces the message in place (last wins): the early copy without tool calls is not a turn end', () => {
    const first = msg('g1', 'gemini', 'Writing it.', { model: 'gemini-2.5-pro' });
    const again = msg('g1', 'gemini', 'Writing it.', { model: 'gemini-2.5-pro', toolCalls: [call('c1', 'write_file', { file_path: 'hello.txt', content: 'hi' }, 'success', { output: 'Wrote hello.txt' })] });
    const early = parseLines([meta, msg('u1', 'user', [{ text: 'please create hello.txt' }]), first]);
    expect(early.events.at(-1)).toMatchObject({ kind: 'turn-end' });
    const s = parseLines([meta, msg('u1', 'user', [{ text: 'please create hello.txt' }]), first, again,
      msg('u2', 'user', [{ functionResponse: { id: 'c1', name: 'write_file', response: { output: 'Wrote hello.txt' } } }]),
      msg('g2', 'gemini', 'Done: hello.txt', { model: 'gemini-2.5-pro' })]);
    expect(s.events.map((e) => e.kind)).toEqual(['user', 'model', 'assistant', 'tool-call', 'tool-result', 'assistant', 'turn-end']);
    expect(s.events.find((e) => e.kind === 'tool-call')).toMatchObject({ name: 'write_file', paths: ['hello.txt'] });
    expect(early.stamp).not.toBe(s.stamp);
  });

  it('$rewindTo drops that message and all after it; an unknown id clears everything, as Gemini does', () => {
    const base = [meta, msg('u1', 'user', 'first'), msg('g1', 'gemini', 'one'), msg('u2', 'user', 'second'), msg('g2', 'gemini', 'two')];
    expect(users(parseLines([...base, JSON.stringify({ $rewindTo: 'u2' }), msg('u3', 'user', 'second, again')]))).toEqual(['first', 'second, again']);
    expect(users(parseLines([...base, JSON.stringify({ $rewindTo: 'nope' })]))).toEqual([]);
  });

  it('$set.messages is a checkpoint: clear, then rebuild; other $set keys are metadata', () => {
    const s = parseLines([meta, msg('u1', 'user', 'old'), JSON.stringify({ $set: { messages: [{ id: 'u9', type: 'user', content: [{ text: 'kept' }] }], lastUpdated: '2026-11-22T09:00:00.000Z' } }), JSON.stringify({ $set: { memoryScratchpad: { version: 1 } } })]);
    expect(users(s)).toEqual(['kept']);
    expect(s.updatedAt).toBe(Date.parse('2026-11-22T09:00:00.000Z'));
    expect(s.skipped).toBe(0);
  });

  it('what a person typed: displayContent over the expanded content, @-file contents cut, commands as commands, injected context left out', () => {
    const s = parseLines([
      meta,
      msg('u1', 'user', [{ text: 'explain @a.ts' }, { text: '\n--- Content from referenced files ---\nexport const a = 1;' }]),
      msg('u2', 'user', [{ text: 'look at the expanded thing' }], { displayContent: [{ text: 'look at @b.ts' }] }),
      msg('u3', 'user', '/stats'),
      msg('u4', 'user', [{ text: '<hook_context>injected</hook_context>' }]),
      msg('u5', 'user', [{ text: 'System: Please continue.' }]),
      msg('u6', 'user', '/quit'),
    ]);
    expect(users(s)).toEqual(['explain @a.ts', 'look at @b.ts', '/stats', '/quit']);
    expect(s.events.filter((e) => e.kind === 'user' && e.command).length).toBe(2);
    expect(s.events.at(-1)).toMatchObject({ kind: 'exit', text: '/quit' });
  });

  it('errors, cancelled requests and cancelled tool calls; warnings and other notices are quiet', () => {
    const s = parseLines([
      meta,
      msg('u1', 'user', 'run the tests'),
      msg('g1', 'gemini', '', { toolCalls: [call('c1', 'run_shell_command', { command: 'npm test' }, 'cancelled', { error: 'cancelled by user' })] }),
      msg('i1', 'info', 'Request cancelled.'),
      msg('w1', 'warning', 'Loop detected'),
      msg('i2', 'info', 'Memory refreshed'),
      msg('e1', 'error', '[API Error: 429 Resource exhausted]'),
    ]);
    expect(s.events.map((e) => e.kind)).toEqual(['user', 'tool-call', 'tool-result', 'aborted', 'aborted', 'error']);
    expect(s.events.find((e) => e.kind === 'tool-call')).toMatchObject({ command: 'npm test' });
    expect(s.events.at(-1)).toMatchObject({ kind: 'error', text: '[API Error: 429 Resource exhausted]' });
  });

  it('never throws: bad JSON, unknown records and message types, huge outputs are counted or clipped', () => {
    const huge = 'x'.repeat(2_000_000);
    const s = parseLines([
      meta, 'not json', '[1,2]', JSON.stringify({ something: 1 }), msg('q1', 'mystery', 'what'), '',
      msg('g1', 'gemini', 'reading', { toolCalls: [call('c1', 'read_file', { file_path: 'big.log' }, 'success', { output: huge })] }),
      msg('g1b', 'gemini', 'x', { toolCalls: 'not a list', thoughts: [null, { subject: 7 }] }),
    ]);
    expect(s.skipped).toBe(4);
    const result = s.events.find((e) => e.kind === 'tool-result');
    expect(result && result.kind === 'tool-result' && result.text.length).toBeLessThanOrEqual(600);
  });

  it('the title is a $set.summary; a new one replaces it', () => {
    const s = parseLines([meta, msg('u1', 'user', 'hi'), JSON.stringify({ $set: { summary: 'First title' } }), JSON.stringify({ $set: { summary: 'Better title' } })]);
    expect(s.title).toBe('Better title');
    expect(s.events.filter((e) => e.kind === 'title')).toEqual([expect.objectContaining({ text: 'Better title' })]);
  });
});

describe('gemini: compression keeps the history (#16)', () => {
  it('a checkpoint opening with a <state_snapshot> keeps what came before, the snapshot as the summary', () => {
    const checkpoint = (messages: object[]) => JSON.stringify({ $set: { messages } });
    const s = parseLines([
      meta,
      msg('u1', 'user', 'first request'),
      msg('g1', 'gemini', 'done one'),
      checkpoint([
        { id: 'n1', type: 'user', content: [{ text: '<state_snapshot>\n<overall_goal>first request</overall_goal>\n</state_snapshot>' }] },
        { id: 'n2', type: 'gemini', content: [{ text: 'Got it. Thanks for the additional context!' }] },
      ]),
      checkpoint([
        { id: 'm1', type: 'user', content: [{ text: '<state_snapshot>second</state_snapshot>' }] },
        { id: 'm2', type: 'gemini', content: [{ text: 'Got it.' }] },
      ]),
      msg('u2', 'user', 'second request'),
    ]);
    expect(users(s)).toEqual(['first request', 'second request']);
    expect(s.events.filter((e) => e.kind === 'summary').map((e) => (e as { text: string }).text)).toEqual([
      '<state_snapshot>\n<overall_goal>first request</overall_goal>\n</state_snapshot>',
      '<state_snapshot>second</state_snapshot>',
    ]);
    // A checkpoint that is no compression (resume, /restore) still replaces the messages.
    const restored = parseLines([meta, msg('u1', 'user', 'old'), checkpoint([{ id: 'u9', type: 'user', content: [{ text: 'kept' }] }])]);
    expect(users(restored)).toEqual(['kept']);
  });
});

describe('gemini: a call waiting for the user’s confirmation', () => {
  it('is marked as needing approval until it is recorded again with its result', () => {
    const waiting = parseLines([meta, msg('u1', 'user', 'delete the build'), msg('g1', 'gemini', '', { toolCalls: [{ id: 'c1', name: 'run_shell_command', args: { command: 'rm -rf build' }, status: 'awaiting_approval' }] })]);
    expect(waiting.events.find((e) => e.kind === 'tool-call')).toMatchObject({ approval: true });
    expect(waiting.events.some((e) => e.kind === 'tool-result')).toBe(false);
    const done = parseLines([meta, msg('u1', 'user', 'delete the build'), msg('g1', 'gemini', '', { toolCalls: [call('c1', 'run_shell_command', { command: 'rm -rf build' }, 'success', { output: '' })] })]);
    expect(done.events.find((e) => e.kind === 'tool-call')).not.toHaveProperty('approval');
  });
});
