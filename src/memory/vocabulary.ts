/**
 * A session's vocabulary: every distinct word of every text it holds (prompts, answers, commands, tool
 * output whole, file names), each text masked for secrets first; ids, hashes, base64 and other generated
 * tokens left out. The index holds it beside the ranked condensed text (store.ts, session_words), so a word
 * said anywhere in a session finds it. A word joined by `-` or `_` is kept whole (as typed) and by its
 * parts; `.` splits (file names, versions). Lower case: a word joined by case changes is kept whole. Bounded: at most VOCABULARY_MAX_WORDS words. Pure.
 */
import { bigrams, JOINER, SHORT_NUMBER_MAX_DIGITS, WORD_CHUNK } from './fts-query.js';
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
// A joined word is kept whole up to these (`aws_lambda_function_name`, `--max-old-space-size`: names and flags
// people search by); a longer one by its parts only, which a query of it finds too (fts-query.ts QueryTerm.parts).
const JOINED_MAX_PARTS = 6;
const JOINED_MAX_CHARS = 48;

const EDGE_JOINERS = /^[-_]+|[-_]+$/g;
const MASKED = /\[secret\]/g;
// Terminal colour and cursor sequences in tool output (`ESC[32m`): not words.
// (`[1m` too: the ESC is lost at times.)
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\[[0-9;]{1,8}m/g;
// A backslash and n, r or t before a word: an escape written out in a string of code or JSON
// (`\nopenpyxl==3.1.2`), or a folder of a Windows path (`D:\tools\testrez`, `src\new`). Which, the text
// does not say: the word after it is kept both ways (`openpyxl` and `nopenpyxl`, `testrez` and `estrez`).
// Measured on the recap corpus: its index, merged, 0.2 % bigger than with the escape reading alone.
const WRITTEN_ESCAPE = /\\+([nrt])([a-z][^\s"'`()[\]{}<>,;:=|\\/*!?#$%^&+~@\u2026\u00a0]*)/gi;
const ANSI_HINT = /\x1b|\[[0-9;]{1,8}m/;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc\u3005]+/gu;
const UNSPACED_ONE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc\u3005]/u;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX_WITH_DIGIT = /^(?=[a-f]*\d)[0-9a-f]{7,}$/i;
const LONG_NUMBER = /^\d{5,}$/;
const LETTER_DIGIT_FLIP = /[a-z]\d|\d[a-z]/gi;
const CASE_FLIP = /[a-z][A-Z]|[A-Z][a-z]/g;

// What each character of a chunk is, for take's one pass: a separator (WORD_CHUNK's class), a letter
// a-z, a digit, a dot, a joiner, or any other (A-Z too: the text is lower case by then; other scripts).
const SEPARATOR = 0;
const LETTER = 1;
const DIGIT = 2;
const DOT = 4;
const JOIN = 8;
const OTHER = 16;
const ASCII_KIND = new Uint8Array(128).map((_, c) => {
  const ch = String.fromCharCode(c);
  if (!new RegExp(WORD_CHUNK.source).test(ch)) return SEPARATOR;
  if (c >= 97 && c <= 122) return LETTER;
  if (c >= 48 && c <= 57) return DIGIT;
  if (c === 46) return DOT;
  if (c === 45 || c === 95) return JOIN;
  return OTHER;
});
// Past ASCII, WORD_CHUNK's separators are the white space of \s, U+2026 and U+00A0.
function isSeparator(c: number): boolean {
  if (c < 0x1680) return c === 0xa0;
  return c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2026 || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

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

function digitsOnly(text: string, s: number, e: number): boolean {
  for (let i = s; i < e; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function isJoiner(c: number): boolean {
  return c === 45 || c === 95;
}

function kindsOf(text: string, s: number, e: number): number {
  let kinds = 0;
  for (let i = s; i < e; i++) kinds |= ASCII_KIND[text.charCodeAt(i)] as number;
  return kinds;
}

/**
 * looksGeneratedToken of text[s, e), a run of a-z and 0-9 (kinds: which): lower case, so no case flips;
 * no joiner, so no uuid. Counts letter-digit flips as the regex does (matches do not overlap).
 */
function generatedRange(text: string, s: number, e: number, kinds: number): boolean {
  const n = e - s;
  if (n > WORD_MAX_CHARS) return true;
  if (kinds === DIGIT) return n >= 5;
  if (n < 7 || kinds === LETTER) return false;
  let hex = true;
  for (let i = s; i < e && hex; i++) {
    const c = text.charCodeAt(i);
    hex = c <= 102; // a digit or a-f (the range holds only a-z and 0-9)
  }
  if (hex) return true;
  if (n < 12) return false;
  let flips = 0;
  for (let i = s; i + 1 < e; i++) {
    const digit = text.charCodeAt(i) <= 57;
    if (digit !== text.charCodeAt(i + 1) <= 57) {
      flips++;
      i++;
    }
  }
  return flips >= 4 || flips * 5 >= n;
}

// A uuid (8-4-4-4-12 hex digits) at text[s, s + 36).
function isUuidRange(text: string, s: number): boolean {
  for (let i = 0; i < 36; i++) {
    const c = text.charCodeAt(s + i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false;
    } else if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

// A word's state in a session's table: met once outside the ranked text (kept when met again), or kept.
const ONCE = 1;
const KEPT = 2;
const TABLE_MIN_SLOTS = 1 << 12;

// The hash of text[s, e) (the table's; the same for a word as a string and as a range of a text).
function hashOf(text: string, s: number, e: number): number {
  let h = 0x811c9dc5;
  for (let i = s; i < e; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/**
 * The words of one session met so far and their state, looked up by a range of the text being read: a
 * word met again (most words of a text) costs a hash and a compare, not a new string. Open addressing;
 * a word once in it stays (its state can go back to none at the bound, as put says).
 */
class WordTable {
  private hashes = new Int32Array(TABLE_MIN_SLOTS);
  private keys: Array<string | undefined> = new Array<string | undefined>(TABLE_MIN_SLOTS).fill(undefined);
  private states = new Uint8Array(TABLE_MIN_SLOTS);
  private used = 0;

  /** The slot holding text[s, e) (hash h), or ~slot where it would go. */
  find(text: string, s: number, e: number, h: number): number {
    const mask = this.keys.length - 1;
    const len = e - s;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const k = this.keys[i];
      if (k === undefined) return ~i;
      if (this.hashes[i] === h && k.length === len && text.startsWith(k, s)) return i;
    }
  }

  state(slot: number): number {
    return this.states[slot] as number;
  }

  setState(slot: number, state: number): void {
    this.states[slot] = state;
  }

  key(slot: number): string {
    return this.keys[slot] as string;
  }

  /** Puts key (hash h) at the free slot ~at found for it; returns its slot. */
  insert(at: number, key: string, h: number, state: number): number {
    let slot = ~at;
    this.keys[slot] = key;
    this.hashes[slot] = h;
    this.states[slot] = state;
    if (++this.used * 2 > this.keys.length) slot = this.grow(key, h);
    return slot;
  }

  private grow(key: string, h: number): number {
    const { keys, hashes, states } = this;
    const size = keys.length * 2;
    this.keys = new Array<string | undefined>(size).fill(undefined);
    this.hashes = new Int32Array(size);
    this.states = new Uint8Array(size);
    let moved = -1;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k === undefined) continue;
      const at = ~this.find(k, 0, k.length, hashes[i] as number);
      this.keys[at] = k;
      this.hashes[at] = hashes[i] as number;
      this.states[at] = states[i] as number;
      if (k === key && hashes[i] === h) moved = at;
    }
    return moved;
  }
}

/** A text met before: what masking made of it, how often it was met, the words it left said once. */
interface MetText {
  masked: string;
  times: number;
  once?: string[];
}

export class VocabularyBuilder {
  // Every word met (said twice or more, or given as `said`: kept; said once so far: waiting), and the
  // kept ones in the order they were kept.
  private readonly table = new WordTable();
  private readonly kept: string[] = [];
  private onceCount = 0;
  // Chunks of other characters already taken apart (addChunk), and how often (1, or 2: done), bounded: a chunk said a third time costs one lookup.
  private seen = new Map<string, number>();
  // Whether a word said once is kept (the ranked text's words), or waits for a second time.
  private sure = false;
  // Long lines already masked, and what masking made of them (bounded by MEMO_MAX_CHARS).
  private readonly memo = new Map<string, string>();
  private memoChars = 0;
  // Texts already taken (not the ranked text's), what masking made of them, how often, and the words their
  // first take left said once (bounded by TEXTS_MAX_CHARS).
  private readonly texts = new Map<string, MetText>();
  private textsChars = 0;
  /** Words met past the bound (not kept). */
  overflow = 0;
  // The words the text being taken first made said-once, in order (undefined: not noted; or past the bound).
  private once: string[] | undefined;

  constructor(private readonly maxWords = VOCABULARY_MAX_WORDS) {}

  /** Words kept (said twice or more, or in the ranked text). */
  get size(): number {
    return this.kept.length;
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
      // Met a second time: each of its words said once so far is now said twice. Those are the words its
      // first take left said once (met.once), in the order it met them: the same puts as taking it again,
      // without cutting it again (a word once there and now kept, or gone past the bound, puts as it would).
      if (met.once) for (const word of met.once) this.putFound(word, 0, word.length, hashOf(word, 0, word.length));
      else this.take(met.masked, said);
      // Met a third time it adds nothing: only its count is needed from now on.
      met.masked = '';
      met.once = undefined;
      return;
    }
    const masked = whole.length < MEMO_MIN_CHARS ? maskSecrets(whole) : this.maskLines(whole);
    if (said) return this.take(masked, said);
    const entry = this.rememberText(whole, masked);
    this.once = entry ? [] : undefined;
    this.take(masked, said);
    // A text whose take met the bound is taken again whole when met again (the bound's order of puts).
    if (entry) entry.once = this.once;
    this.once = undefined;
  }

  private rememberText(text: string, masked: string): MetText | undefined {
    if (this.textsChars + text.length > TEXTS_MAX_CHARS) {
      if (text.length > TEXTS_MAX_CHARS / 4) return undefined;
      this.texts.clear();
      this.textsChars = 0;
    }
    const entry: MetText = { masked, times: 1 };
    this.texts.set(text, entry);
    this.textsChars += text.length;
    return entry;
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
    // An escape written out, or a folder of a Windows path: the word after it both ways (WRITTEN_ESCAPE).
    if (text.includes('\\')) text = text.replace(WRITTEN_ESCAPE, ' $1$2 $2');
    // Lower case first (one pass over the text, not one per word): the index folds case anyway.
    text = text.toLowerCase();
    // One pass over the characters cuts the chunks WORD_CHUNK would match and notes what each holds: a
    // chunk of ASCII letters, digits, dots and joiners (most of any text) is taken apart here, on ranges
    // of the text (takeAscii); one holding any other character goes through addChunk as a string.
    const n = text.length;
    let start = -1;
    let kinds = 0;
    for (let i = 0; i <= n; i++) {
      const c = i < n ? text.charCodeAt(i) : 32;
      const kind = c < 128 ? (ASCII_KIND[c] as number) : isSeparator(c) ? SEPARATOR : OTHER;
      if (kind !== SEPARATOR) {
        if (start < 0) start = i;
        kinds |= kind;
        continue;
      }
      if (start < 0) continue;
      if (kinds & OTHER) this.takeChunk(text.slice(start, i), said);
      else this.takeAscii(text, start, i, kinds);
      start = -1;
      kinds = 0;
    }
  }

  // A chunk holding some other character: taken apart by addChunk once or twice (a chunk said a third
  // time adds nothing), as WORD_CHUNK's match cut it.
  private takeChunk(chunk: string, said: boolean): void {
    const times = this.seen.get(chunk) ?? 0;
    if (times >= 2 && !said) return;
    if (this.seen.size >= SEEN_MAX) this.seen = new Map();
    this.seen.set(chunk, said ? 2 : times + 1);
    this.addChunk(chunk);
  }

  // addChunk's rules on text[s, e), a chunk of a-z, 0-9, `.`, `-` and `_` only (kinds: what it holds).
  private takeAscii(text: string, s: number, e: number, kinds: number): void {
    const len = e - s;
    if (len === 1) {
      if (kinds & (LETTER | DIGIT)) this.putRange(text, s, e);
      return;
    }
    if (len > 400) return;
    if ((kinds & (DOT | JOIN)) === 0) {
      if (!generatedRange(text, s, e, kinds)) this.putRange(text, s, e);
      return;
    }
    if (len === 36 && isUuidRange(text, s)) return;
    // `.` ends a word: each piece between dots on its own, as addChunk does.
    let from = s;
    for (let i = s; i <= e; i++) {
      if (i < e && text.charCodeAt(i) !== 46) continue;
      this.takePiece(text, from, i);
      from = i + 1;
    }
  }

  // One piece of a chunk (no dot, not empty): a word, or one joined by `-` or `_`, taken as addChunk takes
  // it: each part that is not generated, then the word as typed when it is one a person would type.
  private takePiece(text: string, s: number, e: number): void {
    if (s === e) return;
    let runs = 0;
    for (let i = s; i < e; i++) if (isJoiner(text.charCodeAt(i)) && (i === s || !isJoiner(text.charCodeAt(i - 1)))) runs++;
    if (runs === 0) {
      if (!generatedRange(text, s, e, kindsOf(text, s, e))) this.putRange(text, s, e);
      return;
    }
    let whole = true;
    let from = s;
    for (let i = s; i <= e; i++) {
      if (i < e && !isJoiner(text.charCodeAt(i))) continue;
      if (i > from) {
        if (generatedRange(text, from, i, kindsOf(text, from, i))) whole = false;
        else this.putRange(text, from, i);
      }
      from = i + 1;
    }
    // split(JOINER) makes runs + 1 parts (empty ones at the edges too).
    if (!whole || runs + 1 > JOINED_MAX_PARTS) return;
    let a = s;
    let b = e;
    while (a < b && isJoiner(text.charCodeAt(a))) a++;
    while (b > a && isJoiner(text.charCodeAt(b - 1))) b--;
    if (b - a > JOINED_MAX_CHARS) return;
    for (let i = a; i < b; i++) {
      if (isJoiner(text.charCodeAt(i))) {
        this.putRange(text, a, b);
        return;
      }
    }
  }

  // put, for the word text[s, e): a new string only for a word not met before.
  private putRange(text: string, s: number, e: number): void {
    if (!this.sure && e - s <= SHORT_NUMBER_MAX_DIGITS && digitsOnly(text, s, e)) return;
    this.putFound(text, s, e, hashOf(text, s, e));
  }

  private put(word: string): void {
    // A number of up to three digits said only outside the ranked text (a line number, a count, a size,
    // a status): nobody finds a session by one, and they were 13 % of the bench home's word rows. The ranked text's numbers are kept.
    if (!this.sure && word.length <= SHORT_NUMBER_MAX_DIGITS && digitsOnly(word, 0, word.length)) return;
    this.putFound(word, 0, word.length, hashOf(word, 0, word.length));
  }

  // A word is kept once said twice, or at once when sure; past the bound it is counted, not kept.
  private putFound(text: string, s: number, e: number, h: number): void {
    const table = this.table;
    let slot = table.find(text, s, e, h);
    const state = slot >= 0 ? table.state(slot) : 0;
    if (state === KEPT) return;
    if (!this.sure && state !== ONCE) {
      if (this.onceCount >= this.maxWords) {
        this.once = undefined;
        return;
      }
      this.onceCount++;
      if (slot >= 0) table.setState(slot, ONCE);
      else slot = table.insert(slot, text.slice(s, e), h, ONCE);
      this.once?.push(table.key(slot));
      return;
    }
    if (state === ONCE) {
      this.onceCount--;
      table.setState(slot, 0);
    }
    if (this.kept.length >= this.maxWords) {
      this.once = undefined;
      this.overflow++;
      return;
    }
    if (slot < 0) slot = table.insert(slot, text.slice(s, e), h, KEPT);
    else table.setState(slot, KEPT);
    this.kept.push(table.key(slot));
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
      if (!piece) continue;
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
    return this.kept.join(' ');
  }
}

/** The vocabulary of some texts at once, every word kept (a stored text, an event list: what the index ranks). */
export function vocabularyOf(texts: Iterable<string>, maxWords = VOCABULARY_MAX_WORDS): string {
  const v = new VocabularyBuilder(maxWords);
  for (const t of texts) v.add(t, true);
  return v.text();
}
