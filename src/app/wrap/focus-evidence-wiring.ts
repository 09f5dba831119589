/**
 * Whether this wrapper's focus reports can be trusted (#43), kept current for the live parts: the
 * reports the wrap run sees, and inside tmux the `focus-events` option, read at start and again at
 * each focus-in (an attach sends one), go through the pure rule (focus/focus-evidence.ts). The trigger
 * and attention machines are told when the answer changes. tmux reads are asynchronous, one at a time,
 * and a failed one counts as unknown: never on the agent's path.
 */
import { focusReportsHold, initialFocusEvidence, noteFocusReport, noteTmuxFocusOption, type FocusEvidence, type TmuxFocusOption } from '../../focus/focus-evidence.js';
import type { Disposable } from '../../types.js';
import type { DebugLog } from '../../util/debug-log.js';

/** Whether focus reports hold now, and a listener for changes. */
export interface FocusReports {
  readonly hold: boolean;
  onChange(listener: (hold: boolean) => void): Disposable;
}

export interface FocusEvidenceInput {
  wrap: { onFocus(listener: (focused: boolean) => void): Disposable };
  /** Inside tmux: how to read its focus-events option. Absent outside tmux. */
  readTmuxOption?: () => Promise<TmuxFocusOption>;
  /** The option as read before the child started (run-wrap's check), so the start costs no second read. */
  startOption?: Promise<TmuxFocusOption | undefined>;
  log: DebugLog;
}

export function startFocusEvidence(input: FocusEvidenceInput): FocusReports & Disposable {
  const read = input.readTmuxOption;
  let evidence: FocusEvidence = initialFocusEvidence(Boolean(read));
  let hold = focusReportsHold(evidence);
  let disposed = false;
  let reading = false;
  let readAgain = false;
  const listeners = new Set<(hold: boolean) => void>();

  function update(next: FocusEvidence, why: string): void {
    evidence = next;
    const now = focusReportsHold(evidence);
    if (now === hold) return;
    hold = now;
    input.log('focus', hold ? 'focus reports hold: recaps on return' : 'focus reports do not hold: the idle timer shows recaps', { why, tmux: evidence.tmux ?? null });
    for (const listener of listeners) {
      try {
        listener(hold);
      } catch (error) {
        input.log('focus', 'listener failed', { error: (error as Error).message });
      }
    }
  }

  // Read tmux's option; a focus-in during a read asks for one more after it (the attach may have come after the answer).
  function readOption(first?: Promise<TmuxFocusOption | undefined>): void {
    if (!read || disposed) return;
    if (reading) {
      readAgain = true;
      return;
    }
    reading = true;
    void (first ?? read())
      .then((option) => option ?? read())
      .catch((): TmuxFocusOption => 'unknown')
      .then((option) => {
        reading = false;
        if (disposed) return;
        if (option !== evidence.tmux) input.log('focus', 'tmux focus-events', { option });
        update(noteTmuxFocusOption(evidence, option), `tmux focus-events ${option}`);
        if (readAgain) {
          readAgain = false;
          readOption();
        }
      });
  }

  const focus = input.wrap.onFocus((focused) => {
    update(noteFocusReport(evidence, focused), focused ? 'focus in' : 'focus out');
    if (focused) readOption();
  });
  readOption(input.startOption);

  return {
    get hold() {
      return hold;
    },
    onChange(listener) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    dispose() {
      disposed = true;
      focus.dispose();
      listeners.clear();
    },
  };
}
