import { describe, expect, it } from 'vitest';
import { focusReportsHold, initialFocusEvidence, noteFocusReport, noteTmuxFocusOption, type FocusEvidence, type TmuxFocusOption } from './focus-evidence.js';

// Feed reports ('in' / 'out') and option reads ('on' / 'off' / 'unknown' as `tmux:X`) in order.
function after(insideTmux: boolean, ...steps: string[]): FocusEvidence {
  let e = initialFocusEvidence(insideTmux);
  for (const step of steps) {
    if (step.startsWith('tmux:')) e = noteTmuxFocusOption(e, step.slice(5) as TmuxFocusOption);
    else e = noteFocusReport(e, step === 'in');
  }
  return e;
}

describe('focus reports hold (#43)', () => {
  it('do not before any report', () => {
    expect(focusReportsHold(after(false))).toBe(false);
    expect(focusReportsHold(after(true, 'tmux:on'))).toBe(false);
  });

  it('outside tmux: a focus-in alone proves nothing, a focus-out does', () => {
    expect(focusReportsHold(after(false, 'in'))).toBe(false);
    expect(focusReportsHold(after(false, 'in', 'out'))).toBe(true);
    expect(focusReportsHold(after(false, 'out', 'in'))).toBe(true);
  });

  // The bug: the attach of a re-attach sends one focus-in (and the detach a focus-out), yet with
  // focus-events off no pane or window switch is ever reported.
  it('inside tmux with focus-events off: never, whatever attach and detach sent', () => {
    expect(focusReportsHold(after(true, 'tmux:off', 'in'))).toBe(false);
    expect(focusReportsHold(after(true, 'tmux:off', 'out', 'in'))).toBe(false);
    expect(focusReportsHold(after(true, 'tmux:off', 'in', 'out', 'in', 'out', 'in'))).toBe(false);
  });

  it('inside tmux with focus-events on: once any report arrived (tmux reports the state when asked)', () => {
    expect(focusReportsHold(after(true, 'tmux:on', 'in'))).toBe(true);
    expect(focusReportsHold(after(true, 'tmux:on', 'out'))).toBe(true);
  });

  it('inside tmux the option read on attach decides again: turned off, the idle timer is back; on, focus mode', () => {
    expect(focusReportsHold(after(true, 'tmux:on', 'in', 'out', 'in', 'tmux:off'))).toBe(false);
    expect(focusReportsHold(after(true, 'tmux:off', 'in', 'out', 'in', 'tmux:on'))).toBe(true);
  });

  it('inside tmux with the option unknown (the read failed or has not answered): as outside tmux', () => {
    expect(focusReportsHold(after(true, 'in'))).toBe(false);
    expect(focusReportsHold(after(true, 'tmux:unknown', 'in'))).toBe(false);
    expect(focusReportsHold(after(true, 'tmux:unknown', 'in', 'out'))).toBe(true);
  });

  it('stop holding when a focus-out went missing (two focus-ins in a row), until the next focus-out', () => {
    const broken = after(false, 'in', 'out', 'in', 'in');
    expect(focusReportsHold(broken)).toBe(false);
    expect(focusReportsHold(noteFocusReport(broken, true))).toBe(false);
    expect(focusReportsHold(noteFocusReport(broken, false))).toBe(true);
    expect(focusReportsHold(after(true, 'tmux:on', 'in', 'out', 'in', 'in'))).toBe(false);
  });

  it('a repeated focus-in before any focus-out is no contradiction (nothing was proven)', () => {
    expect(after(false, 'in', 'in').broken).toBe(false);
    expect(focusReportsHold(after(true, 'tmux:on', 'in', 'in'))).toBe(true);
  });
});
