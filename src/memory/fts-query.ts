/**
 * A user's search words as an FTS5 query that can never be a syntax error: every word is quoted (so
 * `AND`, `-x`, `(bar`, `"foo`, `a*` are plain words) and matched as a prefix; all words must match. Pure.
 */

const WORD = /[\p{L}\p{N}_]+/gu;
const MAX_WORDS = 16;

/** The words of a query, as the index's tokenizer splits them (letters and digits). */
export function queryWords(query: string): string[] {
  return (query.normalize('NFKC').match(WORD) ?? []).slice(0, MAX_WORDS);
}

/** The FTS5 MATCH expression for a user's query; undefined when it holds no word to search for. */
export function toFtsQuery(query: string): string | undefined {
  const words = queryWords(query);
  if (words.length === 0) return undefined;
  return words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ');
}
