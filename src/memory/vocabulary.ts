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
const JOINED_MAX_PARTS = 3;
const JOINED_MAX_CHARS = 32;

const JOINER = /[-_]+/;
const EDGE_JOINERS = /^[-_]+|[-_]+$/g;
const MASKED = /\[secret\]/g;
// Terminal colour and cursor sequences in tool output (`ESC[32m`): not words.
// (`[1m` too: the ESC is lost at times.)
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\[[0-9;]{1,8}m/g;
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

export class VocabularyBuilder {
  private readonly words = new Set<string>();
  // Chunks already taken apart (most repeat: a word said again costs one lookup), bounded.
  private seen = new Set<string>();
  /** Distinct words past the bound (not kept). */
  overflow = 0;

  constructor(private readonly maxWords = VOCABULARY_MAX_WORDS) {}

  get size(): number {
    return this.words.size;
  }

  /** The words of one text (masked for secrets first). */
  add(raw: string): void {
    if (!raw) return;
    let text = maskSecrets(raw.length > TEXT_MAX_CHARS ? raw.slice(0, TEXT_MAX_CHARS) : raw).replace(MASKED, ' ');
    if (ANSI_HINT.test(text)) text = text.replace(ANSI, ' ');
    // Lower case first (one pass over the text, not one per word): the index folds case anyway.
    for (const chunk of text.toLowerCase().match(WORD_CHUNK) ?? []) {
      if (this.seen.has(chunk)) continue;
      if (this.seen.size >= SEEN_MAX) this.seen = new Set();
      this.seen.add(chunk);
      this.addChunk(chunk);
    }
  }

  private put(word: string): void {
    if (this.words.has(word)) return;
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

/** The vocabulary of some texts at once (a stored text, an event list). */
export function vocabularyOf(texts: Iterable<string>, maxWords = VOCABULARY_MAX_WORDS): string {
  const v = new VocabularyBuilder(maxWords);
  for (const t of texts) v.add(t);
  return v.text();
}
