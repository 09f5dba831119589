/**
 * The refresh's own listing of the session folders (AgentContext.sessionFilesIn), kept in the index
 * between refreshes: each folder's names at its modification time (adding, removing or renaming an entry
 * changes that time, so an unchanged folder costs a stat, not a readdir) and the size and mtime of each
 * of its session files at the last sweep that stat'ed them all.
 *
 * - full: every session file is stat'ed; a folder whose files' stats are the kept ones hands none back
 *   (nothing to compare with the index), else all of them.
 * - quick (a read's refresh): in a folder whose listing did not move, only the files named in `recent`
 *   (the sessions active lately) are stat'ed and handed back; the others are files the index holds, and
 *   a change to one (appended to, not renamed) waits for the next full sweep.
 * - rebuild: nothing kept is trusted; every folder is read and every file handed back.
 *
 * A folder whose listing moved, or that was never kept, is read and all its files handed back (and
 * reported in `compared`, so the refresh looks there for files that went). A folder time less than
 * RACY_MS before the refresh began is not kept: an entry made in the same clock tick as the last change
 * would not move it.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import type { Store } from '../../memory/store.js';
import type { SessionFileInfo, SessionFolderLister } from '../../transcripts/types.js';

const RACY_MS = 2000;

export type SweepMode = 'quick' | 'full' | 'rebuild';

export interface FolderSweep {
  list: SessionFolderLister;
  /** Session files stat'ed (handed back or not). */
  readonly found: number;
  /** Folders whose files were all handed back: the refresh compares them with the index (and finds the gone). */
  readonly compared: ReadonlySet<string>;
  /** Folders the index kept that this refresh never listed and that no longer exist. */
  vanished(): string[];
  /**
   * Keep what was learnt for the next refresh, but not for the folders in `skip` (some of their files
   * were not handled: the next refresh must look at them again); drop `drop`; `sweptAt` records a full
   * sweep. One write.
   */
  save(opts?: { skip?: ReadonlySet<string>; drop?: readonly string[]; sweptAt?: number }): void;
}

interface Kept { mtime: number; names?: string; files?: string }

const statOf = (path: string) => {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // unreadable (a loop of links, no permission): not a session we can read
  }
};

// A fingerprint of the size and mtime of each session file of a folder (accepted, regular, not empty; in
// the order of its names): two 32-bit multiply-xor hashes over the numbers' bits, and the count. From a
// stat of each file (allocating nothing per file but the stat), or from the infos already made.
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
class Fingerprint {
  private a = 0x811c9dc5;
  private b = 0x9747b28c;
  count = 0;
  add(size: number, mtimeMs: number): void {
    this.count++;
    f64[0] = size;
    this.mix(u32[0] as number);
    this.mix(u32[1] as number);
    f64[0] = mtimeMs;
    this.mix(u32[0] as number);
    this.mix(u32[1] as number);
  }
  private mix(x: number): void {
    this.a = Math.imul(this.a ^ x, 0x01000193);
    this.b = Math.imul(this.b ^ x, 0x5bd1e995);
    this.b ^= this.b >>> 15;
  }
  get text(): string {
    return `${(this.a >>> 0).toString(36)}.${(this.b >>> 0).toString(36)}.${this.count}`;
  }
}

function statPrint(dir: string, names: readonly string[], accept: (name: string) => boolean): Fingerprint {
  const print = new Fingerprint();
  for (const name of names) {
    if (!accept(name)) continue;
    const st = statOf(`${dir}/${name}`);
    if (st !== undefined && st.isFile() && st.size > 0) print.add(st.size, st.mtimeMs);
  }
  return print;
}

function infoPrint(infos: readonly SessionFileInfo[]): Fingerprint {
  const print = new Fingerprint();
  for (const f of infos) print.add(f.size, f.mtimeMs);
  return print;
}

export function folderSweep(store: Store, opts: { mode: SweepMode; now?: number; recent?: ReadonlyMap<string, readonly string[]> }): FolderSweep {
  const { mode } = opts;
  const known: Map<string, Kept> = mode === 'rebuild' ? new Map() : mode === 'quick' ? store.dirTimes() : store.dirListings();
  const began = opts.now ?? Date.now();
  const fresh: Array<{ path: string; mtime: number; names: string; files: string }> = [];
  const compared = new Set<string>();
  const asked = new Set<string>();
  let found = 0;

  // The named files of a folder that exist, stat'ed, as infos.
  const infosOf = (agent: SessionFileInfo['agent'], dir: string, names: readonly string[], accept: (name: string) => boolean, idOf: (file: string) => string): SessionFileInfo[] => {
    const out: SessionFileInfo[] = [];
    for (const name of names) {
      if (!accept(name)) continue;
      const file = `${dir}/${name}`;
      const st = statOf(file);
      if (st === undefined || !st.isFile() || st.size === 0) continue;
      out.push({ agent, file, id: idOf(file), size: st.size, mtimeMs: st.mtimeMs });
    }
    return out;
  };

  const list: SessionFolderLister = (agent, dir, accept, idOf) => {
    asked.add(dir);
    const st = statOf(dir);
    if (!st?.isDirectory()) return [];
    const kept = known.get(dir);
    const unmoved = kept !== undefined && kept.mtime === st.mtimeMs;
    if (unmoved && mode === 'quick') {
      const wanted = opts.recent?.get(dir);
      if (!wanted) return [];
      const infos = infosOf(agent, dir, wanted, accept, idOf);
      found += infos.length;
      return infos;
    }
    let names: string[];
    if (unmoved && kept.names !== undefined) names = kept.names === '' ? [] : kept.names.split('\n');
    else {
      try {
        names = readdirSync(dir);
      } catch {
        return [];
      }
    }
    // A folder whose listing did not move: its files' stats folded into a fingerprint first (no infos
    // made); the kept one means nothing to compare. Else (a folder that changed: few) they are stat'ed
    // into infos, all handed back.
    if (unmoved) {
      const print = statPrint(dir, names, accept);
      if (kept.files === print.text) {
        found += print.count;
        return [];
      }
    }
    const infos = infosOf(agent, dir, names, accept, idOf);
    found += infos.length;
    compared.add(dir);
    if (began - st.mtimeMs > RACY_MS && !names.some((n) => n.includes('\n'))) fresh.push({ path: dir, mtime: st.mtimeMs, names: names.join('\n'), files: infoPrint(infos).text });
    return infos;
  };

  return {
    list,
    get found() {
      return found;
    },
    compared,
    vanished() {
      const out: string[] = [];
      for (const dir of known.keys()) if (!asked.has(dir) && !existsSync(dir)) out.push(dir);
      return out;
    },
    save(o = {}) {
      const keep = fresh.splice(0).filter((l) => !o.skip?.has(l.path));
      store.setDirListings(keep, { drop: o.drop, sweptAt: o.sweptAt });
    },
  };
}
