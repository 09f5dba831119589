/**
 * A session's vocabulary: every distinct word of every text it holds (prompts, answers, commands, tool
 * output whole, file names), each text masked for secrets first; ids, hashes, base64 and other generated
 * tokens left out. The index holds it beside the ranked condensed text (store.ts, session_words), so a word
 * said anywhere in a session finds it. A word joined by `-` or `_` is kept whole (as typed) and by its
 * parts; `.` splits (file names, versions). Lower case: a word joined by case changes is kept whole. Bounded: at most VOCABULARY_MAX_WORDS words. Pure.
 */
import { bigrams, WORD_CHUNK } from './fts-query.js';
import { maskSecrets } from './secrets.js';

/** Most distinct words kept of one session (past it, later words are counted, not kept). */
export const VOCABULARY_MAX_WORDS = 60_000;
/** A text longer than this is taken by its start only (a dump of many megabytes). */
const TEXT_MAX_CHARS = 4_000_000;
const WORD_MAX_CHARS = 48;
const SEEN_MAX = 200_000;
// Masking is most of the work: a long line met again is masked once (a memo of at most MEMO_MAX_CHARS).
const MEMO_MIN_CHARS = 2000;
const MEMO_LINE_MIN_CHARS = 24;
const MEMO_MAX_CHARS = 4_000_000;
const TEXTS_MAX_CHARS = 8_000_000;
const SHORT_NUMBER_MAX_DIGITS = 3;
const JOINED_MAX_PARTS = 3;
const JOINED_MAX_CHARS = 32;

const JOINER = /[-_]+/;
const EDGE_JOINERS = /^[-_]+|[-_]+$/g;
const MASKED = /\[secret\]/g;
// Terminal colour and cursor sequences in tool output (`ESC[32m`): not words.
// (`[1m` too: the ESC is lost at times.)
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\[[0-9;]{1,8}m/g;
const WRITTEN_ESCAPE = /\\+[nrt](?=[a-z])/gi;
const ANSI_HINT = /\x1b|\[[0-9;]{1,8}m/;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc\u3005]+/gu;
const UNSPACED_ONE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc\u3005]/u;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX_WITH_DIGIT = /^(?=[a-f]*\d)[0-9a-f]{7,}$/i;
const LONG_NUMBER = /^\d{5,}$/;
const LETTER_DIGIT_FLIP = /[a-z]\d|\d[a-z]/gi;
const CASE_FLIP = /[a-z][A-Z]|[A-Z][a-z]/g;

/**
 * A token nobody types from memory: a uuid, a hash (hex with a digit, 7 or more), a long number (a time
 * stamp, an id), a run that flips between letters and digits or between cases like random text does
 * (base64, api ids), or one longer than a word.
 */
export function looksGeneratedToken(token: string): boolean {
  const n = token.length;
  if (n > WORD_MAX_CHARS) return true;
  if (n >= 5 && LONG_NUMBER.test(token)) return true;
  if (n < 7) return false;
  if (HEX_WITH_DIGIT.test(token) || LONG_NUMBER.test(token) || UUID.test(token)) return true;
  if (n >= 12) {
    const flips = token.match(LETTER_DIGIT_FLIP)?.length ?? 0;
    if (flips >= 4 || flips * 5 >= n) return true;
    const cases = token.match(CASE_FLIP)?.length ?? 0;
    // A name in code has a hump every few letters; random text flips case every other letter or so.
    if (cases * 3 >= n && flips >= 1) return true;
    if (cases * 2 >= n) return true;
  }
  return false;
}

