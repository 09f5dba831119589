/**
 * Pure: which transcript texts cannot hold any of some words once cleaned (clean.ts), so a reader that
 * only looks for those words (search's `turn`) need not clean them: cleaning and masking are most of
 * what reading a session costs. Says "cannot" only when sure; anything it is not sure of is cleaned.
 *
 * Why it is exact: the words are findAnchor's (folded, runs of letters, digits and `_./-`), so a word
 * found in a text lies inside one run of such characters. Cleaning a text of printable ASCII (tabs and
 * line breaks allowed) only turns whitespace into other whitespace, drops whitespace at line ends, cuts
 * the text, and puts `[secret]` where masking removes something: every run of word characters in the
 * cleaned text is then a piece of the raw text's, or of `secret`, or of what a cut adds (`… [cut: N more
 * characters]` for a text, a final `…` for a line). A text with anything else (ESC, other controls,
 * anything not ASCII: accents fold, invisible characters are dropped and join what they split) is cleaned.
 */

// Printable ASCII and the whitespace the cleaner only turns into other whitespace.
const NOT_PLAIN = /[^\t\n\v\f\r\x20-\x7e]/;
// A text's cut mark as findAnchor folds it (`…` is `...`): its runs of word characters.
const CUT_MARK_RUNS = ['...', 'cut', 'more', 'characters'];
const DIGITS = /^\d+$/;
/**
 * A raw text at most this many times shorter than its bound is never cut: cleaning turns a tab into four
 * spaces and masking writes 8 characters for a value of at least one (each masked match holds more).
 */
const GROWTH_MAX = 40;

export interface WordGate {
  /** The cleaned text (cleanText, with its cut mark) of `raw` bounded to `maxChars` cannot hold any word. */
  textCannotHold(raw: string, maxChars: number): boolean;
  /** The cleaned tool output of `raw` cannot hold any word (its cut is a flag, not a mark in the text). */
  outputCannotHold(raw: string): boolean;
  /**
   * The unified diff of `before` → `after` (diffs.ts) cannot hold any word: its lines are the cleaned
   * texts' lines after `+`, `-` or a space, under hunk heads of digits (`@@ -1,2 +1,3 @@`).
   */
  diffCannotHold(before: string, after: string): boolean;
  /** The cleaned line (cleanLine) of `raw` bounded to `maxChars` cannot hold any word. */
  lineCannotHold(raw: string, maxChars: number): boolean;
}

/** A gate for these folded words; undefined when there is none or masking could write one (`secret`, `cre`). */
export function createWordGate(words: readonly string[]): WordGate | undefined {
  if (words.length === 0 || words.some((w) => 'secret'.includes(w))) return undefined;
  // A word the cut mark could hold: then a text that may be cut is cleaned.
  const inTextMark = words.some((w) => DIGITS.test(w) || CUT_MARK_RUNS.some((run) => run.includes(w)));
  // A line's mark is a final `...`: only a word ending in a dot can take some of it.
  const inLineMark = words.some((w) => w.endsWith('.'));
  // A word a diff's line signs or hunk heads could hold with what follows them.
  const inDiffMarks = words.some((w) => w.startsWith('-') || DIGITS.test(w));
  const lacksWords = (raw: string): boolean => {
    if (NOT_PLAIN.test(raw)) return false;
    const lower = raw.toLowerCase();
    for (const w of words) if (lower.includes(w)) return false;
    return true;
  };
  return {
    textCannotHold: (raw, maxChars) => !(inTextMark && raw.length * GROWTH_MAX > maxChars) && lacksWords(raw),
    outputCannotHold: lacksWords,
    diffCannotHold: (before, after) => !inDiffMarks && lacksWords(before) && lacksWords(after),
    lineCannotHold: (raw, maxChars) => !(inLineMark && raw.length * GROWTH_MAX > maxChars) && lacksWords(raw),
  };
}
