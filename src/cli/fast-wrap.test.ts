import { describe, expect, it } from 'vitest';
import { isPlainWrap, parseFastWrap, SUBCOMMAND_NAMES } from './fast-wrap.js';
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

describe('parseFastWrap (wrap options without commander, #29)', () => {
  it('reads the options table flags, --agent and -- as the full CLI does', () => {
    expect(parseFastWrap(['--no-focus', 'claude', '--resume'])).toEqual({ command: 'claude', args: ['--resume'], flags: { focus: false } });
    expect(parseFastWrap(['--away', '5', '--display=overlay', '--tmux-focus', 'pi'])).toEqual({ command: 'pi', args: [], flags: { awaySeconds: '5', display: 'overlay', tmuxFocus: true } });
    expect(parseFastWrap(['--agent', 'pi', '--', './as-pi', '--away', '9'])).toEqual({ command: './as-pi', args: ['--away', '9'], flags: {}, agent: 'pi' });
    // `--` makes the next word the command even when it names a subcommand.
    expect(parseFastWrap(['--no-llm', '--', 'ls', '-la'])).toEqual({ command: 'ls', args: ['-la'], flags: { llm: false } });
    // The last of a repeated flag wins, as with commander.
    expect(parseFastWrap(['--away', '5', '--away=7', 'x'])?.flags).toEqual({ awaySeconds: '7' });
  });

  it('leaves everything else to the full CLI (its help, its errors)', () => {
    for (const argv of [
      ['--help'], ['-h', 'pi'], ['-V'], ['--version'],
      ['--bogus', 'pi'], ['--focus', 'pi'], ['--no-focus=1', 'pi'],
      ['--away'], ['--away', '--no-focus', 'pi'],
      ['--agent', 'nope', 'x'], ['--no-focus'], ['--no-focus', '--'], ['--no-focus', 'ls'], ['--no-focus', ''],
      ['doctor'], ['status', '--pane', '%1'],
    ]) {
      expect(parseFastWrap(argv), argv.join(' ')).toBeUndefined();
    }
  });

  it('takes exactly the flags the full CLI declares', () => {
    const program = createProgram();
    const declared = program.options.map((o) => o.long).filter((l): l is string => Boolean(l) && l !== '--version');
    for (const long of declared) {
      const option = program.options.find((o) => o.long === long);
      const argv = option?.required ? [long, long === '--agent' ? 'pi' : 'v', 'cmd'] : [long, 'cmd'];
      expect(parseFastWrap(argv), long).toMatchObject({ command: 'cmd' });
    }
  });
});
