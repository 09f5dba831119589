import { describe, expect, it } from 'vitest';
import type { TmuxFocusOption } from '../../focus/focus-evidence.js';
import { pollUntil } from '../../../test/helpers/poll.js';
import { startFocusEvidence } from './focus-evidence-wiring.js';

// A wrap run's focus events, fired by hand.
function fakeWrap() {
  const listeners = new Set<(focused: boolean) => void>();
  return {
    onFocus(listener: (focused: boolean) => void) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    focus: (focused: boolean) => listeners.forEach((l) => l(focused)),
  };
}

describe('focus evidence wiring (#43)', () => {
  it('inside tmux: reads focus-events at start and again at each focus-in (an attach), and says when the answer changes', async () => {
    const wrap = fakeWrap();
    let option: TmuxFocusOption = 'off';
    let reads = 0;
    const evidence = startFocusEvidence({ wrap, readTmuxOption: async () => (reads++, option), log: () => {} });
    const changes: boolean[] = [];
    evidence.onChange((hold) => changes.push(hold));
    await pollUntil(() => reads === 1, { description: 'the read at start' });
    wrap.focus(false); // detach
    wrap.focus(true); // attach
    await pollUntil(() => reads === 2, { description: 'the read at the attach' });
    await Promise.resolve();
    expect(evidence.hold).toBe(false);
    // The user turned focus-events on meanwhile: the next attach finds it, and reports hold from then.
    option = 'on';
    wrap.focus(false);
    wrap.focus(true);
    await pollUntil(() => evidence.hold, { description: 'the reports to hold' });
    expect(changes.at(-1)).toBe(true);
    evidence.dispose();
  });

  it('uses the option the start read instead of asking again', async () => {
    const wrap = fakeWrap();
    let reads = 0;
    const evidence = startFocusEvidence({ wrap, readTmuxOption: async () => (reads++, 'off'), startOption: Promise.resolve('on'), log: () => {} });
    const told: boolean[] = [];
    evidence.onChange((hold) => told.push(hold));
    await new Promise((resolve) => setImmediate(resolve));
    wrap.focus(false); // a focus-out asks tmux nothing; with focus-events on it proves the reports
    expect(evidence.hold).toBe(true);
    expect(told).toEqual([true]);
    expect(reads).toBe(0);
    evidence.dispose();
  });

  it('outside tmux: a focus-out proves the reports, no tmux is asked', () => {
    const wrap = fakeWrap();
    const evidence = startFocusEvidence({ wrap, log: () => {} });
    wrap.focus(true);
    expect(evidence.hold).toBe(false);
    wrap.focus(false);
    expect(evidence.hold).toBe(true);
    evidence.dispose();
  });
});
