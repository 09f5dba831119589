/**
 * What `show` takes besides a REF of the index (#43.7): `REF~N` (the session and N generations of the
 * sessions it was forked from, as the picker's `@@name~N`), and the path of a transcript (what `show`
 * prints on its `transcript:` line), found by the index's transcript column. No output here: the card
 * is memory-run.ts's.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { splitParentDepth } from '../../app/memory/parent-ref.js';
import type { SessionMemory } from '../../app/memory/api.js';
import { sanitizeLine } from '../../util/sanitize.js';

export type ShowRef =
  | { kind: 'ref'; ref: string; depth: number }
  | { kind: 'id'; id: string; depth: number }
  | { kind: 'error'; message: string; code: number };

// A reference that reads as a path: it names a folder (a slash) or starts at ~ or a dot.
const looksLikePath = (ref: string) => ref.includes('/') || /^~(\/|$)/.test(ref);

/** REF as `show` reads it: a transcript path it finds by its file, REF~N, or a REF for memory.resolve. */
export function readShowRef(memory: Pick<SessionMemory, 'store'>, raw: string, cwd: string, home: string): ShowRef {
  const { ref, depth } = splitParentDepth(raw);
  if (!looksLikePath(ref)) return { kind: 'ref', ref, depth };
  const path = resolve(cwd, ref.replace(/^~(?=\/|$)/, home));
  if (!isFile(path)) return { kind: 'ref', ref, depth }; // a name with a slash in it, say: the index decides
  const real = safeRealpath(path);
  const row = memory.store.byTranscript(path) ?? (real ? memory.store.byTranscript(real) : undefined);
  if (row) return { kind: 'id', id: row.id, depth };
  return {
    kind: 'error',
    code: 1,
    message: `${sanitizeLine(ref)} is not a transcript of the session index (not in a session folder of an agent, or left out by memoryFolders): \`recapwrap recap --session FILE\` recaps it, \`recapwrap transcript FILE\` lists what it holds`,
  };
}

function isFile(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false; // unreadable: not one we can show
  }
}

function safeRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
