/**
 * `@@name~N` (and `REF~N`): the session REF names together with the summaries of N generations of the
 * sessions it was forked from (`~1`: its parent). Pure; the picker and the MCP tools split a reference
 * with it, then resolve the REF as any other and ask the memory for the lineage.
 */

/** The most generations a reference may ask for. */
export const MAX_PARENT_DEPTH = 9;

/** REF and how many parents it asks for (0 when it has no `~N`). */
export function splitParentDepth(ref: string): { ref: string; depth: number } {
  const text = ref.trim();
  const m = /^(.+?)~([1-9])$/.exec(text);
  return m ? { ref: (m[1] as string).trim(), depth: Number(m[2]) } : { ref: text, depth: 0 };
}
