/**
 * One definition of "unsafe on a terminal" for tests of every text output: ESC and the other C0 controls
 * except newline and tab, DEL, C1 (U+009B is CSI for many terminals), bidi controls, zero-width and
 * other invisible format characters.
 */
export const UNSAFE_FOR_TERMINAL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]|\p{Cf}/u;

/** The unsafe characters of a text, as code points (empty when none), for readable failures. */
export function findUnsafe(text: string): string[] {
  const out: string[] = [];
  for (const ch of text) {
    if (ch === '\u200d') continue; // ZWJ is allowed between emoji (see sanitize.ts); checked by its own unit test
    if (UNSAFE_FOR_TERMINAL.test(ch)) out.push(`U+${ch.codePointAt(0)!.toString(16).padStart(4, '0')}`);
  }
  return out;
}
