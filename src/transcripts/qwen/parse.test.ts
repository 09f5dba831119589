import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECAP_CORPUS_DIR, TRANSCRIPTS_DIR, corpusPresent } from '../../../test/helpers/shared.js';
import type { SessionSnapshot, TranscriptEvent } from '../types.js';
import { createQwenParser } from './parse.js';
import { slashCommandIsTask } from '../shared-parse.js';

function parseLines(lines: string[]): SessionSnapshot {
  const p = createQwenParser();
  for (const l of lines) p.push(l);
  return p.snapshot();
}
const fixture = (name: string) => join(TRANSCRIPTS_DIR, 'qwen', name);
const parseFile = (file: string) => parseLines(readFileSync(file, 'utf8').split('\n'));
const of = <K extends TranscriptEvent['kind']>(s: SessionSnapshot, kind: K) =>
  s.events.filter((e): e is Extract<TranscriptEvent, { kind: K }> => e.kind === kind);

// Counted from the raw files: user records, non-thought text parts, thought parts, functionCall parts,
// tool_result records, and assistant records without a functionCall (turn ends).
const CASES: Array<{ file: string; id: string; cwd: string; users: string[]; assistant: number; thinking: number; calls: string[]; results: number; turnEnds: number; stamp: string }> = [
  {
    file: 'print-2turns.jsonl', id: 'fe0f8648-aa31-42c8-a229-e4075dffe312', cwd: '/home/dev/proj/qwen-print',
    users: ['please create hello.txt', 'now list the files with ls'], assistant: 4, thinking: 2, calls: ['write_file', 'run_shell_command'], results: 2, turnEnds: 2,
    stamp: '3f7dc26f-52fa-4d62-aa4a-9b68ea446aab',
  },
  {
    file: 'interactive-2turns.jsonl', id: 'a8be6670-f5b2-4c58-a8ba-dcb534645d00', cwd: '/home/dev/proj/qwen-tui',
    users: ['please create hello.txt', 'now list the files with ls'], assistant: 4, thinking: 2, calls: ['write_file', 'run_shell_command'], results: 2, turnEnds: 2,
    stamp: '5fc7d83e-15a6-4637-b8c6-4126a9003820',
  },
  {
    file: 'clear-switch/first.jsonl', id: '6f9e1203-25a4-451b-a8b6-470a8557b5f5', cwd: '/home/dev/proj/qwen-switch',
    users: ['please create hello.txt'], assistant: 2, thinking: 1, calls: ['write_file'], results: 1, turnEnds: 1,
    stamp: 'aad78ba3-07bf-4359-8e99-4a8ed4221c86',
  },
  {
    file: 'clear-switch/second.jsonl', id: 'e652dc28-4623-4af9-a9b9-468ba0d4d66a', cwd: '/home/dev/proj/qwen-switch',
    users: ['now list the files with ls'], assistant: 2, thinking: 1, calls: ['run_shell_command'], results: 1, turnEnds: 1,
    stamp: 'd86a44e3-f274-4817-8c2c-a882f3bcf27a',
  },
];

