/**
 * The refresh's folder listings: a folder whose modification time is the one the index saw when it last
 * read it holds the same names (adding, removing or renaming an entry changes that time), so it costs a
 * stat, not a readdir. A time less than RACY_MS before the refresh began is not kept: an entry made in
 * the same clock tick as the last change would not move it.
 */
import { readdirSync, statSync } from 'node:fs';
import type { Store } from '../../memory/store.js';

const RACY_MS = 2000;

export interface DirNames {
  /** The names in `dir` ([] when it is missing or unreadable). */
  names(dir: string): string[];
  /** Keep what was read for the next refresh (a failure only costs that refresh its readdirs). */
  save(): void;
}

/** `trust` false: every folder is read (and kept), as `index --rebuild` wants. */
export function dirNamesCache(store: Store, opts: { trust: boolean; now?: number }): DirNames {
  const known = opts.trust ? store.dirListings() : new Map<string, { mtime: number; names: string }>();
  const began = opts.now ?? Date.now();
  const fresh: Array<{ path: string; mtime: number; names: string }> = [];
  return {
    names(dir) {
      let st;
      try {
        st = statSync(dir, { throwIfNoEntry: false });
      } catch {
        return [];
      }
      if (!st?.isDirectory()) return [];
      const hit = known.get(dir);
      if (hit && hit.mtime === st.mtimeMs) return hit.names === '' ? [] : hit.names.split('\n');
      let list: string[];
      try {
        list = readdirSync(dir);
      } catch {
        return [];
      }
      if (began - st.mtimeMs > RACY_MS && !list.some((n) => n.includes('\n'))) fresh.push({ path: dir, mtime: st.mtimeMs, names: list.join('\n') });
      return list;
    },
    save() {
      store.setDirListings(fresh.splice(0));
    },
  };
}
