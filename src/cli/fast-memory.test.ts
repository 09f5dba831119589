// The memory commands' fast path reads argv exactly as the full CLI (commander) does, or leaves it to it.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseFastMemory } from './fast-memory.js';
import { createProgram } from './main.js';

// What the full CLI hands the memory command for argv: its arguments and options (the action replaced).
async function viaCommander(argv: string[]): Promise<{ verb: string; args: string[]; options: Record<string, unknown> }> {
  const program = createProgram();
  let got: { verb: string; args: string[]; options: Record<string, unknown> } | undefined;
  for (const sub of program.commands) {
    sub.action(function (this: Command, ...a: unknown[]) {
      const query = a[0];
      got = { verb: this.name(), args: Array.isArray(query) ? [query.join(' ')] : [], options: { ...this.opts() } };
    });
  }
  await program.parseAsync(argv, { from: 'user' });
  if (!got) throw new Error(`no action for ${argv.join(' ')}`);
  return got;
}

describe('memory fast path', () => {
  it('reads plain index, sessions and search as commander does', async () => {
    const cases = [['index'], ['index', '--json'], ['sessions'], ['sessions', '--limit', '20'], ['sessions', '--json', '--limit=5'], ['search', 'tag'], ['search', 'quokkafrost', '--json'], ['search', 'login', 'bug', '--limit', '3', '--all-words'], ['search', ''], ['search', 'a', '--limit', '2', 'b', '--limit', '4']];
    for (const argv of cases) {
      const fast = parseFastMemory(argv);
      expect(fast, argv.join(' ')).toBeDefined();
      expect({ verb: fast?.verb, args: fast?.args, options: fast?.options }, argv.join(' ')).toEqual(await viaCommander(argv));
    }
  });

  it('leaves every other form to the full CLI', () => {
    const cases = [['show', 'x'], ['index', '--rebuild'], ['index', 'extra'], ['index', '--json=1'], ['sessions', '--here'], ['sessions', '--limit'], ['sessions', '--limit', '--json'], ['sessions', 'x'], ['search'], ['search', '--json'], ['search', '-x'], ['search', 'a', '--', 'b'], ['search', 'a', '--host', 'h'], ['search', 'a', '--help'], ['toString'], ['--json', 'index'], []];
    for (const argv of cases) expect(parseFastMemory(argv), argv.join(' ')).toBeUndefined();
  });
});