describe('qwen parser on real files', () => {
  for (const c of CASES) {
    it(c.file, () => {
      const s = parseFile(fixture(c.file));
      expect(s.agent).toBe('qwen');
      expect(s.id).toBe(c.id);
      expect(s.cwd).toBe(c.cwd);
      expect(s.model).toBe('fake-model');
      expect(s.title).toBeUndefined();
      expect(of(s, 'user').map((e) => e.text)).toEqual(c.users);
      expect(of(s, 'assistant')).toHaveLength(c.assistant);
      expect(of(s, 'thinking')).toHaveLength(c.thinking);
      expect(of(s, 'tool-call').map((e) => e.name)).toEqual(c.calls);
      expect(of(s, 'tool-result')).toHaveLength(c.results);
      expect(of(s, 'tool-result').every((r) => r.ok)).toBe(true);
      expect(of(s, 'turn-end')).toHaveLength(c.turnEnds);
      expect(of(s, 'error')).toHaveLength(0);
      expect(of(s, 'aborted')).toHaveLength(0);
      expect(s.skipped).toBe(0);
      // The stamp names the last record that carried events (the final answer), not trailing telemetry.
      expect(s.stamp.startsWith(`${c.stamp}:`)).toBe(true);
    });
  }

  it('reads calls, commands, touched paths and results of print-2turns', () => {
    const s = parseFile(fixture('print-2turns.jsonl'));
    const calls = of(s, 'tool-call');
    expect(calls[0]).toMatchObject({ name: 'write_file', callId: 'call_fake_5987_19', paths: ['/home/dev/proj/qwen-print/hello.txt'], command: undefined });
    expect(calls[1]).toMatchObject({ name: 'run_shell_command', callId: 'call_fake_5987_20', command: 'ls', paths: [] });
    const results = of(s, 'tool-result');
    expect(results[0]).toMatchObject({ callId: 'call_fake_5987_19', name: 'write_file', ok: true, text: 'Successfully created and wrote to new file: /home/dev/proj/qwen-print/hello.txt.' });
    expect(results[1]?.text.startsWith('Command: ls\nDirectory: (root)\nOutput: hello.txt')).toBe(true);
    expect(s.events.map((e) => e.kind)).toEqual([
      'user', 'thinking', 'assistant', 'tool-call', 'tool-result', 'assistant', 'turn-end',
      'user', 'thinking', 'assistant', 'tool-call', 'tool-result', 'assistant', 'turn-end',
    ]);
    expect(s.startedAt).toBe(Date.parse('2026-11-23T14:29:59.232Z'));
    expect(s.updatedAt).toBe(Date.parse('2026-11-23T14:30:11.688Z'));
  });

  it('skips every line of the --json-file event stream (not a session file)', () => {
    const s = parseFile(fixture('json-file-events.jsonl'));
    expect(s.events).toHaveLength(0);
    expect(s.skipped).toBe(49);
  });

  it('keeps the stamp through trailing telemetry and changes it with the next event', () => {
    const lines = readFileSync(fixture('print-2turns.jsonl'), 'utf8').split('\n').filter(Boolean);
    const p = createQwenParser();
    const stamps: string[] = [];
    for (const l of lines) {
      p.push(l);
      stamps.push(p.snapshot().stamp);
    }
    // Line 2 (attribution_snapshot) and 3 (ui_telemetry) add nothing after the prompt on line 1.
    expect(stamps[1]).toBe(stamps[0]);
    expect(stamps[2]).toBe(stamps[0]);
    expect(stamps[3]).not.toBe(stamps[2]);
    expect(new Set(stamps).size).toBe(8);
  });
});

const h = (o: object) => JSON.stringify(o);
let seq = 0;
const rec = (uuid: string, parentUuid: string | null, extra: object) =>
  h({ uuid, parentUuid, sessionId: 'sess-1', timestamp: `2026-11-22T08:00:${String(seq++ % 60).padStart(2, '0')}.000Z`, cwd: '/w', version: '0.24.4', ...extra });
const user = (uuid: string, parent: string | null, text: string, extra: object = {}) =>
  rec(uuid, parent, { type: 'user', provenance: 'real_user', message: { role: 'user', parts: [{ text }] }, ...extra });
const said = (uuid: string, parent: string | null, text: string) =>
  rec(uuid, parent, { type: 'assistant', provenance: 'assistant_output', model: 'qwen3-coder-plus', message: { role: 'model', parts: [{ text }] } });
const sys = (uuid: string, parent: string | null, subtype: string, systemPayload: object) =>
  rec(uuid, parent, { type: 'system', provenance: 'system', subtype, systemPayload });

