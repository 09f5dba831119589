/**
 * `--width N` of `recap`, `status` and `read`, checked in one place: the same bounds and message for
 * each. No import beyond this file: `status` runs every few seconds from a tmux status line.
 */

/** The narrowest width a flag may ask for: a label and a few words (a recap of 5 cells says only "done."). */
export const WIDTH_MIN_CELLS = 20;
/** The widest: far past any terminal, short of a line nobody reads. */
export const WIDTH_MAX_CELLS = 1000;
/** The bounds as help texts say them. */
export const WIDTH_RANGE_TEXT = `${WIDTH_MIN_CELLS} to ${WIDTH_MAX_CELLS}`;

/** The flag's cells, undefined when it was not given, or the one-line message saying what it should be. */
export function parseWidth(text: string | undefined, flag = '--width'): { value: number | undefined } | { error: string } {
  if (text === undefined) return { value: undefined };
  const trimmed = text.trim();
  const n = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (Number.isSafeInteger(n) && n >= WIDTH_MIN_CELLS && n <= WIDTH_MAX_CELLS) return { value: n };
  return { error: `Expected \`${flag}\` to be a whole number of cells from ${WIDTH_RANGE_TEXT}, got \`${text}\`` };
}
