/**
 * One word for a POSIX shell command line: left as it is when it holds only characters no shell treats
 * specially, else in single quotes (a `'` inside becomes `'\''`). And a command line to print for pasting
 * (shellCommandForTerminal), which never carries a character a terminal acts on. Pure.
 */

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

// What a terminal acts on or hides: C0 and C1 controls, DEL, format characters (bidi, zero-width).
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f]|\p{Cf}/u;

// One character in ANSI-C quotes: controls and invisibles as escapes, `\` and `'` escaped.
function ansiC(ch: string): string {
  if (ch === '\\' || ch === "'") return `\\${ch}`;
  if (!UNPRINTABLE.test(ch)) return ch;
  const code = ch.codePointAt(0) as number;
  if (code < 0x80) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\U${code.toString(16).padStart(8, '0')}`;
}

/**
 * A word of a command line printed for a person to read or paste: shellQuote's, unless it holds a
 * character a terminal would act on (an escape sequence in a session id or a folder name), which is then
 * written in ANSI-C quotes (`$'…\x1b…'`: bash, zsh, ksh, POSIX sh of 2024) so that what is printed is
 * the exact word and the terminal sees no control. Never for a command that a shell runs (dash has no `$'…'`).
 */
export function shellQuoteForTerminal(word: string): string {
  return UNPRINTABLE.test(word) ? `$'${Array.from(word, ansiC).join('')}'` : shellQuote(word);
}

/** A command line (its words) to print for pasting: each word quoted by shellQuoteForTerminal. */
export function formatCommandForTerminal(words: readonly string[]): string {
  return words.map(shellQuoteForTerminal).join(' ');
}
