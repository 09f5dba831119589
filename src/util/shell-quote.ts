/**
 * One word for a POSIX shell command line: left as it is when it holds only characters no shell treats
 * specially, else in single quotes (a `'` inside becomes `'\''`). Pure.
 */
import { sanitizeLine } from './sanitize.js';

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A command line printed for a person to paste: each word made safe for a terminal (sanitizeLine: no
 * escape sequence, one line), then quoted. Every line recapwrap prints to be pasted goes through this.
 */
export function shellLine(words: readonly string[]): string {
  return words.map((w) => shellQuote(sanitizeLine(w))).join(' ');
}
