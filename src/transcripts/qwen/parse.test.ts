import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_FIXTURES_DIR, RECAP_CORPUS_DIR } from '../../../test/helpers/shared.js';
import type { SessionSnapshot, TranscriptEvent } from '../types.js';
import { createQwenParser } from './parse.js';

function parseLines(lines: string[]): SessionSnapshot {
  const p = createQwenParser();
  for (const l of lines) p.push(l);
  return p.snapshot();
}
const fixture = (name: string) => join(AGENT_FIXTURES_DIR, 'qwen', name);
const parseFile = (file: string) => parseLines(readFileSync(file, 'utf8').split('\n'));
const of = <K extends TranscriptEvent['kind']>(s: SessionSnapshot, kind: K) =>
  s.events.filter((e): e is Extract<TranscriptEvent, { kind: K }> => e.kind === kind);

// Counted from the raw files: user records, non-thought text parts, thought parts, functionCall parts,
// tool_result records, and assistant records without a functionCall (turn ends).
const CASES: Array<{ file: string; id: string; cwd: string; users: string[]; assistant: number; thinking: number; calls: string[]; results: number; turnEnds: number; stamp: string }> = [
  {
    file: 'print-mode-2turns.jsonl', id: 'd4c3c97f-0d70-45cc-8269-c1dbf4100ad5', cwd: '/home/dev/proj/proj-qwen',
    users: ['please create hello.txt', 'now list the files with ls'], assistant: 4, thinking: 2, calls: ['write_file', 'run_shell_command'], results: 2, turnEnds: 2,
    stamp: '43e1a912-413d-48d2-8778-1d745f548155',
  },
  {
    file: 'print-mode-session-id-then-resume.jsonl', id: '22222222-3333-4444-8555-666666666666', cwd: '/home/dev/proj/proj-qwen-s',
    users: ['please create hello.txt', 'now ls please'], assistant: 4, thinking: 2, calls: ['write_file', 'run_shell_command'], results: 2, turnEnds: 2,
    stamp: 'db37e704-2c50-4696-8fda-48f218d8a7d6',
  },
  {
    file: 'tmux-script-2turns.jsonl', id: '8c276098-4ba4-45c3-b462-b77c0ef43180', cwd: '/home/dev/proj/e2e-tmux-qwen/proj',
    users: ['please create hello.txt', 'now list the files with ls'], assistant: 4, thinking: 2, calls: ['write_file', 'run_shell_command'], results: 2, turnEnds: 2,
    stamp: '61ea243b-6539-44e5-9387-f106c25ac02e',
  },
  {
    file: 'e2e-print-script.jsonl', id: 'd6ed410f-b487-42fb-9e19-619d4273aaab', cwd: '/home/dev/proj/e2e1/proj-qwen',
    users: ['please create hello.txt', 'now list the files with ls'], assistant: 4, thinking: 2, calls: ['write_file', 'run_shell_command'], results: 2, turnEnds: 2,
    stamp: 'bb329ea0-5392-4ddf-b45a-7ee241eba95a',
  },
  {
    file: 'interactive-json-file-session.jsonl', id: 'b05972de-8432-486c-834e-7a81b87ade47', cwd: '/home/dev/proj/proj-qwen-j',
    users: ['please create hello.txt'], assistant: 2, thinking: 1, calls: ['write_file'], results: 1, turnEnds: 1,
    stamp: 'f2d06195-e003-485d-83ba-9a1a503a47ff',
  },
  {
    file: 'clear-switch/2985d9fe-9c2a-4735-a68b-1248e51fceb8.jsonl', id: '2985d9fe-9c2a-4735-a68b-1248e51fceb8', cwd: '/home/dev/proj/clear-test/proj',
    users: ['please create hello.txt'], assistant: 2, thinking: 1, calls: ['write_file'], results: 1, turnEnds: 1,
    stamp: '82df8482-343a-4731-a87c-6fcb7ab3789d',
  },
  {
    file: 'clear-switch/2d3c3094-061c-42b5-8ee5-1fffa1d50a96.jsonl', id: '2d3c3094-061c-42b5-8ee5-1fffa1d50a96', cwd: '/home/dev/proj/clear-test/proj',
    users: ['now ls please'], assistant: 2, thinking: 1, calls: ['run_shell_command'], results: 1, turnEnds: 1,
    stamp: 'ba4ebe51-35c5-4e37-9100-638e877b1939',
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

  it('reads calls, commands, touched paths and results of print-mode-2turns', () => {
    const s = parseFile(fixture('print-mode-2turns.jsonl'));
    const calls = of(s, 'tool-call');
    expect(calls[0]).toMatchObject({ name: 'write_file', callId: 'call_fake_1', paths: ['/home/dev/proj/proj-qwen/hello.txt'], command: undefined });
    expect(calls[1]).toMatchObject({ name: 'run_shell_command', callId: 'call_fake_3', command: 'ls', paths: [] });
    const results = of(s, 'tool-result');
    expect(results[0]).toMatchObject({ callId: 'call_fake_1', name: 'write_file', ok: true, text: 'Successfully created and wrote to new file: /home/dev/proj/proj-qwen/hello.txt.' });
    expect(results[1]?.text.startsWith('Command: ls\nDirectory: (root)\nOutput: hello.txt')).toBe(true);
    expect(s.events.map((e) => e.kind)).toEqual([
      'user', 'thinking', 'assistant', 'tool-call', 'tool-result', 'assistant', 'turn-end',
      'user', 'thinking', 'assistant', 'tool-call', 'tool-result', 'assistant', 'turn-end',
    ]);
    expect(s.startedAt).toBe(Date.parse('2026-11-22T08:42:27.501Z'));
    expect(s.updatedAt).toBe(Date.parse('2026-11-22T08:42:37.642Z'));
  });

  it('skips every line of the --json-file event stream (not a session file)', () => {
    const s = parseFile(fixture('interactive-json-file-events.jsonl'));
    expect(s.events).toHaveLength(0);
    expect(s.skipped).toBe(38);
  });

  it('keeps the stamp through trailing telemetry and changes it with the next event', () => {
    const lines = readFileSync(fixture('print-mode-2turns.jsonl'), 'utf8').split('\n').filter(Boolean);
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
      ['/sp.plan Build the book', true],
      ['/stats model', true],
      ['how many requests do I have', false],
      ['/quit', true],
    ]);
    expect(s.events.at(-1)).toMatchObject({ kind: 'exit', text: '/quit' });
  });

  it('a real session: the spec-kit commands are the prompts, not their expanded bodies', () => {
    const s = parseFile(join(RECAP_CORPUS_DIR, 'qwen', 'docusaurus-book-toolresult.jsonl'));
    const users = of(s, 'user');
    expect(users.filter((u) => u.command).map((u) => u.text.split(' ')[0])).toEqual(['/sp.constitution', '/sp.specify', '/sp.plan', '/sp.tasks', '/sp.implement']);
    expect(users.some((u) => u.text.startsWith('---\ndescription:'))).toBe(false);
    expect(users.map((u) => u.text)[0]).toBe('hello');
    expect(s.events.at(-1)?.kind).toBe('tool-result');
  });
});
