/**
 * Which columns of a live-session table (`ls`, `board`: agent, folder, state, last look, pane; then the
 * recap) a terminal of `cols` cells shows. Narrow, the columns least needed to tell sessions apart give
 * way (when you looked, the pane, then the folder) until the recap has WANTED_RECAP_CELLS; agent and state
 * stay. Pure.
 */

/** The recap cells other columns give way to (a recap's gist and its next step). */
export const WANTED_RECAP_CELLS = 24;
/** The column indexes that give way, in order: last look, pane, folder. */
const GIVE_WAY = [3, 4, 1] as const;

/** The indexes of `widths` (the fixed columns' cells, in table order) to show, two cells between columns. */
export function columnsThatFit(widths: readonly number[], cols: number): number[] {
  let kept = widths.map((_, i) => i);
  const used = (ks: readonly number[]) => ks.reduce((n, i) => n + (widths[i] as number) + 2, 0);
  for (const drop of GIVE_WAY) {
    if (used(kept) + WANTED_RECAP_CELLS <= cols) break;
    kept = kept.filter((i) => i !== drop);
  }
  return kept;
}
