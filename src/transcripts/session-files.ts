/** The session files in one folder with their times and sizes, for the adapters' locate and list steps. */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentId, SessionFileInfo } from './types.js';

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
    names = await readdir(dir);
  } catch {
    return [];
  }
  const entries = await Promise.all(
    names.filter(accept).map(async (name) => {
      const file = join(dir, name);
      try {
        const st = await stat(file);
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

/** The sub-folders of `dir` (not links); [] when it is missing or unreadable. */
export async function listSubdirs(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => join(dir, d.name));
  } catch {
    return [];
  }
}

/** Every non-empty session file in each folder, as infos (no order). */
export async function infosIn(agent: AgentId, dirs: readonly string[], accept: (name: string) => boolean, idOf: (file: string) => string): Promise<SessionFileInfo[]> {
  const all = await Promise.all(dirs.map((d) => listSessionFiles(d, accept)));
  return all.flat().filter((f) => f.size > 0).map((f) => ({ agent, file: f.file, id: idOf(f.file), mtimeMs: f.mtimeMs, size: f.size }));
}
