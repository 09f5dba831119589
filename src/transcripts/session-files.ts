/**
 * The session files in one folder with their times and sizes, for the adapters' locate and list steps.
 * Listing every session of every folder (the index's refresh, before each of its read commands) is
 * synchronous: 10,000 `statSync` calls in a loop cost about a third of the same `stat` promises and leave
 * far less garbage (measured on the memory bench's 10,000-session home). The async listing here takes fs.promises
 * where it runs, not by an import: Node loads its promise API (~2-5 ms) when it is first read.
 */
import { promises as fsp, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentId, SessionFileInfo, SessionFolderLister } from './types.js';

export interface SessionFileStat {
  file: string;
  /** Creation time (ctime where the file system keeps no birth time). */
  birth: number;
  mtimeMs: number;
  size: number;
}

/** Regular files in `dir` whose names `accept` takes; [] when the folder is missing or unreadable. */
export async function listSessionFiles(dir: string, accept: (name: string) => boolean): Promise<SessionFileStat[]> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return [];
  }
  const entries = await Promise.all(
    names.filter(accept).map(async (name) => {
      const file = join(dir, name);
      try {
        const st = await fsp.stat(file);
        return st.isFile() ? { file, birth: st.birthtimeMs || st.ctimeMs, mtimeMs: st.mtimeMs, size: st.size } : undefined;
      } catch {
        return undefined; // gone between readdir and stat
      }
    }),
  );
  return entries.filter((e): e is SessionFileStat => e !== undefined);
}

/** Past sessions from one folder's files, newest first; empty files (a session that never began) left out. */
export function sessionInfosOf(agent: AgentId, files: readonly SessionFileStat[], idOf: (file: string) => string): SessionFileInfo[] {
  return files
    .filter((f) => f.size > 0)
    .sort((a, b) => b.mtimeMs - a.mtimeMs)
    .map((f) => ({ agent, file: f.file, id: idOf(f.file), mtimeMs: f.mtimeMs, size: f.size }));
}

/** The sub-folders of `dir` (not links); [] when it is missing or unreadable. Synchronous. */
export function listSubdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(dir, d.name));
  } catch {
    return [];
  }
}

/** The names in `dir`; [] when it is missing or unreadable. Synchronous. */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Every non-empty regular session file in each folder, as infos (no order). Synchronous, in one loop
 * (see the top of this file); a file gone between the listing and its stat is left out. `list` lists a
 * folder instead (the session index's refresh: AgentContext.sessionFilesIn).
 */
export function infosIn(agent: AgentId, dirs: readonly string[], accept: (name: string) => boolean, idOf: (file: string) => string, list: SessionFolderLister = filesIn): SessionFileInfo[] {
  const out: SessionFileInfo[] = [];
  for (const dir of dirs) for (const info of list(agent, dir, accept, idOf)) out.push(info);
  return out;
}

function filesIn(agent: AgentId, dir: string, accept: (name: string) => boolean, idOf: (file: string) => string): SessionFileInfo[] {
  const out: SessionFileInfo[] = [];
  for (const name of namesIn(dir)) {
    if (!accept(name)) continue;
    const file = join(dir, name);
    let st;
    try {
      st = statSync(file, { throwIfNoEntry: false });
    } catch {
      continue; // unreadable (a loop of links, no permission): not a session we can read
    }
    if (st === undefined || !st.isFile() || st.size === 0) continue;
    out.push({ agent, file, id: idOf(file), mtimeMs: st.mtimeMs, size: st.size });
  }
  return out;
}
