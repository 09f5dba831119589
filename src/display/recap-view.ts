/**
 * A recap as displays receive it from app: the full line (≤ 220 cells, for pane options and state) and
 * a composer that fits its text (no label) into a number of cells by priority. The composer is the
 * recap layer's, handed over by app, so display code never imports recap code.
 */
import type { ComposeText } from './overlay.js';

export type { ComposeText };

export interface RecapView {
  readonly line: string;
  readonly compose: ComposeText;
}
