import { describe, expect, it } from 'vitest';
import { holdsFor } from '../../../test/helpers/poll.js';
import type { Disposable } from '../../types.js';
import { typeDraftWhenReady, type DraftRun } from './typed-draft.js';

// A fake run around the real draft timing: output times set by the test, what reaches the agent recorded.
function fakeRun(bracketed = true) {
  const inputs = new Set<(d: string) => void>();
  const sent: string[] = [];
  const run: DraftRun & { lastOutputAt: number } = {
    lastOutputAt: 0,
    childWantsBracketedPaste: bracketed,
    onInput: (fn): Disposable => (inputs.add(fn), { dispose: () => inputs.delete(fn) }),
    onExit: (): Disposable => ({ dispose: () => {} }),
    writeToChild: (d) => sent.push(d),
  };
  return { run, sent, type: (d: string) => inputs.forEach((fn) => fn(d)) };
}

describe('typeDraftWhenReady', () => {
  it('types nothing before the first screen; once output is quiet, one bracketed paste with no CR', async () => {
    const f = fakeRun();
    const typed = typeDraftWhenReady(f.run, 'run the tests\nthen commit', () => {});
    // Nothing says "the draft was not typed" sooner than a wait past the settle time (300 ms).
    await holdsFor(() => f.sent.length === 0, { forMs: 400, description: 'no draft before the agent has drawn' });
    f.run.lastOutputAt = Date.now();
    expect(await typed).toBe(true);
    expect(f.sent).toEqual(['\x1b[200~run the tests\nthen commit\x1b[201~']);
  });

  it('a terminal answer on the input does not count as typing; text you type first drops the draft', async () => {
    const f = fakeRun(false);
    const typed = typeDraftWhenReady(f.run, 'next step', () => {});
    f.type('\x1b[12;1R\x1b[?1u'); // CPR and kitty flags answers
    f.type('h');
    expect(await typed).toBe(false);
    expect(f.sent).toEqual([]);
  });
});
