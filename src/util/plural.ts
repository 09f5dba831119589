/**
 * A count with its noun in the right number ("1 prompt", "2 prompts", "0 prompts"): English only, as
 * every message of recapwrap is. Irregular plurals are given by the caller ("1 try", "3 tries").
 */

export function formatCount(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
