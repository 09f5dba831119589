import { describe, expect, it } from 'vitest';
import { activeBranch, clip, commandFromToolCall, compactArgs, parseJsonObject, pathsFromToolCall, textFromParts, thinkingEvent, toEpochMs } from './shared-parse.js';
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
