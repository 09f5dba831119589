import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPresent, RECAP_CORPUS_DIR, TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import type { SessionSnapshot } from '../types.js';
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
  it('compaction replaces what came before with the summary; titles, errors and failing exits', () => {
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
    expect(s.events.map((e) => e.kind)).toEqual(['summary', 'title', 'user', 'tool-call', 'tool-result', 'error']);
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
