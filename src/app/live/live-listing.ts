/**
 * What `ls` and `board` show of each live wrapper, in one order and one wording: newest first, the
 * session named by its agent and where it runs (never a pid), the recap without its `recap:` label
 * (the column is titled RECAP) composed for the cells it gets. Pure.
 */
import { attentionLabel } from '../../display/attention-order.js';
import type { BoardRow } from '../../display/board-view.js';
import type { LiveState } from '../../display/state-file.js';
import { composeRecap } from '../../recap/compose.js';
import { formatSince, shortenDir } from '../../util/age.js';
import { sanitizeLine } from '../../util/sanitize.js';

/** Newest wrapper first; wrappers started in the same millisecond by pid, higher first. */
export function orderLiveStates(states: readonly LiveState[]): LiveState[] {
  return [...states].sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : b.pid - a.pid));
}

/** A wrapper as a person names it: `claude in ~/proj (%3)`. */
export function nameLiveState(s: LiveState, home: string): string {
  return sanitizeLine(`${s.agent ?? s.command} in ${shortenDir(s.cwd, home, 28)}${s.tmuxPane ? ` (${s.tmuxPane})` : ''}`);
}

/** A board row without its key: the recap is the text without its label, sanitized and whole (fit it with fitRecapCell). */
export type LiveRow = Omit<BoardRow, 'key'>;

/** A wrapped command that is not an agent (`recapwrap bash`): listed as a command, with no recap (#28). */
export function isPlainCommand(s: Pick<LiveState, 'agent'>): boolean {
  return s.agent === null;
}

export function liveRow(s: LiveState, now: number, home: string, dirWidth = 28): LiveRow {
  if (isPlainCommand(s)) {
    return {
      agent: sanitizeLine(s.command),
      dir: shortenDir(sanitizeLine(s.cwd), home, dirWidth),
      state: `command ${formatSince(s.startedAt, now)}`,
      looked: '-',
      pane: sanitizeLine(s.tmuxPane ?? '-'),
      recap: '',
    };
  }
  return {
    agent: sanitizeLine(s.agent ?? s.command),
    // Every cell comes from a state file: folder names and commands can hold escape sequences too (#19).
    dir: shortenDir(sanitizeLine(s.cwd), home, dirWidth),
    // A session that wants you says so after its state (`waiting 5m !waiting`, #21).
    state: `${sanitizeLine(s.state)} ${formatSince(s.stateSince, now)}${attentionLabel(s) ? ` ${attentionLabel(s)}` : ''}`,
    looked: formatSince(s.lastFocusAt, now),
    pane: sanitizeLine(s.tmuxPane ?? '-'),
    recap: composeRecap({ line: s.lastRecap?.line ?? '' }, Number.MAX_SAFE_INTEGER),
  };
}

/** The recap composed for a column of `cells` cells (Infinity: whole). */
export function fitRecapCell(recap: string, cells: number): string {
  return Number.isFinite(cells) ? composeRecap({ line: recap }, cells) : recap;
}
