/**
 * The one sanitizer for untrusted text (transcripts, model output, state files, folder names) on its
 * way to a terminal: no escape sequences, no control characters, no invisible or reordering
 * characters, one line. JSON for terminals goes through stringifyJsonSafely. Width cutting is in
 * text-width.ts; tmux format escaping is in the tmux display.
 */

// CSI, OSC (BEL or ST terminated), DCS/SOS/PM/APC strings, and two-byte ESC sequences, in 7-bit and 8-bit forms.
const ESCAPE_SEQUENCE =
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|(?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?/g;
const LINE_BREAKS = /[\r\n\t\v\f\u0085\u2028\u2029]+/g;
/**
 * C0 and C1 controls, DEL, every format character (Unicode category Cf: bidi embeddings, overrides and
 * isolates such as U+202E, marks, zero-width space/non-joiner/joiner, word joiner, BOM, soft hyphen,
 * interlinear annotations, tag characters), the combining grapheme joiner, Hangul fillers that draw as
 * blanks, and supplementary variation selectors (invisible; used to smuggle text).
 * ZWJ (U+200D) is the one exception, and only between two emoji: 👩‍💻 stays one glyph. Anywhere else it
 * is removed, as it only hides text there.
 */
const INVISIBLE = /(\p{Extended_Pictographic}(?:\u{fe0f}|\p{Emoji_Modifier})?\u200d)(?=\p{Extended_Pictographic})|[\x00-\x1f\x7f-\x9f\u115f\u1160\u3164\uffa0]|\u034f|\p{Cf}|[\u{e0100}-\u{e01ef}]/gu;
const WHITESPACE_RUN = /\s+/g;

/** Remove escape sequences and control or invisible characters; newlines and tabs become single spaces. */
export function sanitizeLine(text: string): string {
  return String(text)
    .replace(ESCAPE_SEQUENCE, '')
    .replace(LINE_BREAKS, ' ')
    .replace(INVISIBLE, (_, emojiJoin: string | undefined) => emojiJoin ?? '')
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

/**
 * Characters JSON.stringify leaves raw that a terminal would act on or hide: DEL and C1 controls (U+009B
 * is CSI for many terminals), line/paragraph separators, format characters (bidi, zero-width, BOM, tag
 * characters as surrogate pairs) and the fillers above. Matched per UTF-16 unit so tags escape as pairs.
 */
const JSON_UNSAFE =
  /\u034f|[\x7f-\x9f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\udc7f\udd00-\uddef]/g;

/**
 * JSON.stringify for output that may reach a terminal: the same JSON value (a parser reads back exactly
 * the same strings), with every character above written as a \u escape. JSON already escapes C0.
 */
export function stringifyJsonSafely(value: unknown, space?: number): string {
  const json = JSON.stringify(value, null, space);
  if (json === undefined) return 'null';
  return json.replace(JSON_UNSAFE, (ch) => {
    let out = '';
    for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}

const TAB = /\t/g;
const OTHER_LINE_BREAKS = /\r\n|[\r\v\f\u0085\u2028\u2029]/g;

/**
 * Like sanitizeBlock but keeps the text's shape (the reader's answers, code and tool output, #41):
 * indentation and blank lines stay, tabs become four spaces, trailing blanks go; escape sequences,
 * controls and invisible characters are removed as everywhere.
 */
export function sanitizeText(text: string): string {
  return String(text)
    .replace(ESCAPE_SEQUENCE, '')
    .replace(OTHER_LINE_BREAKS, '\n')
    .replace(TAB, '    ')
    .split('\n')
    .map((line) => line.replace(INVISIBLE, (_, emojiJoin: string | undefined) => emojiJoin ?? '').trimEnd())
    .join('\n');
}
