/**
 * `@@name~N` (and `REF~N`): the session REF names together with the summaries of N generations of the
 * sessions it was forked from (`~1`: its parent). Pure; the picker and the MCP tools split a reference
 * with it, then resolve the REF as any other and ask the memory for the lineage.
 */

/** REF and how many parents it asks for (0 when it has no `~N`; N is 1 to 9). */
export function splitParentDepth(ref: string): { ref: string; depth: number } {
  const text = ref.trim();
  const m = /^(.+?)~([1-9])$/.exec(text);
  return m ? { ref: (m[1] as string).trim(), depth: Number(m[2]) } : { ref: text, depth: 0 };
}
