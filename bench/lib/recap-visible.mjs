// What a user sees of a recap line in a pane of w columns (the recap-eval definition, as
// ../shared/recap-eval/score.py reads it): the `recap:` label dropped, the first w-9 cells (the overlay's
// `✦ recap: ` label takes 9). `displayWidth` is the CLI's own (bundled by the bench that uses this).
export const LABEL_CELLS = 9;

export function visible(line, w, displayWidth) {
  const text = line.replace(/^\s*(✦\s*)?recap:\s*/i, '');
  let out = '';
  let n = 0;
  for (const ch of text) {
    const c = displayWidth(ch);
    if (n + c > w - LABEL_CELLS) break;
    out += ch;
    n += c;
  }
  return out;
}

/** Per key fact (a list of lowercase alternatives), whether the lowercased visible text holds one. */
export const hits = (text, groups) => groups.map((g) => g.some((k) => text.includes(k)));
