/**
 * Whether the focus reports a wrapper gets can be trusted to say when you look away and back: the rule
 * that decides between recaps on focus return and the idle timer (#43). Pure: the caller feeds it the
 * reports it saw and, inside tmux, tmux's `focus-events` option as read (at start and at each attach).
 * It knows no timer, no recap and no tmux call.
 *
 * Why a report alone proves nothing: tmux sends a pane `ESC[I` / `ESC[O` on attach and detach whatever
 * `focus-events` says, but with the option off (its default) never on a pane or window switch; one
 * attach would otherwise switch recaps to focus mode for good, and no switch away is ever seen.
 */

/** tmux's `focus-events` option as read; 'unknown' when the read failed. */
export type TmuxFocusOption = 'on' | 'off' | 'unknown';

export interface FocusEvidence {
  /** Inside tmux: the option as last read (undefined outside tmux, and inside before the first read answers). */
  readonly tmux?: TmuxFocusOption;
  readonly insideTmux: boolean;
  /** The last report seen, if any. */
  readonly last?: 'in' | 'out';
  /** A focus-out has been seen since the reports last contradicted themselves. */
  readonly sawOut: boolean;
  /** Two focus-ins came with no focus-out between them, after a focus-out had been seen: one went missing. */
  readonly broken: boolean;
}

export function initialFocusEvidence(insideTmux: boolean): FocusEvidence {
  return { insideTmux, sawOut: false, broken: false };
}

// A focus report arrived. A focus-in while already in, once a focus-out had shown the reports work,
// means a focus-out went missing: the reports stop proving themselves until the next focus-out.
export function noteFocusReport(e: FocusEvidence, focused: boolean): FocusEvidence {
  if (!focused) return { ...e, last: 'out', sawOut: true, broken: false };
  const broken = e.last === 'in' && e.sawOut;
  return { ...e, last: 'in', broken, sawOut: broken ? false : e.sawOut };
}

export function noteTmuxFocusOption(e: FocusEvidence, option: TmuxFocusOption): FocusEvidence {
  return { ...e, tmux: option };
}

/**
 * Whether focus reports say where you are (recaps on focus return, no idle timer). Inside tmux the
 * option decides: off, only attach and detach are reported; on, any report shows they reach the pane;
 * unread or unknown, as outside tmux. Outside tmux (or unknown) a focus-out must have been seen: a
 * terminal that reports focus reports leaving it too.
 */
export function focusReportsHold(e: FocusEvidence): boolean {
  if (e.broken) return false;
  if (e.insideTmux && e.tmux === 'off') return false;
  if (e.insideTmux && e.tmux === 'on') return e.last !== undefined;
  return e.sawOut;
}
