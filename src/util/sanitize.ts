/**
 * Makes untrusted text (transcripts, model output) safe to show: no escape sequences, no control
 * characters, one line. Width cutting is in text-width.ts; tmux format escaping is in the tmux display.
 */

// CSI, OSC (BEL or ST terminated), DCS/SOS/PM/APC strings, and two-byte ESC sequences, in 7-bit and 8-bit forms.
const ESCAPE_SEQUENCE =
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|(?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?/g;
// C0 and C1 controls, DEL, and invisible format characters that can reorder or hide text
// (bidi overrides and isolates, zero-width joiners stay: emoji need ZWJ).
const CONTROL_CHARS = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ufeff]/g;
const WHITESPACE_RUN = /\s+/g;

/** Remove escape sequences and control characters; newlines and tabs become single spaces. */
export function sanitizeLine(text: string): string {
  return text
    .replace(ESCAPE_SEQUENCE, '')
    .replace(/[\r\n\t\v\f\u2028\u2029]+/g, ' ')
    .replace(CONTROL_CHARS, '')
    .replace(WHITESPACE_RUN, ' ')
    .trim();
}

/** Like sanitizeLine but keeps line breaks (for multi-line cards). */
export function sanitizeBlock(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => sanitizeLine(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
