import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPresent, RECAP_CORPUS_DIR, TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import type { SessionSnapshot, TranscriptEvent } from '../types.js';
import { createPiParser } from './parse.js';

function parseLines(lines: string[]): SessionSnapshot {
  const p = createPiParser();
  for (const l of lines) p.push(l);
  return p.snapshot();
}
const parseFile = (file: string) => parseLines(readFileSync(file, 'utf8').split('\n'));
const of = <K extends TranscriptEvent['kind']>(s: SessionSnapshot, kind: K) =>
  s.events.filter((e): e is Extract<TranscriptEvent, { kind: K }> => e.kind === kind);

// Expectations counted from the raw files (user prompts with text, toolCall parts, stopReason error/aborted/stop).
const CASES: Array<{ file: string; users: number; lastUser: string; toolCalls: number; errors: number; aborted: number; turnEnds: number }> = [
  { file: join(TRANSCRIPTS_DIR, 'pi/print-2turns.jsonl'), users: 2, lastUser: 'now list the files with ls', toolCalls: 2, errors: 0, aborted: 0, turnEnds: 2 },
  { file: join(TRANSCRIPTS_DIR, 'pi/interactive-2turns.jsonl'), users: 2, lastUser: 'now list the files with ls', toolCalls: 2, errors: 0, aborted: 0, turnEnds: 2 },
  { file: join(TRANSCRIPTS_DIR, 'pi/new-switch/first.jsonl'), users: 1, lastUser: 'please create hello.txt', toolCalls: 1, errors: 0, aborted: 0, turnEnds: 1 },
  { file: join(TRANSCRIPTS_DIR, 'pi/new-switch/second.jsonl'), users: 1, lastUser: 'now list the files with ls', toolCalls: 1, errors: 0, aborted: 0, turnEnds: 1 },
  { file: join(RECAP_CORPUS_DIR, 'pi/kimchi-harness-version.jsonl'), users: 6, lastUser: 'too frail for my tase tbh', toolCalls: 60, errors: 0, aborted: 0, turnEnds: 6 },
  { file: join(RECAP_CORPUS_DIR, 'pi/kimchi-statusline.jsonl'), users: 5, lastUser: '>  3. Modify uiExtension to check if a footer is already set', toolCalls: 49, errors: 0, aborted: 0, turnEnds: 5 },
  { file: join(RECAP_CORPUS_DIR, 'pi/pi-mono-selector-port-v1.jsonl'), users: 88, lastUser: 'yeah, do it all', toolCalls: 391, errors: 1, aborted: 21, turnEnds: 65 },
];

describe('pi parser on real files', () => {
  for (const c of CASES) {
    it.skipIf(c.file.startsWith(RECAP_CORPUS_DIR) && !corpusPresent)(c.file.split('/').slice(-2).join('/'), () => {
      const s = parseFile(c.file);
      const users = of(s, 'user');
      expect(users).toHaveLength(c.users);
      expect(users.at(-1)?.text.startsWith(c.lastUser)).toBe(true);
      expect(of(s, 'tool-call')).toHaveLength(c.toolCalls);
      expect(of(s, 'error')).toHaveLength(c.errors);
      expect(of(s, 'aborted')).toHaveLength(c.aborted);
      expect(of(s, 'turn-end')).toHaveLength(c.turnEnds);
      expect(s.agent).toBe('pi');
      expect(s.skipped).toBe(0);
    });
  }

  it('reads header, model, touched paths and commands', () => {
    const s = parseFile(join(TRANSCRIPTS_DIR, 'pi/print-2turns.jsonl'));
    expect(s.id).toBe('01a208c8-f9f9-7327-8f3d-28359f1049e4');
    expect(s.cwd).toBe('/home/dev/proj/pi-print');
    expect(s.model).toBe('fake-model');
    const calls = of(s, 'tool-call');
    expect(calls[0]).toMatchObject({ name: 'write', paths: ['hello.txt'] });
    expect(calls[1]).toMatchObject({ name: 'bash', command: 'ls', paths: [] });
    expect(of(s, 'tool-result').every((r) => r.ok)).toBe(true);
    expect(of(s, 'thinking').length).toBeGreaterThan(0);
  });
});

