import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPresent, RECAP_CORPUS_DIR, TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import type { SessionSnapshot } from '../types.js';
import { codexAdapter } from './index.js';
import { createCodexParser } from './parse.js';

function parseLines(lines: string[]): SessionSnapshot {
  const p = createCodexParser();
  for (const l of lines) p.push(l);
  return p.snapshot();
}
const fixture = (name: string) => join(TRANSCRIPTS_DIR, 'codex', name);
const parseFile = (file: string) => parseLines(readFileSync(file, 'utf8').split('\n'));
const count = (s: SessionSnapshot) => s.events.reduce<Record<string, number>>((c, e) => ((c[e.kind] = (c[e.kind] ?? 0) + 1), c), {});
const users = (s: SessionSnapshot) => s.events.flatMap((e) => (e.kind === 'user' ? [e.text] : []));
const line = (type: string, payload: object, ordinal?: number) => JSON.stringify({ timestamp: '2026-11-22T08:00:00.000Z', ...(ordinal === undefined ? {} : { ordinal }), type, payload });

describe('codex parser on real files', () => {
  it('0.169 exec session: two prompts, environment context left out, calls linked to outputs', () => {
    const s = parseFile(fixture('print-2turns.jsonl'));
    expect(s.id).toBe('01a208ca-e66f-7bf2-9934-30e272705564');
    expect(s.cwd).toBe('/home/dev/proj/codex-print');
    expect(s.skipped).toBe(0);
    expect(count(s)).toEqual({ user: 2, thinking: 2, assistant: 4, 'tool-call': 2, 'tool-result': 2, 'turn-end': 2 });
    expect(users(s)).toEqual(['List the files here', 'Please list them again']);
    const call = s.events.find((e) => e.kind === 'tool-call');
    const result = s.events.find((e) => e.kind === 'tool-result');
    expect(call && result && call.kind === 'tool-call' && result.kind === 'tool-result' && call.callId === result.callId).toBe(true);
    expect(result).toMatchObject({ ok: true });
  });

  it('the TUI rollouts (two turns, and each side of /new) parse the same way', () => {
    expect(count(parseFile(fixture('interactive-2turns.jsonl')))).toEqual({ user: 2, thinking: 2, assistant: 4, 'tool-call': 2, 'tool-result': 2, 'turn-end': 2 });
    expect(count(parseFile(fixture('new-switch/first.jsonl')))).toEqual({ user: 1, thinking: 1, assistant: 2, 'tool-call': 1, 'tool-result': 1, 'turn-end': 1 });
  });

  it.skipIf(!corpusPresent)('an aborted turn, apply_patch edits and an older version from the corpus', () => {
    const aborted = parseFile(join(RECAP_CORPUS_DIR, 'codex', 'trezo-aborted.jsonl'));
    expect(count(aborted)).toMatchObject({ user: 2, aborted: 1, 'tool-call': 45, 'tool-result': 37 });
    expect(users(aborted).at(-1)).toBe('do that for kosh ai');
    const edits = parseFile(join(RECAP_CORPUS_DIR, 'codex', 'opencode-zenmux.jsonl'));
    expect(edits.events.flatMap((e) => (e.kind === 'tool-call' ? e.paths : [])).map((p) => p.split('/').pop())).toEqual(expect.arrayContaining(['opencode.jsonc', '.zshrc']));
  });
});

describe('codex parser rules', () => {
  it('compaction keeps what came before and puts the summary where it happened; titles, errors and failing exits', () => {
    const s = parseLines([
      line('session_meta', { id: 'abc', cwd: '/w' }, 0),
      line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'old task' }] }, 1),
      line('compacted', { message: 'Summary of the work so far', replacement_history: [] }, 2),
      line('event_msg', { type: 'thread_name_updated', thread_name: 'Grant application' }, 3),
      line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'new task' }] }, 4),
      line('response_item', { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"npm test"}', call_id: 'c1' }, 5),
      line('response_item', { type: 'function_call_output', call_id: 'c1', output: 'Process exited with code 1\nOutput:\nFAIL' }, 6),
      line('event_msg', { type: 'error', message: 'stream disconnected' }, 7),
      line('world_state', {}, 8),
      line('mystery', {}, 9),
      'garbage',
    ]);
    expect(s.events.map((e) => e.kind)).toEqual(['user', 'summary', 'title', 'user', 'tool-call', 'tool-result', 'error']);
    expect(users(s)).toEqual(['old task', 'new task']);
    expect(s.title).toBe('Grant application');
    expect(s.events.find((e) => e.kind === 'tool-call')).toMatchObject({ command: 'npm test', callId: 'c1' });
    expect(s.events.find((e) => e.kind === 'tool-result')).toMatchObject({ ok: false });
    expect(s.skipped).toBe(2);
  });

  it('the stamp changes with the summarized state only', () => {
    const p = createCodexParser();
    p.push(line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }, 1));
    const a = p.snapshot().stamp;
    p.push(line('event_msg', { type: 'token_count' }, 2));
    expect(p.snapshot().stamp).toBe(a);
    p.push(line('event_msg', { type: 'task_complete' }, 3));
    expect(p.snapshot().stamp).not.toBe(a);
  });
});

