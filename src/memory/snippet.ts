/**
 * A hit's snippet, cut from that session's own text around the words it matched, the words marked
 * with HIT_START/HIT_END. The index ranks with FTS5 (stems, bigrams); here a word of the text counts as
 * a query word when they share their start once common English endings are dropped, and a word of an
 * unspaced script when the text holds it (or one of its bigrams). Pure.
 */
import { bigrams, pieces } from './fts-query.js';
import { HIT_END, HIT_START } from './types.js';

const SNIPPET_CHARS = 160;
const UNSPACED_ONE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

const WORD_AT = /[\p{L}\p{N}\p{M}]+/uy;
const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;
const NOT_ASCII = /[^\x00-\x7f]/;

// ASCII has nothing to decompose: its lower case is its fold (a hit's body is often 100 KB of it).
const fold = (s: string) => (NOT_ASCII.test(s) ? s.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase() : s.toLowerCase());
// A rough English stem: enough to find `moving` where the query said `moved` (FTS5's porter ranked it).
const stem = (w: string) => {
  const s = w.replace(/(ations?|ings?|ments?|ness|ers?|ed|es|s|ly|ion|ions|ies|ied|y|e)$/, '');
  return s.length >= 3 ? s : w;
};

interface Span { at: number; end: number; term: number }

/** A query word as the snippet marks it: as typed or by its stem; as the start of a word only with `prefix`. */
export interface SnippetWord { word: string; prefix?: boolean }

// Whether a word (a run of letters, digits and marks) of the text starts at `at`: the character before is none of those.
function startsWord(text: string, at: number): boolean {
  if (at === 0) return true;
  let before = at - 1;
  const unit = text.charCodeAt(before);
  if (unit >= 0xdc00 && unit <= 0xdfff && before > 0) {
    const high = text.charCodeAt(before - 1);
    if (high >= 0xd800 && high <= 0xdbff) before--;
  }
  return !WORD_CHAR.test(String.fromCodePoint(text.codePointAt(before) as number));
}

/** Where each query term occurs in the text (positions of the words it matched). */
export function termSpans(text: string, queryWords: ReadonlyArray<string | SnippetWord>): Span[] {
  const spans: Span[] = [];
  const folded = fold(text);
  // fold() keeps lengths only for text without combining marks; else find words in the text itself.
  const source = folded.length === text.length ? folded : text.toLowerCase();
  queryWords.forEach((q, term) => {
    const { word, prefix = false } = typeof q === 'string' ? { word: q } : q;
    for (const part of pieces(fold(word))) {
      // An ASCII part is of no unspaced script and its digits are 0-9 (no Unicode pattern made for it).
      const ascii = !NOT_ASCII.test(part);
      if (!ascii && UNSPACED_ONE.test(part)) {
        const grams = [...part].length > 2 ? [part, ...bigrams(part)] : [part];
        for (const g of grams) {
          let found = false;
          for (let at = source.indexOf(g); at !== -1; at = source.indexOf(g, at + 1)) {
            spans.push({ at, end: at + g.length, term });
            found = true;
          }
          if (found) break;
        }
        continue;
      }
      // The word as typed, or one of its other forms (the same rough stem); the start of a word only for a prefix.
      const number = ascii ? /^[0-9]+$/.test(part) : /^\p{N}+$/u.test(part);
      const want = number ? part : stem(part);
      // A stem is the start of its word and `want` the start of `part`: every word matched starts with
      // `want`, so only the words starting where the text holds it are read.
      for (let at = source.indexOf(want); at !== -1; at = source.indexOf(want, at + 1)) {
        if (!startsWord(source, at)) continue;
        WORD_AT.lastIndex = at;
        const w = WORD_AT.exec(source)?.[0];
        if (w === undefined) continue;
        const hit = w === part || (!number && (stem(w) === want || (prefix && w.startsWith(part))));
        if (hit) spans.push({ at, end: at + w.length, term });
      }
    }
  });
  return spans.sort((a, b) => a.at - b.at);
}

/**
 * The passage of `text` (about 160 characters, on word edges) holding the most different query words,
 * those words marked; undefined when the text holds none of them.
 */
export function snippetOf(text: string, words: ReadonlyArray<string | SnippetWord>, width = SNIPPET_CHARS): string | undefined {
  const spans = termSpans(text, words);
  if (spans.length === 0) return undefined;
  // The window (at most `width` characters) with the most different terms, then the most matches.
  let best = { from: 0, to: 0, terms: 0, count: 0 };
  for (let i = 0; i < spans.length; i++) {
    const start = spans[i] as Span;
    const terms = new Set<number>();
    let j = i;
    while (j < spans.length && (spans[j] as Span).end - start.at <= width) terms.add((spans[j++] as Span).term);
    if (terms.size > best.terms || (terms.size === best.terms && j - i > best.count)) best = { from: i, to: j, terms: terms.size, count: j - i };
  }
  const first = spans[best.from] as Span;
  const last = spans[Math.max(best.from, best.to - 1)] as Span;
  const room = Math.max(0, width - (last.end - first.at));
  let from = Math.max(0, first.at - Math.floor(room / 3));
  let to = Math.min(text.length, last.end + room - (first.at - from));
  // On word edges, on one line's worth: line breaks become spaces.
  if (from > 0) from = text.slice(from, first.at).search(/[\s([{"'`]/) >= 0 ? from + text.slice(from, first.at).search(/[\s([{"'`]/) + 1 : from;
  if (to < text.length) {
    const cut = text.slice(last.end, to).search(/\s[^\s]*$/);
    if (cut >= 0) to = last.end + cut;
  }
  let out = '';
  let at = from;
  for (const s of spans.slice(best.from, best.to)) {
    if (s.at < at || s.end > to) continue;
    out += text.slice(at, s.at) + HIT_START + text.slice(s.at, s.end) + HIT_END;
    at = s.end;
  }
  out += text.slice(at, to);
  return `${from > 0 ? '…' : ''}${out.replace(/\s+/g, ' ').trim()}${to < text.length ? '…' : ''}`;
}
