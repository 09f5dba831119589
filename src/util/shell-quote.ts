/**
 * One word for a POSIX shell command line: left as it is when it holds only characters no shell treats
 * specially, else in single quotes (a `'` inside becomes `'\''`). Pure.
 */

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