describe('qwen active branch and edge shapes', () => {
  it('summarizes only the root→leaf path after a /rewind re-roots the chain', () => {
    const s = parseLines([
      user('u1', null, 'first task'),
      said('a1', 'u1', 'did the first'),
      user('u2', 'a1', 'abandoned direction'),
      said('a2', 'u2', 'went the wrong way'),
      sys('r1', 'a2', 'rewind', { truncatedCount: 2 }),
      user('u3', 'a1', 'new direction'),
      said('a3', 'u3', 'did the new thing'),
    ]);
    expect(of(s, 'user').map((e) => e.text)).toEqual(['first task', 'new direction']);
    expect(s.events.some((e) => e.kind === 'assistant' && e.text === 'went the wrong way')).toBe(false);
    expect(s.stamp.startsWith('a3:')).toBe(true);
    expect(s.skipped).toBe(0);
  });

  it('keeps a chat_compression summary on the path and the history before it', () => {
    const s = parseLines([
      user('u1', null, 'task'),
      said('a1', 'u1', 'done part one'),
      sys('c1', 'a1', 'chat_compression', {
        info: { originalTokenCount: 20002, newTokenCount: 1049, compressionStatus: 1 },
        compressedHistory: [
          { role: 'user', parts: [{ text: '<state_snapshot>Part one done; part two pending.</state_snapshot>' }] },
          { role: 'model', parts: [{ text: 'Got it. Thanks for the additional context!' }] },
        ],
      }),
      user('u2', 'c1', 'continue'),
    ]);
    expect(of(s, 'summary')).toEqual([{ kind: 'summary', source: 'compaction', text: '<state_snapshot>Part one done; part two pending.</state_snapshot>', sourceId: 'c1', ts: expect.any(Number) }]);
    expect(of(s, 'user').map((e) => e.text)).toEqual(['task', 'continue']);
  });

  it('takes titles and models from metadata records without moving the leaf', () => {
    const p = createQwenParser();
    p.push(user('u1', null, 'x'));
    p.push(said('a1', 'u1', 'y'));
    const before = p.snapshot().stamp;
    p.push(sys('t1', 'a1', 'custom_title', { customTitle: 'Fix the login bug', titleSource: 'auto' }));
    const titled = p.snapshot();
    expect(titled.title).toBe('Fix the login bug');
    expect(titled.stamp).not.toBe(before);
    expect(titled.events.at(-1)).toMatchObject({ kind: 'title', text: 'Fix the login bug' });
    // Qwen re-appends the same title near EOF: no new event, same stamp.
    p.push(sys('t2', 'a1', 'custom_title', { customTitle: 'Fix the login bug' }));
    expect(p.snapshot().stamp).toBe(titled.stamp);
    p.push(sys('m1', 'a1', 'session_model', { modelId: 'qwen3-max', authType: 'openai' }));
    p.push(user('u2', 'a1', 'more'));
    const s = p.snapshot();
    expect(s.model).toBe('qwen3-max');
    expect(s.events.map((e) => e.kind)).toEqual(['user', 'assistant', 'turn-end', 'title', 'model', 'user']);
    expect(s.skipped).toBe(0);
  });

  it('keeps only prompts a person typed', () => {
    const s = parseLines([
      user('u1', null, 'real prompt<system-reminder>You are in plan mode.</system-reminder>'),
      user('u2', 'u1', 'continue the goal', { provenance: 'goal_control' }),
      user('u3', 'u2', 'Background task finished', { provenance: 'system', subtype: 'notification' }),
      user('u4', 'u3', 'cron fired', { subtype: 'cron' }),
      user('u5', 'u4', '\n[User message received during tool execution]: save logs', { subtype: 'mid_turn_user_message', systemPayload: { displayText: 'save logs' } }),
      user('u6', 'u5', '\n[User message received during tool execution]: and lint'),
      user('u7', 'u6', 'explain @src/a.ts\n--- Content from referenced files ---\nContent from @src/a.ts:\nconst a = 1;'),
      user('u8', 'u7', 'expanded', { systemPayload: { displayText: 'what I typed', hookContext: '' } }),
      sys('s1', 'u8', 'slash_command', { phase: 'invocation', rawCommand: '/compress' }),
    ]);
    expect(of(s, 'user').map((e) => e.text)).toEqual([
      'real prompt', 'save logs', '[User message received during tool execution]: and lint', 'explain @src/a.ts', 'what I typed', '/compress',
    ]);
    expect(of(s, 'user').at(-1)).toMatchObject({ command: true });
    // A mid-turn message (its subtype) is marked: Qwen's own recap does not count it as a prompt (#34).
    expect(of(s, 'user').filter((e) => e.midTurn).map((e) => e.text)).toEqual(['save logs']);
    expect(s.skipped).toBe(0);
  });

  it('maps failed and cancelled tools, API errors and user aborts', () => {
    const s = parseLines([
      user('u1', null, 'please create hello.txt again'),
      rec('a1', 'u1', { type: 'assistant', message: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'write_file', args: { file_path: 'hello.txt', content: 'x' } } }, { functionCall: { id: 'c2', name: 'run_shell_command', args: { command: 'npm   test' } } }] } }),
      rec('t1', 'a1', {
        type: 'tool_result', message: { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'write_file', response: { error: 'File has not been read in this session' } } }] },
        toolCallResult: { callId: 'c1', status: 'error' },
      }),
      rec('t2', 't1', { type: 'tool_result', message: { role: 'user', parts: [{ functionResponse: { id: 'c2', name: 'run_shell_command', response: { output: 'cancelled' } } }] }, toolCallResult: { callId: 'c2', status: 'cancelled' } }),
      sys('e1', 't2', 'ui_telemetry', { uiEvent: { 'event.name': 'qwen-code.api_error', error_type: 'RateLimitError', error_message: 'quota exceeded', status_code: 429 } }),
      sys('e2', 'e1', 'ui_telemetry', { uiEvent: { 'event.name': 'qwen-code.api_error', error_type: 'APIUserAbortError', error_message: 'Request was aborted.' } }),
      sys('e3', 'e2', 'ui_telemetry', { uiEvent: { 'event.name': 'qwen-code.api_response', status_code: 200 } }),
    ]);
    expect(of(s, 'tool-call').map((c) => c.command ?? c.paths.join())).toEqual(['hello.txt', 'npm test']);
    expect(of(s, 'tool-result')).toMatchObject([
      { callId: 'c1', ok: false, text: 'File has not been read in this session' },
      { callId: 'c2', ok: false, text: 'cancelled' },
    ]);
    expect(of(s, 'error')).toMatchObject([{ text: '429 quota exceeded' }]);
    expect(of(s, 'aborted').map((e) => e.text)).toEqual(['tool call cancelled', 'Request was aborted.']);
    expect(of(s, 'turn-end')).toHaveLength(0);
  });

  it('bridges a chain broken by a lost line and salvages two records on one line', () => {
    const s = parseLines([
      user('u1', null, 'first'),
      said('a1', 'u1', 'answer one'),
      '{"uuid":"u2","parentUuid":"a1","sessionId":"sess-1","type":"user","message":{"role":"user","par',
      said('a2', 'u2', 'answer two'),
      user('u3', 'a2', 'third') + said('a3', 'u3', 'answer three'),
    ]);
    expect(s.skipped).toBe(1);
    expect(of(s, 'assistant').map((e) => e.text)).toEqual(['answer one', 'answer two', 'answer three']);
    expect(of(s, 'user').map((e) => e.text)).toEqual(['first', 'third']);
  });

  it('counts malformed and unknown lines without throwing, and ignores sidechains', () => {
    const s = parseLines([
      user('u1', null, 'ok'),
      '{not json',
      '[1,2]',
      'garbage',
      '',
      rec('x1', 'u1', { type: 'mystery' }),
      sys('x2', 'x1', 'future_subtype', { a: 1 }),
      rec('x3', 'x2', { type: 'assistant', isSidechain: true, message: { role: 'model', parts: [{ text: 'Subagent: all tests pass.' }] } }),
      said('a1', 'x3', 'done'),
      h({ type: 'user', uuid: 'q', session_id: 's', message: { role: 'user', content: [{ type: 'text', text: 'not a record' }] } }),
    ]);
    expect(s.skipped).toBe(6);
    expect(of(s, 'user')).toHaveLength(1);
    expect(of(s, 'assistant').map((e) => e.text)).toEqual(['done']);
    expect(s.id).toBe('sess-1');
  });

  it('gives an empty snapshot before any line', () => {
    const s = createQwenParser().snapshot();
    expect(s).toMatchObject({ agent: 'qwen', id: '', events: [], skipped: 0, stamp: 'empty:0:0:0' });
  });
});

