/**
 * "Did you mean …?" for a query word no session holds: the closest word of the index's vocabulary by
 * edit distance (a letter left out, added, changed or two swapped), the most widely held among equals.
 * Pure; the store gives it the candidates (words sharing the typed word's start, of a near length).
 */

/** Edits allowed: one for a word of up to 5 letters, two for a longer one. */
export function maxEdits(word: string): number {
  return word.length <= 5 ? 1 : 2;
}

/** Optimal string alignment distance (Damerau–Levenshtein without moves), or max + 1 once over max. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1);
    row[0] = i;
    rows.push(row);
  }
  for (let j = 0; j <= b.length; j++) (rows[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const up = rows[i - 1] as number[];
    let best = Number.POSITIVE_INFINITY;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** The candidate closest to `word` within maxEdits (fewest edits, then held by most sessions), or undefined. */
export function closestWord(word: string, candidates: ReadonlyArray<readonly [string, number]>): string | undefined {
  const max = maxEdits(word);
  let best: { term: string; d: number; docs: number } | undefined;
  for (const [term, docs] of candidates) {
    if (term === word || !/^[\p{L}\p{N}]+$/u.test(term)) continue;
    const d = editDistance(word, term, max);
    if (d > max) continue;
    if (!best || d < best.d || (d === best.d && docs > best.docs)) best = { term, d, docs };
  }
  return best?.term;
}