function isDigits(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

export class VocabularyBuilder {
  // Words said twice or more (or given as `said`: the ranked text's), and those said once so far.
  private readonly words = new Set<string>();
  private readonly once = new Set<string>();
  // Chunks already taken apart, and how often (1, or 2: done), bounded: a chunk said a third time costs one lookup.
  private seen = new Map<string, number>();
  // Whether a word said once is kept (the ranked text's words), or waits for a second time.
  private sure = false;
  // Long lines already masked, and what masking made of them (bounded by MEMO_MAX_CHARS).
  private readonly memo = new Map<string, string>();
  private memoChars = 0;
  // Texts already taken (not the ranked text's), what masking made of them and how often (bounded by TEXTS_MAX_CHARS).
  private readonly texts = new Map<string, { masked: string; times: number }>();
  private textsChars = 0;
  /** Distinct words past the bound (not kept). */
  overflow = 0;

  constructor(private readonly maxWords = VOCABULARY_MAX_WORDS) {}

  /** Words kept (said twice or more, or in the ranked text). */
  get size(): number {
    return this.words.size;
  }

  /**
   * The words of one text (masked for secrets first). A word is kept once said twice (a word said once in
   * a long output is mostly noise: a made-up name, a typo, a stray token), or at once with `said` (the
   * condensed text: prompts, answers, commands).
   */
  add(raw: string, said = false): void {
    if (!raw) return;
    this.sure = said;
    const whole = raw.length > TEXT_MAX_CHARS ? raw.slice(0, TEXT_MAX_CHARS) : raw;
    // A text met before (a tool's output both in the message and in its result record, a file read
    // again): masked once; met twice, every word of it is counted twice already (kept), so it adds nothing.
    const met = said ? undefined : this.texts.get(whole);
    if (met) {
      if (met.times >= 2) return;
      met.times++;
      this.take(met.masked, said);
      return;
    }
    const masked = whole.length < MEMO_MIN_CHARS ? maskSecrets(whole) : this.maskLines(whole);
    if (!said) this.rememberText(whole, masked);
    this.take(masked, said);
  }

  private rememberText(text: string, masked: string): void {
    if (this.textsChars + text.length > TEXTS_MAX_CHARS) {
      if (text.length > TEXTS_MAX_CHARS / 4) return;
      this.texts.clear();
      this.textsChars = 0;
    }
    this.texts.set(text, { masked, times: 1 });
    this.textsChars += text.length;
  }

  // The text masked, each long line masked once: a line met again (an output stored twice, a file read
  // again) is taken from the memo, its words counted again without masking it again. The new lines are
  // masked together, in one call (a secret spanning lines is seen whole: then nothing is kept in the memo).
  private maskLines(text: string): string {
    const lines = text.split('\n');
    const known: Array<string | undefined> = lines.map((l) => (l.length >= MEMO_LINE_MIN_CHARS ? this.memo.get(l) : undefined));
    const fresh = lines.filter((_, i) => known[i] === undefined);
    if (fresh.length === lines.length) {
      const masked = maskSecrets(text);
      this.remember(lines, masked.split('\n'));
      return masked;
    }
    const masked = fresh.length ? maskSecrets(fresh.join('\n')).split('\n') : [];
    if (masked.length === fresh.length) this.remember(fresh, masked);
    else return masked.join('\n') + '\n' + known.filter((k) => k !== undefined).join('\n');
    let at = 0;
    return lines.map((_, i) => known[i] ?? (masked[at++] as string)).join('\n');
  }

  private remember(lines: readonly string[], masked: readonly string[]): void {
    if (lines.length !== masked.length) return;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line.length < MEMO_LINE_MIN_CHARS) continue;
      if (this.memoChars > MEMO_MAX_CHARS) {
        this.memo.clear();
        this.memoChars = 0;
      }
      this.memo.set(line, masked[i] as string);
      this.memoChars += line.length;
    }
  }

  private take(masked: string, said: boolean): void {
    let text = masked.replace(MASKED, ' ');
    if (ANSI_HINT.test(text)) text = text.replace(ANSI, ' ');
    // An escape written out in a string of code or JSON (`\nopenpyxl==3.1.2`): a break between words.
    if (text.includes('\\')) text = text.replace(WRITTEN_ESCAPE, ' ');
    // Lower case first (one pass over the text, not one per word): the index folds case anyway.
    for (const chunk of text.toLowerCase().match(WORD_CHUNK) ?? []) {
      const times = this.seen.get(chunk) ?? 0;
      if (times >= 2 && !said) continue;
      if (this.seen.size >= SEEN_MAX) this.seen = new Map();
      this.seen.set(chunk, said ? 2 : times + 1);
      this.addChunk(chunk);
    }
  }

  private put(word: string): void {
    // A number of up to three digits said only outside the ranked text (a line number, a count, a size,
    // a status): nobody finds a session by one, and they were 13 % of the bench home's word rows. The ranked text's numbers are kept.
    if (!this.sure && word.length <= SHORT_NUMBER_MAX_DIGITS && isDigits(word)) return;
    if (this.words.has(word)) return;
    if (!this.sure && !this.once.has(word)) {
      if (this.once.size < this.maxWords) this.once.add(word);
      return;
    }
    this.once.delete(word);
    if (this.words.size >= this.maxWords) {
      this.overflow++;
      return;
    }
    this.words.add(word);
  }

  private addChunk(raw: string): void {
    if (raw.length === 1) {
      if (/[\p{L}\p{N}]/u.test(raw)) this.put(raw);
      return;
    }
    if (raw.length > 400) return;
    if (UNSPACED_ONE.test(raw)) {
      // Runs of a script written without spaces: their bigrams, as the text index holds them.
      for (const run of raw.match(UNSPACED) ?? []) for (const g of bigrams(run)) this.put(g);
      for (const rest of raw.split(UNSPACED)) if (rest) this.addChunk(rest);
      return;
    }
    if (UUID.test(raw)) return;
    // `.` ends a word (file extensions, versions, hosts): each piece between dots on its own.
    for (const piece of raw.split('.')) {
      const parts = piece.split(JOINER);
      if (parts.length === 1) {
        this.addWord(piece);
        continue;
      }
      let whole = true;
      for (const p of parts) {
        if (!p) continue;
        if (looksGeneratedToken(p)) whole = false;
        else this.put(p);
      }
      // The word as typed (`shared-layout`, `velocity_high`), when none of its parts is generated and it is
      // one a person would type (a few parts: a longer name is found by its parts).
      const word = piece.replace(EDGE_JOINERS, '');
      if (whole && parts.length <= JOINED_MAX_PARTS && word.length <= JOINED_MAX_CHARS && JOINER.test(word)) this.put(word);
    }
  }

  // One word (no joiner), kept unless generated. (Lower case already: a word joined by case changes is
  // kept whole here; the condensed text holds the parts of those it keeps.)
  private addWord(word: string): void {
    if (!looksGeneratedToken(word)) this.put(word);
  }

  /** The vocabulary as the index takes it: the words, space-separated. */
  text(): string {
    return [...this.words].join(' ');
  }
}

/** The vocabulary of some texts at once, every word kept (a stored text, an event list: what the index ranks). */
export function vocabularyOf(texts: Iterable<string>, maxWords = VOCABULARY_MAX_WORDS): string {
  const v = new VocabularyBuilder(maxWords);
  for (const t of texts) v.add(t, true);
  return v.text();
}
