import { describe, expect, it } from 'vitest';
import { isPlainWrap, SUBCOMMAND_NAMES } from './fast-wrap.js';
import { createProgram } from './main.js';
import { markForcedWrap } from './commands/wrap.js';

describe('fast wrap path', () => {
  it('knows every subcommand the full CLI registers (else it would wrap a subcommand)', () => {
    const registered = createProgram().commands.map((c) => c.name());
    for (const name of registered) expect(SUBCOMMAND_NAMES, `subcommand ${name}`).toContain(name);
  });

  it('takes plain commands only', () => {
    expect(isPlainWrap(['claude', '--resume'])).toBe(true);
    expect(isPlainWrap(['./agent.sh'])).toBe(true);
    expect(isPlainWrap(['ls'])).toBe(false);
    expect(isPlainWrap(['doctor'])).toBe(false);
    expect(isPlainWrap(['help'])).toBe(false);
    expect(isPlainWrap(['--no-focus', 'claude'])).toBe(false);
    expect(isPlainWrap(['--', 'ls'])).toBe(false);
    expect(isPlainWrap([])).toBe(false);
    expect(isPlainWrap([''])).toBe(false);
  });
});

describe('markForcedWrap', () => {
  const program = createProgram();
  it('turns a leading -- into a marker so the next word is wrapped, not dispatched', () => {
    const marked = markForcedWrap(program, ['--no-focus', '--', 'ls', '-la']);
    expect(marked.slice(0, 2)).toEqual(['--no-focus', '--']);
    expect(marked[2]).not.toBe('ls');
    expect(marked.slice(3)).toEqual(['ls', '-la']);
  });

  it('leaves a -- that belongs to the wrapped command alone', () => {
    expect(markForcedWrap(program, ['cat', '--', 'x'])).toEqual(['cat', '--', 'x']);
    expect(markForcedWrap(program, ['ls', '--json'])).toEqual(['ls', '--json']);
  });
});
