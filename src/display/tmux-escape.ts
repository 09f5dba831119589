/**
 * Text for tmux formats (status lines, messages): control characters removed, one line, and every `#`
 * doubled, which tmux's renderer shows as one `#`; so text can neither start a format, a style nor a
 * `#(command)`. No width cutting here (that needs string-width, slow to load for a status line).
 */
import { sanitizeLine } from '../util/sanitize.js';

export function escapeTmuxText(text: string): string {
  return sanitizeLine(text).replace(/#/g, '##');
}