describe('codex parser: compactions, escalations, legacy rollouts (#16)', () => {
  const userMsg = (text: string, ordinal: number) => line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] }, ordinal);

  it('two compactions in a row: the first request survives both, each summary where it happened', () => {
    const s = parseLines([
      userMsg('first request', 1),
      line('compacted', { message: 'summary one', replacement_history: [] }, 2),
      line('compacted', { message: '', replacement_history: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'first request' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:\nsummary two' }] },
      ] }, 3),
      line('compacted', { message: '' }, 4),
      userMsg('second request', 5),
    ]);
    expect(s.events.map((e) => e.kind)).toEqual(['user', 'summary', 'summary', 'summary', 'user']);
    expect(users(s)).toEqual(['first request', 'second request']);
    expect(s.events.filter((e) => e.kind === 'summary').map((e) => (e as { text: string }).text)).toEqual(['summary one', 'summary two', 'Conversation compacted.']);
  });

  it('a call that asks to run outside the sandbox needs approval, with or without its result', () => {
    const call = (id: string, args: object) => line('response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify(args), call_id: id });
    const s = parseLines([
      userMsg('deploy it', 1),
      call('c1', { cmd: 'ls', sandbox_permissions: 'require_escalated', justification: 'Allow listing?' }),
      line('response_item', { type: 'function_call_output', call_id: 'c1', output: 'Process exited with code 0\nOutput:\na' }),
      call('c2', { cmd: 'npm publish', sandbox_permissions: 'require_escalated' }),
      call('c3', { cmd: 'pwd' }),
      line('response_item', { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'rm x'], with_escalated_permissions: true }), call_id: 'c4' }),
      line('response_item', { type: 'custom_tool_call', name: 'exec', input: 'await tools.exec_command({cmd: "make", sandbox_permissions: "require_escalated"})', call_id: 'c5' }),
    ]);
    const calls = s.events.filter((e) => e.kind === 'tool-call');
    expect(calls.map((c) => (c as { approval?: boolean }).approval === true)).toEqual([true, true, false, true, true]);
  });

  it('a call the user approved (its command prefix saved) no longer waits; others still do', () => {
    const call = (id: string, cmd: string) => line('response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd, sandbox_permissions: 'require_escalated' }), call_id: id });
    const s = parseLines([
      userMsg('export it', 1),
      call('c1', 'bash /skills/export-session.sh .'),
      call('c2', 'git remote -v'),
      line('response_item', { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Approved command prefix saved:\n- ["bash", "/skills/export-session.sh"]' }] }),
    ]);
    const calls = s.events.filter((e) => e.kind === 'tool-call');
    expect(calls.map((c) => (c as { approval?: boolean }).approval === true)).toEqual([false, true]);
  });

  it('a rolled-back thread loses its last turns', () => {
    const s = parseLines([
      userMsg('first', 1),
      line('event_msg', { type: 'task_complete' }, 2),
      userMsg('second', 3),
      line('event_msg', { type: 'task_complete' }, 4),
      userMsg('third', 5),
      line('event_msg', { type: 'thread_rolled_back', num_turns: 2 }, 6),
      userMsg('instead', 7),
    ]);
    expect(users(s)).toEqual(['first', 'instead']);
    expect(s.events.map((e) => e.kind)).toEqual(['user', 'turn-end', 'user']);
  });

  it('a legacy rollout (Sept 2025): header line, state markers, bare response items', () => {
    const legacy = [
      JSON.stringify({ id: 'd7e0b7f3-0000-4000-8000-000000000001', timestamp: '2025-09-24T02:40:17.546Z', instructions: null, git: { branch: 'master' } }),
      JSON.stringify({ record_type: 'state' }),
      JSON.stringify({ type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>E:\\proj</cwd>\n</environment_context>' }] }),
      JSON.stringify({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the build' }] }),
      JSON.stringify({ record_type: 'state' }),
      JSON.stringify({ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Looking' }] }),
      JSON.stringify({ type: 'function_call', name: 'shell', arguments: '{"command":["powershell.exe","-Command","dotnet build"]}', call_id: 'call_1' }),
      JSON.stringify({ type: 'function_call_output', call_id: 'call_1', output: '{"output":"ok","metadata":{"exit_code":0}}' }),
      JSON.stringify({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Built.' }] }),
    ];
    expect(codexAdapter.detect(legacy.slice(0, 5))).toBe(true);
    const s = parseLines(legacy);
    expect(s.id).toBe('d7e0b7f3-0000-4000-8000-000000000001');
    expect(s.cwd).toBe('E:\\proj');
    expect(s.startedAt).toBe(Date.parse('2025-09-24T02:40:17.546Z'));
    expect(s.skipped).toBe(0);
    expect(s.events.map((e) => e.kind)).toEqual(['user', 'thinking', 'tool-call', 'tool-result', 'assistant']);
    expect(s.events[2]).toMatchObject({ command: 'powershell.exe -Command dotnet build' });
    // Other agents' first lines are not taken for a legacy rollout.
    expect(codexAdapter.detect([JSON.stringify({ type: 'message', id: 'a', parentId: null, message: { role: 'user' } })])).toBe(false);
    expect(codexAdapter.detect([JSON.stringify({ type: 'session', id: 'x', timestamp: '2025-09-24T02:40:17.546Z' })])).toBe(false);
  });

  it.skipIf(!corpusPresent)('a real legacy rollout from the corpus: detected, 44 prompts, the German spec-kit session', () => {
    const file = join(RECAP_CORPUS_DIR, 'codex', 'anpr-legacy-format-de.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(codexAdapter.detect(lines.slice(0, 5))).toBe(true);
    const s = parseLines(lines);
    expect(s.id).toBe('d7e0b7f3-b7c1-47c6-9aee-b17ae9c41262');
    expect(s.cwd).toBe('E:\\ANPR\\ANPR_NEW');
    expect(s.skipped).toBe(0);
    expect(count(s)).toMatchObject({ user: 44, 'tool-call': 187, 'tool-result': 187 });
  });
});