const h = (o: object) => JSON.stringify(o);
const HEADER = h({ type: 'session', version: 3, id: 'sess-1', timestamp: '2026-11-22T08:00:00.000Z', cwd: '/w' });
const msg = (id: string, parentId: string | null, message: object) => h({ type: 'message', id, parentId, timestamp: '2026-11-22T08:00:01.000Z', message });
const user = (id: string, parentId: string | null, text: string) => msg(id, parentId, { role: 'user', content: [{ type: 'text', text }] });
const said = (id: string, parentId: string | null, text: string) => msg(id, parentId, { role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' });

describe('pi active branch', () => {
  it('summarizes only the root→leaf path after a branch', () => {
    const s = parseLines([
      HEADER,
      user('u1', null, 'first task'),
      said('a1', 'u1', 'did the first'),
      user('u2', 'a1', 'abandoned direction'),
      said('a2', 'u2', 'went the wrong way'),
      h({ type: 'branch_summary', id: 'b1', parentId: 'a1', fromId: 'a2', summary: 'Tried X; it failed.' }),
      user('u3', 'b1', 'new direction'),
      said('a3', 'u3', 'did the new thing'),
    ]);
    expect(of(s, 'user').map((e) => e.text)).toEqual(['first task', 'new direction']);
    expect(of(s, 'summary')).toMatchObject([{ source: 'branch', text: 'Tried X; it failed.' }]);
    expect(s.events.some((e) => e.kind === 'assistant' && e.text === 'went the wrong way')).toBe(false);
    expect(s.stamp).toBe('a3');
  });

  it('keeps a compaction summary on the path', () => {
    const s = parseLines([
      HEADER,
      user('u1', null, 'task'),
      said('a1', 'u1', 'done part one'),
      h({ type: 'compaction', id: 'c1', parentId: 'a1', summary: 'Part one done; part two pending.', firstKeptEntryId: 'a1', tokensBefore: 9000 }),
      user('u2', 'c1', 'continue'),
    ]);
    expect(of(s, 'summary')).toMatchObject([{ source: 'compaction' }]);
    expect(of(s, 'user').at(-1)?.text).toBe('continue');
  });

  it('changes the stamp with every new entry and keeps it for the same state', () => {
    const p = createPiParser();
    p.push(HEADER);
    p.push(user('u1', null, 'x'));
    const s1 = p.snapshot().stamp;
    expect(p.snapshot().stamp).toBe(s1);
    p.push(said('a1', 'u1', 'y'));
    expect(p.snapshot().stamp).not.toBe(s1);
  });

  it('takes the title from session_info and chains v1 entries in file order', () => {
    const v1 = parseLines([
      h({ type: 'session', id: 'old', timestamp: '2025-01-01T00:00:00Z', cwd: '/w' }),
      h({ type: 'message', message: { role: 'user', content: 'hello' } }),
      h({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }], stopReason: 'stop' } }),
    ]);
    expect(v1.events.map((e) => e.kind)).toEqual(['user', 'assistant', 'turn-end']);
    const named = parseLines([HEADER, user('u1', null, 'x'), h({ type: 'session_info', id: 'n1', parentId: 'u1', name: 'my task' })]);
    expect(named.title).toBe('my task');
  });

  it('counts malformed and unknown lines without throwing', () => {
    const s = parseLines([HEADER, '{not json', '[1,2]', h({ type: 'mystery', id: 'm' }), user('u1', null, 'ok'), '', 'garbage']);
    expect(s.skipped).toBe(4);
    expect(of(s, 'user')).toHaveLength(1);
  });

  it('maps bashExecution, errors and aborts', () => {
    const s = parseLines([
      HEADER,
      user('u1', null, 'run it'),
      msg('b1', 'u1', { role: 'bashExecution', command: 'npm test', output: '1 failed', exitCode: 1 }),
      msg('a1', 'b1', { role: 'assistant', content: [], stopReason: 'error', errorMessage: '429 rate limited' }),
      msg('a2', 'a1', { role: 'assistant', content: [], stopReason: 'aborted', errorMessage: 'Request was aborted' }),
    ]);
    expect(of(s, 'tool-call')[0]).toMatchObject({ name: 'bash', command: 'npm test' });
    expect(of(s, 'tool-result')[0]).toMatchObject({ ok: false, text: '1 failed' });
    expect(of(s, 'error')[0]?.text).toBe('429 rate limited');
    expect(of(s, 'aborted')).toHaveLength(1);
  });
});

