import { describe, expect, it } from 'vitest';
import { appendCondensed, CONDENSED_CEILING_CHARS, CONDENSED_MAX_CHARS, condensedCap, condenseEvents, countsOf, isSlashCommand, tagsOf, taskOf } from './condense.js';
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
  it('has prompts, prose, commands with a one-line outcome, the next lines of output, and files; no reasoning', () => {
    const text = condenseEvents(events);
    expect(text).toContain('> add a retry to the uploader');
    expect(text).toContain('I will add the retry.');
    expect(text).toContain('$ npm test → failed: FAIL src/upload.test.ts');
    expect(text).toContain('long output body that stays out');
    expect(text).toContain('file: src/upload.ts');
    expect(text).not.toContain('secret reasoning');
  });

  it('adds what tools said and touched: errors, failing tests, files read, searches, packages, URLs and hosts, English handles', () => {
    const text = condenseEvents([
      { kind: 'user', text: '合并后推送失败了，请看一下' },
      { kind: 'tool-call', name: 'Read', args: 'file_path="/repo/src/config.ts"', paths: [], callId: 'r1' },
      { kind: 'tool-result', ok: true, text: 'export const config = {};', callId: 'r1' },
      { kind: 'tool-call', name: 'WebSearch', args: 'query="solana rpc rate limits 429"', paths: [], callId: 'w1' },
      { kind: 'tool-call', name: 'exec_command', args: '', command: 'pnpm add zod@4 && npx vitest run', paths: [], callId: 'c1' },
      { kind: 'tool-result', ok: false, text: 'Chunk ID: 1a2b\nWall time: 2s\nOutput:\n RUN v3\n ✓ src/a.test.ts\n × src/upload.test.ts > retries three times\nError: expected 3 calls, got 1', callId: 'c1' },
      { kind: 'tool-call', name: 'Bash', args: '', command: 'ssh deploy@build.example.org uptime', paths: [], callId: 'c2' },
      { kind: 'tool-result', ok: true, text: 'see https://docs.example.com/limits?x=1 for details', callId: 'c2' },
      { kind: 'tool-call', name: 'Write', args: 'file_path="/repo/NOTES.md" content="Quarterly invoice export notes"', paths: ['/repo/NOTES.md'], callId: 'c3' },
      { kind: 'error', text: 'API Error: 429 rate limit exceeded' },
    ]);
    expect(text.split('\n')[0]).toBe('tools: Read WebSearch exec_command Bash Write · runs: pnpm npx ssh · files: config.ts NOTES.md');
    expect(text).toContain('read: /repo/src/config.ts');
    expect(text).toContain('⚙ WebSearch query="solana rpc rate limits 429"');
    expect(text).toContain('$ pnpm add zod@4 && npx vitest run → failed: RUN v3');
    expect(text).not.toContain('Chunk ID');
    expect(text).toContain('× src/upload.test.ts > retries three times');
    expect(text).toContain('Error: expected 3 calls, got 1');
    expect(text).toContain('packages: zod vitest');
    expect(text).toContain('urls: build.example.org https://docs.example.com/limits?x=1');
    expect(text).toContain('+ Quarterly invoice export notes');
    expect(text).toContain('! API Error: 429 rate limit exceeded');
  });

  it('masks a secret before any clip: no part of it is left in a clipped line', () => {
    const key = 'sk-ant-' + 'a1B2c3D4e5F6g7H8'.repeat(4);
    const text = condenseEvents([
      { kind: 'user', text: 'x'.repeat(2380) + ' ' + key },
      { kind: 'tool-call', name: 'Bash', args: '', command: 'echo start && curl -H "x-api-key: ' + key + '" ' + 'y'.repeat(240), paths: [], callId: 'c1' },
      { kind: 'tool-result', ok: true, text: 'token=' + key, callId: 'c1' },
    ]);
    expect(text).not.toContain('sk-ant-a1B2');
    expect(text).not.toContain('a1B2c3D4');
  });

  it('past the cap drops what tells least first: repeated and wordless lines before prose with words of its own', () => {
    const long: MemoryEvent[] = [{ kind: 'user', text: 'the task: migrate the billing ledger' }];
    for (let i = 0; i < 150; i++) {
      long.push({ kind: 'assistant', text: `The ledger row ${i} moved; finding${i} explained in detail here.` });
      long.push({ kind: 'tool-call', name: 'Bash', args: '', command: 'git status', paths: [], callId: `g${i}` }, { kind: 'tool-call', name: 'Bash', args: '', command: 'git status', paths: [], callId: `h${i}` });
    }
    const full = condenseEvents(long, 1e9);
    const text = condenseEvents(long, full.length - 300 * 13 + 5);
    expect(text).toContain('the task: migrate the billing ledger');
    for (let i = 0; i < 150; i++) expect(text).toContain(`finding${i} `);
    expect(text.split('\n').filter((l) => l.startsWith('$ git status')).length).toBeLessThan(10);
  });

  it('lets the cap grow slowly with the session, up to a ceiling', () => {
    expect(condensedCap(5_000)).toBe(CONDENSED_MAX_CHARS);
    expect(condensedCap(64_000)).toBe(CONDENSED_MAX_CHARS * 2);
    expect(condensedCap(10_000_000)).toBe(CONDENSED_CEILING_CHARS);
    const many: MemoryEvent[] = [];
    for (let i = 0; i < 2000; i++) many.push({ kind: 'assistant', text: `step ${i}: word${i} and more text about the change number ${i}` });
    const text = condenseEvents(many);
    expect(text.length).toBeGreaterThan(CONDENSED_MAX_CHARS);
    expect(text.length).toBeLessThanOrEqual(condensedCap(150_000));
  });

  it("keeps the agent's own recap (Claude's away summary, #34): searchable like a summary", () => {
    const text = condenseEvents([{ kind: 'user', text: 'move the invoices' }, { kind: 'agent-recap', text: 'Goal: invoices on S3. Next action: backfill the zanzibar bucket.' }]);
    expect(text).toContain('Next action: backfill the zanzibar bucket.');
  });

  it('counts, tags and the task', () => {
    expect(countsOf(events)).toEqual({ prompts: 2, turns: 1, toolCalls: 2 });
    expect(tagsOf(events)).toEqual(['typescript', 'tests']);
    expect(taskOf(events)).toBe('add a retry to the uploader');
  });

  it('a slash command is said but is no prompt: not counted, never the task, not a `> ` line', () => {
    const typed: MemoryEvent[] = [
      { kind: 'user', text: '/model claude-opus-4', command: true },
      { kind: 'user', text: '/compact keep the API notes', command: true },
      { kind: 'user', text: 'Please list them again' },
      { kind: 'assistant', text: 'Listed.' },
      { kind: 'turn-end' },
    ];
    expect(isSlashCommand(typed[0] as MemoryEvent)).toBe(true);
    expect(isSlashCommand(typed[2] as MemoryEvent)).toBe(false);
    expect(countsOf(typed)).toEqual({ prompts: 1, turns: 1, toolCalls: 0 });
    // A message typed while the turn ran (Qwen Code's mid-turn message) is taken into that turn: no prompt.
    const midTurn: MemoryEvent[] = [{ kind: 'user', text: 'ok' }, { kind: 'user', text: 'save the logs too', midTurn: true }, ...typed.slice(2)];
    expect(countsOf(midTurn)).toEqual({ prompts: 2, turns: 1, toolCalls: 0 });
    expect(taskOf(midTurn)).toBe('Please list them again');
    // It used to name the session after the command's arguments ("claude-opus-4").
    expect(taskOf(typed)).toBe('Please list them again');
    expect(taskOf(typed.slice(0, 2), 'the title')).toBe('the title');
    const text = condenseEvents(typed).split('\n');
    expect(text).toContain('/model claude-opus-4');
    expect(text.filter((l) => l.startsWith('> '))).toEqual(['> Please list them again']);
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
