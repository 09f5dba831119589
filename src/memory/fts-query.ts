/**
 * A user's search words and the index's text, split the same way, so that a query can never be an FTS
 * syntax error and finds words the way the text holds them. Pure.
 * - The index's tokenizer is FTS5 `porter unicode61 remove_diacritics 2`: letters and digits make words,
 *   anything else (`-`, `_`, `.`, `/`…) splits them, English word forms meet at their stem.
 * - Scripts written without spaces (Chinese, Japanese, Korean, Thai…) are indexed and searched as
 *   overlapping character bigrams (the approach of Lucene's CJK analyzer): `人脸跟踪` → `人脸 脸跟 跟踪`, so a
 *   two-character word matches inside a run. indexText() does it to the text before FTS sees it.
 * - Words joined by case changes are split alike in the text and a query (`registerProvider` → register
 *   provider), so either is found by the other or by its parts.
 * - A query is split on spaces into terms; a term joined by `-`, `_`, `.`, `/` is a phrase of its parts
 *   (`brain-system` → "brain system", `2.1.112` → "2 1 112"); its last word matches as a prefix unless it
 *   is a number (numbers and versions match as written) or a bigram.
 */

const MAX_TERMS = 16;
// The Unicode patterns, made on first use: making them (V8 parses a pattern when it makes it) took ~2.5 ms
// of loading this file, which every read command does (the index's store imports it) and `sessions` never uses.
interface Patterns {
  /** Runs of the scripts written without spaces between words (Hangul too: its particles stick to words). */
  unspaced: RegExp;
  unspacedOne: RegExp;
  /** A word as unicode61 cuts one (letters, digits, marks, private-use), or one run of an unspaced script. */
  piece: RegExp;
  /** Where a word joined by case changes splits: `registerProvider` → register Provider, `HTTPServer` → HTTP Server. */
  caseJoin: RegExp;
  alnum: RegExp;
  alnumRun: RegExp;
  caseChange: RegExp;
}
let made: Patterns | undefined;
const patterns = (): Patterns =>
  (made ??= {
    unspaced: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc\u3005]+/gu,
    unspacedOne: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc\u3005]/u,
    piece: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc\u3005]+|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc\u3005])[\p{L}\p{N}\p{M}\p{Co}])+/gu,
    caseJoin: /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/gu,
    alnum: /^[\p{L}\p{N}]$/u,
    alnumRun: /[\p{L}\p{N}]*/uy,
    caseChange: /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u,
  });