describe('pi parser: compactions, commands, glued lines (#16)', () => {
  const head = JSON.stringify({ type: 'session', version: 3, id: 'sess', timestamp: '2026-11-22T08:00:00.000Z', cwd: '/w' });
  const entry = (id: string, parentId: string | null, message: object) => JSON.stringify({ type: 'message', id, parentId, timestamp: '2026-11-22T08:00:01.000Z', message });
  const userMsg = (id: string, parentId: string | null, text: string) => entry(id, parentId, { role: 'user', content: [{ type: 'text', text }] });
  const reply = (id: string, parentId: string, text: string) => entry(id, parentId, { role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' });
  const compaction = (id: string, parentId: string, summary: string, firstKeptEntryId: string) => JSON.stringify({ type: 'compaction', id, parentId, timestamp: '2026-11-22T08:00:02.000Z', summary, firstKeptEntryId, tokensBefore: 1000 });

  it('a compaction of a branched tree keeps the active branch before it, not the abandoned one', () => {
    const s = parseLines([
      head,
      userMsg('u1', null, 'first request'),
      reply('a1', 'u1', 'done one'),
      userMsg('u2', 'a1', 'abandoned idea'),
      reply('a2', 'u2', 'abandoned answer'),
      // /tree back to a1, a new branch, then a compaction on it and another one right after.
      userMsg('u3', 'a1', 'better idea'),
      reply('a3', 'u3', 'better answer'),
      compaction('c1', 'a3', 'summary one', 'u3'),
      compaction('c2', 'c1', 'summary two', 'u3'),
      userMsg('u4', 'c2', 'next request'),
    ]);
    expect(of(s, 'user').map((e) => e.text)).toEqual(['first request', 'better idea', 'next request']);
    expect(of(s, 'summary').map((e) => e.text)).toEqual(['summary one', 'summary two']);
    expect(s.events.map((e) => e.kind)).toEqual(['user', 'assistant', 'turn-end', 'user', 'assistant', 'turn-end', 'summary', 'summary', 'user']);
  });

  it('slash commands and skill invocations are command prompts as typed; paths are not commands', () => {
    const s = parseLines([
      head,
      userMsg('u1', null, '/mode'),
      userMsg('u2', 'u1', '<skill name="commit" location="/home/u/.pi/agent/skills/commit/SKILL.md">\nCommit the work.\n</skill>\n\nwith a short message'),
      userMsg('u3', 'u2', '<skill name="remember" location="/x/SKILL.md">\nbody\n</skill>'),
      userMsg('u4', 'u3', '/var/folders/49/T/Screenshot.png what is this'),
    ]);
    expect(of(s, 'user').map((e) => [e.text, e.command === true])).toEqual([
      ['/mode', true],
      ['/skill:commit with a short message', false], // given the task's words: a prompt
      ['/skill:remember', true],
      ['/var/folders/49/T/Screenshot.png what is this', false],
    ]);
  });

  it('a line holding two records yields both; a broken part beside them is counted', () => {
    const v1 = (role: string, text: string, extra: object = {}) => JSON.stringify({ type: 'message', timestamp: '2026-11-22T08:00:01.000Z', message: { role, content: [{ type: 'text', text }], ...extra } });
    const s = parseLines([
      JSON.stringify({ type: 'session', id: 'v1', timestamp: '2026-11-22T08:00:00.000Z', cwd: '/w' }),
      v1('user', 'do it'),
      v1('assistant', 'the last reply', { stopReason: 'stop' }) + JSON.stringify({ type: 'compaction', timestamp: '2026-11-22T08:15:00.000Z', summary: 'the summary', firstKeptEntryIndex: 1 }),
      '{"type":"message","message":{"role":"user"' + v1('user', 'after the cut'),
    ]);
    expect(s.events.map((e) => e.kind)).toEqual(['user', 'assistant', 'turn-end', 'summary', 'user']);
    expect(of(s, 'assistant')[0]?.text).toBe('the last reply');
    expect(s.skipped).toBe(1);
  });

  it.skipIf(!corpusPresent)('the real glued line: the final reply and the second compaction are both read', () => {
    const s = parseFile(join(RECAP_CORPUS_DIR, 'pi', 'pi-mono-compact-glued-line.jsonl'));
    expect(s.skipped).toBe(0);
    expect(of(s, 'summary')).toHaveLength(2);
    expect(s.events.at(-1)?.kind).toBe('summary');
    expect(of(s, 'user')).toHaveLength(77);
    expect(of(s, 'user')[0]?.text).toBe('https://github.com/badlogic/pi-mono/issues/288');
  });

  it.skipIf(!corpusPresent)('two compactions in a real v3 session keep all nine prompts, skills as commands', () => {
    const s = parseFile(join(RECAP_CORPUS_DIR, 'pi', 'welpy-stale-compaction-tail.jsonl'));
    const users = of(s, 'user');
    expect(users).toHaveLength(9);
    expect(users.filter((u) => u.command).map((u) => u.text)).toEqual(['/skill:improve-codebase-architecture', '/skill:remember', expect.stringMatching(/^\/skill:commit/)]);
    expect(of(s, 'summary')).toHaveLength(2);
  });
});