describe('qwen: compressions, slash commands, exits (#16)', () => {
  const at = (second: number, ms = 0) => `2026-11-22T09:00:${String(second).padStart(2, '0')}.${String(ms).padStart(3, '0')}Z`;
  const timed = (line: string, ts: string) => JSON.stringify({ ...(JSON.parse(line) as object), timestamp: ts });
  const compression = (uuid: string, parent: string, summary: string) =>
    sys(uuid, parent, 'chat_compression', { info: { originalTokenCount: 9000, newTokenCount: 900 }, compressedHistory: [{ role: 'user', parts: [{ text: summary }] }, { role: 'model', parts: [{ text: 'Got it.' }] }] });

  it('two compressions in a row keep the history before them and the first request', () => {
    const s = parseLines([
      user('u1', null, 'first request'),
      said('a1', 'u1', 'done one'),
      compression('c1', 'a1', '<state_snapshot>one</state_snapshot>'),
      compression('c2', 'c1', '<state_snapshot>two</state_snapshot>'),
      user('u2', 'c2', 'second request'),
    ]);
    expect(of(s, 'user').map((e) => e.text)).toEqual(['first request', 'second request']);
    expect(of(s, 'summary').map((e) => e.text)).toEqual(['<state_snapshot>one</state_snapshot>', '<state_snapshot>two</state_snapshot>']);
  });

  it('a slash command is a command prompt; a file command’s expansion is not a second prompt, a later typed prompt is', () => {
    const s = parseLines([
      timed(sys('i1', null, 'slash_command', { phase: 'invocation', rawCommand: '/sp.plan Build the book' }), at(1)),
      timed(sys('r1', 'i1', 'slash_command', { phase: 'result', rawCommand: '/sp.plan Build the book', outputHistoryItems: [] }), at(1, 20)),
      timed(user('x1', 'r1', '---\ndescription: Execute the planning workflow\n---\n$ARGUMENTS'), at(1, 80)),
      timed(said('a1', 'x1', 'Planned.'), at(5)),
      timed(sys('i2', 'a1', 'slash_command', { phase: 'invocation', rawCommand: '/stats model' }), at(10)),
      timed(sys('r2', 'i2', 'slash_command', { phase: 'result', rawCommand: '/stats model', outputHistoryItems: [{ type: 'model_stats' }] }), at(10, 10)),
      timed(user('u2', 'r2', 'how many requests do I have'), at(13)),
      timed(said('a2', 'u2', 'Twelve.'), at(14)),
      timed(sys('i3', 'a2', 'slash_command', { phase: 'invocation', rawCommand: '/quit' }), at(20)),
    ]);
    expect(of(s, 'user').map((e) => [e.text, e.command === true])).toEqual([
      ['/sp.plan Build the book', false], // a command given the task's words is a prompt
      ['/stats model', true],
      ['how many requests do I have', false],
      ['/quit', true],
    ]);
    expect(s.events.at(-1)).toMatchObject({ kind: 'exit', text: '/quit' });
  });

  it("Qwen Code's away recap (the automatic one and /recap) is an own recap, as 0.24.4 records it (#34)", () => {
    const recap = (id: string, parent: string) => sys(id, parent, 'slash_command', { phase: 'result', rawCommand: '/recap', outputHistoryItems: [{ type: 'away_recap', text: ' Created hello.txt and listed files. Next: continue the task. ' }] });
    const s = parseLines([
      user('u1', null, 'please create hello.txt'),
      said('a1', 'u1', 'Done.'),
      // The automatic recap on a return writes only the result record.
      recap('r1', 'a1'),
      sys('i2', 'r1', 'slash_command', { phase: 'invocation', rawCommand: '/recap' }),
      recap('r2', 'i2'),
    ]);
    expect(of(s, 'agent-recap').map((e) => [e.sourceId, e.after, e.text])).toEqual([
      ['r1', 'a1', 'Created hello.txt and listed files. Next: continue the task.'],
      ['r2', 'i2', 'Created hello.txt and listed files. Next: continue the task.'],
    ]);
    expect(of(s, 'user').map((e) => e.text)).toEqual(['please create hello.txt', '/recap']);
    expect(s.skipped).toBe(0);
  });

  it.skipIf(!corpusPresent)('a real session: the spec-kit commands are the prompts, not their expanded bodies', () => {
    const s = parseFile(join(RECAP_CORPUS_DIR, 'qwen', 'docusaurus-book-toolresult.jsonl'));
    const users = of(s, 'user');
    expect(users.filter((u) => u.text.startsWith('/sp.')).map((u) => u.text.split(' ')[0])).toEqual(['/sp.constitution', '/sp.specify', '/sp.plan', '/sp.tasks', '/sp.implement']);
    // Given the task's words they are prompts; alone, commands.
    for (const u of users.filter((x) => x.text.startsWith('/sp.'))) expect(u.command === true, u.text.slice(0, 40)).toBe(!slashCommandIsTask(u.text));
    expect(users.some((u) => u.text.startsWith('---\ndescription:'))).toBe(false);
    expect(users.map((u) => u.text)[0]).toBe('hello');
    expect(s.events.at(-1)?.kind).toBe('tool-result');
  });
});
