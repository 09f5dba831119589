import { describe, expect, it } from 'vitest';
import { activeBranch, clip, commandFromToolCall, compactArgs, parseJsonObject, pathsFromToolCall, pushJsonLine, textFromParts, thinkingEvent, toEpochMs, slashCommandIsTask } from './shared-parse.js';
import { THINKING_MAX_CHARS } from './types.js';

describe('shared parse helpers', () => {
  it('clips with an ASCII marker (Latin-1 text stays one byte per character in V8)', () => {
    expect(clip('abcdefgh', 6)).toBe('abc...');
    expect(clip('abc', 4)).toBe('abc');
    expect(clip('x'.repeat(5000), 4000)).toHaveLength(4000);
  });
  it('keeps the start of a thinking text and counts all of it', () => {
    const e = thinkingEvent('r'.repeat(5000), 's1', 7);
    expect(e).toMatchObject({ kind: 'thinking', chars: 5000, sourceId: 's1', ts: 7 });
    expect(e.text).toHaveLength(THINKING_MAX_CHARS);
  });
  it('normalizes timestamps', () => {
    expect(toEpochMs('2026-11-22T08:39:52.827Z')).toBe(Date.UTC(2026, 10, 22, 8, 39, 52, 827));
    expect(toEpochMs(1795336792)).toBe(1795336792000);
    expect(toEpochMs(1795336792846)).toBe(1795336792846);
    expect(toEpochMs('nope')).toBeUndefined();
  });
  it('reads toISOString timestamps digit by digit exactly as Date.parse does, and leaves the rest to it', () => {
    let seed = 11;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    const samples: string[] = ['0099-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z', '2026-02-29T12:00:00.000Z', '2026-13-01T00:00:00.000Z', '2026-00-10T00:00:00.000Z', '2026-11-22T24:00:00.000Z', '2026-11-22T08:60:00.000Z', '2026-11-22T08:00:60.000Z', '2026-11-22T08:00:00.000+01:00', '2026-11-22 08:00:00.000Z', '2026-11-22T08:00:00.00aZ', '2026-11-22T08:00:00Z', '+02026-11-22T08:00:00.000Z'];
    for (let i = 0; i < 3000; i++) {
      samples.push(`${pad(1900 + rand(300), 4)}-${pad(rand(14), 2)}-${pad(rand(33), 2)}T${pad(rand(26), 2)}:${pad(rand(62), 2)}:${pad(rand(62), 2)}.${pad(rand(1000), 3)}Z`);
      samples.push(new Date(rand(2 ** 31) * 1000 + rand(1000)).toISOString());
    }
    for (const s of samples) {
      const parsed = Date.parse(s);
      expect(toEpochMs(s), s).toBe(Number.isNaN(parsed) ? undefined : parsed);
    }
  });
  it('renders args compactly on one line, JSON strings included', () => {
    expect(compactArgs({ path: 'a.txt', content: 'x\ny' }, 100)).toBe('path="a.txt" content="x\\ny"');
    expect(compactArgs('{"cmd":"ls -la"}', 100)).toBe('cmd="ls -la"');
    expect(compactArgs({ a: 'x'.repeat(500) }, 50)).toHaveLength(50);
  });
  it('finds touched paths for write/edit/patch tools only', () => {
    expect(pathsFromToolCall('write', { path: 'hello.txt', content: '' })).toEqual(['hello.txt']);
    expect(pathsFromToolCall('Edit', { file_path: '/p/a.ts' })).toEqual(['/p/a.ts']);
    expect(pathsFromToolCall('MultiEdit', { file_path: '/p/b.ts', edits: [] })).toEqual(['/p/b.ts']);
    expect(pathsFromToolCall('write_file', '{"file_path":"x.md"}')).toEqual(['x.md']);
    expect(pathsFromToolCall('read', { path: 'a' })).toEqual([]);
    const patch = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: src/b.ts\n+z\n*** End Patch';
    expect(pathsFromToolCall('apply_patch', { input: patch })).toEqual(['src/a.ts', 'src/b.ts']);
    expect(pathsFromToolCall('apply_patch', patch)).toEqual(['src/a.ts', 'src/b.ts']);
  });
  it('extracts shell commands', () => {
    expect(commandFromToolCall('bash', { command: 'npm  test' })).toBe('npm test');
    expect(commandFromToolCall('shell', { command: ['bash', '-lc', 'cargo test'] })).toBe('cargo test');
    expect(commandFromToolCall('exec_command', '{"cmd":"ls"}')).toBe('ls');
    expect(commandFromToolCall('read', { command: 'x' })).toBeUndefined();
  });
  it('walks the active branch root→leaf and survives cycles and gaps', () => {
    const m = new Map<string, { parentId: string | null }>([
      ['a', { parentId: null }], ['b', { parentId: 'a' }], ['c', { parentId: 'b' }], ['d', { parentId: 'b' }],
    ]);
    expect(activeBranch(m, 'd')).toEqual(['a', 'b', 'd']);
    expect(activeBranch(m, 'c')).toEqual(['a', 'b', 'c']);
    const cyc = new Map<string, { parentId: string | null }>([['x', { parentId: 'y' }], ['y', { parentId: 'x' }]]);
    expect(activeBranch(cyc, 'x')).toEqual(['y', 'x']);
    expect(activeBranch(m, 'zz')).toEqual([]);
  });
  it('joins text parts and skips thoughts', () => {
    expect(textFromParts([{ type: 'text', text: 'a' }, { type: 'image' }, { text: 'b' }, { text: 'hidden', thought: true }])).toBe('a\nb');
    expect(textFromParts('plain')).toBe('plain');
  });
  it('parses only JSON objects', () => {
    expect(parseJsonObject('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonObject('[1]')).toBeUndefined();
    expect(parseJsonObject('{bad')).toBeUndefined();
  });
});

describe('pushJsonLine', () => {
  it('takes each glued record in order; broken parts and records that throw are counted, the rest still taken', () => {
    const taken: unknown[] = [];
    let skipped = 0;
    const take = (rec: Record<string, unknown>) => {
      if (rec.boom) throw new Error('too deep');
      taken.push(rec.n);
    };
    pushJsonLine('{"n":1}{"boom":true}{"n":2}{"n":', take, (n) => (skipped += n));
    expect(taken).toEqual([1, 2]);
    expect(skipped).toBe(2);
    pushJsonLine('', take, (n) => (skipped += n));
    expect(skipped).toBe(2);
  });
});

describe('slashCommandIsTask', () => {
  it('a skill or custom command given two words or more is the task; a bare one, a setting, a target or housekeeping is not', () => {
    for (const task of ['/apply-grant Use this skill to help me apply', '/sp.plan Build the book', '/skill:commit with a short message', '/review the login flow', '/solana-dev use the <idea> and suggest']) expect(slashCommandIsTask(task), task).toBe(true);
    for (const not of ['/init', '/deploy', '/buddy off', '/review src/app.ts', '/compact keep the API notes', '/model claude-opus-4', '/stats model', '/clear', '/exit', '/skill:remember', 'fix the tests', '/ 42 17', '/usr/bin/env node script']) expect(slashCommandIsTask(not), not).toBe(false);
  });
});
