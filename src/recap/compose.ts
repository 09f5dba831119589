/**
 * Composes a recap for the cells it is shown in: the text a user reads (no `recap:` label), fitted to a
 * width by priority so the state and the next step survive a narrow pane. Pure: every surface (overlay,
 * tmux, ls, board, status, `recap --width`) calls this with its own width; nothing here writes anywhere.
 */
import { sanitizeLine } from '../util/sanitize.js';
import { displayWidth, truncateToWidth } from '../util/text-width.js';
import type { Recap } from './types.js';

const LABEL = /^\s*recap:\s*/i;
const NEXT_MARK = ' Next: ';

/** The recap's text without its `recap:` label, sanitized, on one line. */
export function recapText(line: string): string {
  return sanitizeLine(line).replace(LABEL, '').trim();
}

// Cut at a word boundary when one is near, so no word is broken off mid-way; ends with an ellipsis.
function cutAtWord(text: string, cells: number): string {
  if (displayWidth(text) <= cells) return text;
  const hard = truncateToWidth(text, cells);
  const body = hard.slice(0, -1);
  const space = body.lastIndexOf(' ');
  // Only back up to a space when it costs less than a third of the room (CJK text has no spaces).
  if (space > 0 && space >= body.length - Math.max(4, Math.floor(cells / 3))) return `${body.slice(0, space).replace(/[\s,;:—-]+$/u, '')}…`;
  return hard;
}

/**
 * Fit a recap line into `cells` cells. The part after ` Next: ` keeps priority over the part before it:
 * the head is shortened first, then the next step, never the `Next:` mark itself while there is room.
 */
export function fitRecapText(line: string, cells: number): string {
  const text = recapText(line);
  if (cells <= 0) return '';
  if (displayWidth(text) <= cells) return text;
  const at = text.indexOf(NEXT_MARK);
  if (at < 0) return cutAtWord(text, cells);
  const head = text.slice(0, at);
  const next = text.slice(at + 1);
  // Keep at least this much of the head (the state words), give the rest to the next step.
  const headMin = Math.min(displayWidth(head), Math.max(12, Math.floor(cells / 3)));
  const nextRoom = cells - headMin - 1;
  if (nextRoom < 12) return cutAtWord(head, cells);
  const nextText = cutAtWord(next, nextRoom);
  const headText = cutAtWord(head, cells - 1 - displayWidth(nextText));
  return `${headText} ${nextText}`;
}

/** The recap composed for `cells` cells of text (the caller adds its own label, if any). */
export function composeRecap(recap: Pick<Recap, 'line'>, cells: number): string {
  return fitRecapText(recap.line, cells);
}
