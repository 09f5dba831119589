/**
 * Pure: the bytes of the overlay bar's content for one row of `cols` cells: an accent `✦ recap:` then
 * the dimmed recap text, sanitized and cut to the width (CJK and emoji counted right). Where and how
 * it is drawn over the agent's screen is screen.ts's job.
 */
import { sanitizeLine } from '../util/sanitize.js';
import { displayWidth, truncateToWidth } from '../util/text-width.js';

export type BarPosition = 'top' | 'bottom';

/** Accent (bold cyan) label, then dim text; both end with SGR 0 so nothing leaks into the row. */
const LABEL = '✦ recap:';
const LABEL_SGR = '\x1b[0;1;36m';
const TEXT_SGR = '\x1b[0;2m';
const RESET = '\x1b[0m';

export interface RenderedBar {
  /** Bytes to write at column 0 of the bar row (no cursor movement, no newline). */
  bytes: string;
  /** Cells the bar covers (≤ cols). */
  width: number;
}

// The recap text may start with its own `recap:`; the label already says it.
function stripLabel(text: string): string {
  return text.replace(/^\s*(✦\s*)?recap:\s*/i, '');
}

export function renderOverlayBar(text: string, cols: number): RenderedBar {
  if (cols <= 0) return { bytes: '', width: 0 };
  const label = truncateToWidth(LABEL, cols, '');
  const labelWidth = displayWidth(label);
  const room = cols - labelWidth - 1;
  const body = room > 0 ? truncateToWidth(sanitizeLine(stripLabel(text)), room) : '';
  const bytes = `${LABEL_SGR}${label}${body ? `${TEXT_SGR} ${body}` : ''}${RESET}`;
  return { bytes, width: labelWidth + (body ? 1 + displayWidth(body) : 0) };
}

/** The 0-based row the bar uses. */
export function barRow(position: BarPosition, rows: number): number {
  return position === 'top' ? 0 : Math.max(0, rows - 1);
}