// A query (or a word of it) of ASCII only, as most are, is cut with ASCII patterns that cut it as the
// Unicode ones do (ASCII holds no unspaced script; there \p{L}\p{N} is [A-Za-z0-9], \p{M} and \p{Co} are
// nothing, \p{Ll} and \p{Lu} are a-z and A-Z), so a search makes none of those: the word pattern's first
// use (made, then compiled) took ~2-3 ms of a one-word search.
const NOT_ASCII = /[^\x00-\x7f]/;
const ASCII_PIECE = /[A-Za-z0-9]+/g;
const ASCII_CASE_JOIN = /(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/g;
const ASCII_EDGES = /^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g;
const UNICODE_EDGES = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const isUnspacedOne = (text: string) => NOT_ASCII.test(text) && patterns().unspacedOne.test(text);
const allDigits = (text: string) => (NOT_ASCII.test(text) ? /^\p{N}+$/u : /^[0-9]+$/).test(text);

/** The words of a text as unicode61 cuts them (letters, digits, marks, private-use), and each run of an unspaced script whole. */
export function pieces(text: string): string[] {
  return text.match(NOT_ASCII.test(text) ? patterns().piece : ASCII_PIECE) ?? [];
}

// English function words (the usual stop list): too common to tell sessions apart, they rank nothing
// (kept when a query has nothing else).
const STOP = new Set(
  ('a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves yes ok okay please also').split(' '),
);

/** The overlapping bigrams of one run of an unspaced script (a single character stays one). */
export function bigrams(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push((chars[i] as string) + (chars[i + 1] as string));
  return out;
}


/** A word joined by case changes split the way `-` splits one (the same in the text and in a query). */
export function splitCase(text: string): string {
  return text.replace(NOT_ASCII.test(text) ? patterns().caseJoin : ASCII_CASE_JOIN, ' ');
}

// Every word (a run of letters and digits) with a case change inside (`registerProvider`, `HTTPServer`)
// replaced by what `fn` makes of it: what text.replace(/[\p{L}\p{N}]*(?:\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll})
// [\p{L}\p{N}]*/gu, fn) gives (fts-query-case-word.test.ts checks it), ~5x faster over a session's text:
// a plain pattern finds where one can be (an ASCII case change, or a character outside ASCII, whole when
// a surrogate pair), and only the words there are checked with the Unicode classes. (The Unicode pattern
// tried at every letter was ~1/6 of a first index.)
const CASE_HINT = /[a-z][A-Z]|[A-Z][A-Z][a-z]|[\ud800-\udbff][\udc00-\udfff]|[^\x00-\x7f]/g;

function replaceCaseWords(text: string, fn: (word: string) => string): string {
  let out = '';
  let done = 0;
  let from = 0;
  CASE_HINT.lastIndex = 0;
  const { alnum: ALNUM, alnumRun: ALNUM_RUN, caseChange: CASE_CHANGE } = patterns();
  for (let m = CASE_HINT.exec(text); m; m = CASE_HINT.exec(text)) {
    const at = m.index;
    // An ASCII case change is in a word; a character outside ASCII may be one that is no letter.
    if (m[0].charCodeAt(0) >= 0x80 && !ALNUM.test(m[0])) {
      from = CASE_HINT.lastIndex = at + m[0].length;
      continue;
    }
    // The word around it: back to its start (never before where this scan began: a word or a
    // character that ends one is there), then on to its end.
    let start = at;
    while (start > from) {
      const low = text.charCodeAt(start - 1);
      const back = low >= 0xdc00 && low <= 0xdfff && start - 2 >= from ? 2 : 1;
      if (!ALNUM.test(text.slice(start - back, start))) break;
      start -= back;
    }
    ALNUM_RUN.lastIndex = start;
    const end = start + (ALNUM_RUN.exec(text)?.[0].length ?? 0);
    const word = text.slice(start, end);
    if (CASE_CHANGE.test(word)) {
      out += text.slice(done, start) + fn(word);
      done = end;
    }
    from = CASE_HINT.lastIndex = Math.max(end, at + 1);
  }
  return done === 0 ? text : out + text.slice(done);
}

/**
 * The text as the index gets it: a word joined by case changes followed by its parts (found as typed,
 * `registerprovider`, and by its parts), every run of an unspaced script replaced by its bigrams,
 * spaced apart.
 */
export function indexText(text: string): string {
  const split = replaceCaseWords(text, (word) => `${word} ${splitCase(word)}`);
  const { unspaced, unspacedOne } = patterns();
  if (!unspacedOne.test(split)) return split;
  return split.replace(unspaced, (run) => ` ${bigrams(run).join(' ')} `);
}

export interface QueryTerm {
  /** The term as the user typed it (edge punctuation dropped): what `matched` lists. */
  word: string;
  /** Its FTS5 expression over the ranked text: a quoted phrase of its parts (English word forms meet at their stem). */
  match: string;
  /** The same as a prefix of a word (the last word typed in the picker), when that applies. */
  prefix?: string;
  /** Its FTS5 expression over the session's vocabulary (session_words): the word as typed, joiners kept. */
  exact?: string;
  /**
   * A word joined by `-` or `_`: every part of it over the vocabulary, searched when no session holds the
   * word as typed (one held only inside a longer joined word, `type_continental` in `R-Type_Continental`).
   */
  parts?: string;
  /** An English function word (`the`, `how`): ranks nothing unless the query has nothing else. */
  stop: boolean;
}

/** Longest query word, and longest query, taken (a longer one is refused with a message: store.ts). */
export const QUERY_WORD_MAX_CHARS = 200;
export const QUERY_MAX_CHARS = 2000;

// A chunk of text between spaces and punctuation, as the vocabulary cuts one (`-`, `_` join a word; `.` splits it after).
export const WORD_CHUNK = /[^\s"'`()[\]{}<>,;:=|\\/*!?#$%^&+~@\u2026\u00a0]+/g;
const EDGE_JOINERS = /^[-_]+|[-_]+$/g;

/** A run of the characters that join a word (`shared-layout`, `velocity_high`): the vocabulary's and the query's. */
export const JOINER = /[-_]+/;
/** The longest number the vocabulary keeps only where the ranked text says it (a line number, a count: vocabulary.ts). */
export const SHORT_NUMBER_MAX_DIGITS = 3;
const SHORT_NUMBER = new RegExp(`^\\d{1,${SHORT_NUMBER_MAX_DIGITS}}$`);
const quoted = (t: string) => `"${t.replace(/"/g, '""')}"`;

/**
 * The FTS5 expression of the parts of a word joined by `-` or `_` over the vocabulary (each part, anywhere
 * in the session), undefined for a word with no joiner. A number of up to three digits is left out: the
 * vocabulary keeps one only when the ranked text says it (vocabulary.ts).
 */
export function partsExpression(word: string): string | undefined {
  const exact = exactTokens(word);
  if (!exact.some((t) => JOINER.test(t))) return undefined;
  const parts = [...new Set(exact.flatMap((t) => t.split(JOINER)).filter((p) => p && !SHORT_NUMBER.test(p)))];
  return parts.length ? parts.map(quoted).join(' AND ') : undefined;
}

/** The FTS5 expression of a word as typed over the vocabulary (vocabulary.ts cuts the text the same way); undefined when it has none. */
export function exactExpression(word: string): string | undefined {
  const all = exactTokens(word);
  // A number of up to three digits beside other words (`python3.11`, `node@20.11.1`, `openpyxl==3.1.2`) is
  // left out: the vocabulary keeps one only when the ranked text says it (the words beside it still must match).
  const tokens = all.some((t) => !SHORT_NUMBER.test(t)) ? all.filter((t) => !SHORT_NUMBER.test(t)) : all;
  if (tokens.length === 0) return undefined;
  return tokens.map(quoted).join(' AND ');
}

// The words of a query word as the vocabulary holds them: chunks cut as WORD_CHUNK cuts them, a dot splits,
// joiners kept inside (at the edges dropped), an unspaced script's runs as bigrams.
function exactTokens(word: string): string[] {
  const tokens: string[] = [];
  for (const raw of (word.toLowerCase().match(WORD_CHUNK) ?? []).flatMap((c) => c.split('.'))) {
    const chunk = raw.replace(EDGE_JOINERS, '');
    if (!chunk) continue;
    if (isUnspacedOne(chunk)) {
      const { unspaced } = patterns();
      for (const run of chunk.match(unspaced) ?? []) tokens.push(...bigrams(run));
      for (const rest of chunk.split(unspaced)) if (rest.replace(EDGE_JOINERS, '')) tokens.push(rest.replace(EDGE_JOINERS, ''));
    } else tokens.push(chunk);
  }
  return tokens;
}

/** The tokens of one query term, as indexText and the tokenizer make them of the same characters. */
function tokensOf(word: string): { tokens: string[]; prefix: boolean } {
  const tokens: string[] = [];
  let prefix = false;
  for (const piece of pieces(splitCase(word))) {
    if (isUnspacedOne(piece)) {
      const grams = bigrams(piece);
      tokens.push(...grams);
      // One character of an unspaced script: the bigrams that start with it.
      prefix = grams.length === 1 && [...piece].length === 1;
    } else {
      tokens.push(piece);
      prefix = !allDigits(piece);
    }
  }
  return { tokens, prefix };
}

/**
 * The terms of a user's query (at most 16); [] when it holds no word. A word matches as typed and by its
 * English stem; as the start of a longer word only when `prefixLast` (the picker, as the words are typed)
 * and it is the last word, unfinished: never a word of 4 letters or more typed whole elsewhere.
 */
export function queryTerms(query: string, opts: { prefixLast?: boolean } = {}): QueryTerm[] {
  const out: QueryTerm[] = [];
  const seen = new Set<string>();
  const normal = query.normalize('NFKC');
  const edges = NOT_ASCII.test(normal) ? UNICODE_EDGES : ASCII_EDGES;
  const chunks = normal.split(/\s+/);
  const last = chunks.map((c) => c.replace(edges, '')).filter(Boolean).pop();
  for (const chunk of chunks) {
    const word = chunk.replace(edges, '');
    if (!word) continue;
    const { tokens, prefix } = tokensOf(word);
    if (tokens.length === 0) continue;
    const phrase = `"${tokens.join(' ').replace(/"/g, '""')}"`;
    if (seen.has(phrase.toLowerCase())) continue;
    seen.add(phrase.toLowerCase());
    const term: QueryTerm = { word, match: phrase, stop: tokens.length === 1 && STOP.has(word.toLowerCase()) };
    // One character of an unspaced script matches as the start of its bigrams, always (it is no word alone).
    const single = tokens.length === 1 && isUnspacedOne(word) && [...word].length === 1;
    if (single) term.match = `${phrase}*`;
    else if (prefix && opts.prefixLast && word === last && !/\s$/.test(query)) term.prefix = `${phrase}*`;
    const exact = exactExpression(word);
    if (exact) term.exact = exact;
    const parts = partsExpression(word);
    if (parts) term.parts = parts;
    out.push(term);
    if (out.length >= MAX_TERMS) break;
  }
  return out;
}

/** The terms that rank: the query's without its function words, or all of them when it has only those. */
export function rankingTerms(terms: readonly QueryTerm[]): QueryTerm[] {
  const content = terms.filter((t) => !t.stop);
  return content.length ? content : [...terms];
}

/** The words of a query (letters and digits; each run of an unspaced script whole). */
export function queryWords(query: string): string[] {
  return pieces(query.normalize('NFKC')).slice(0, MAX_TERMS);
}
