/**
 * "Did you mean `doctor`?": the subcommand closest to a word the user typed, when it is close enough to
 * be a typo (an edit or two, a swapped pair). Pure; the caller decides when to ask (a word not on PATH).
 */

// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The subcommand `word` is probably a typo of, or undefined (paths, short words and far words get none). */
export function suggestCommand(word: string, names: readonly string[]): string | undefined {
  if (word.length < 3 || /[/\\.]/.test(word)) return undefined;
  const lower = word.toLowerCase();
  // Up to one edit for short words, two for longer ones: `doctr` → doctor, `resmue` → resume.
  const allowed = lower.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(lower, name);
    if (name !== word && distance <= allowed && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
