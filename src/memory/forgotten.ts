/**
 * The forgotten list: `<state>/forgotten`, one JSON line per session the user forgot (transcript path,
 * agent, id, when), 0600, appended to and never rewritten. The index keeps the same marks (its `files`
 * table); this file is what outlives the index: a corrupt index moved aside, or one deleted by hand, is
 * rebuilt with every mark of the list, so no rebuild brings a forgotten session back. It holds no text of a
 * session, only what names its file.
 */
import { closeSync, constants, fchmodSync, fstatSync, openSync, readFileSync, writeSync } from 'node:fs';

export interface ForgottenEntry { transcript: string; agent: string; id: string; at: number }

const currentUid = () => (typeof process.getuid === 'function' ? process.getuid() : undefined);

// Open for appending (created 0600), never through a symbolic link, only a regular file of ours.
function openList(file: string, flags: number): number {
  const fd = openSync(file, flags | constants.O_NOFOLLOW, 0o600);
  const st = fstatSync(fd);
  const uid = currentUid();
  if (!st.isFile() || (uid !== undefined && st.uid !== uid)) {
    closeSync(fd);
    throw new Error(`${file} is not a regular file of yours`);
  }
  if ((st.mode & 0o077) !== 0) fchmodSync(fd, 0o600); // open to others (copied in by hand): ours alone again
  return fd;
}

/** Add entries to the list (one write: lines of a few hundred bytes each). Throws when it cannot. */
export function appendForgotten(file: string, entries: readonly ForgottenEntry[]): void {
  if (entries.length === 0) return;
  const fd = openList(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
  try {
    writeSync(fd, entries.map((e) => JSON.stringify(e) + '\n').join(''));
  } finally {
    closeSync(fd);
  }
}

/** Every entry of the list ([] when there is none; a damaged line is skipped). */
export function readForgotten(file: string): ForgottenEntry[] {
  let text: string;
  try {
    const fd = openList(file, constants.O_RDONLY);
    try {
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const out: ForgottenEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as Partial<ForgottenEntry>;
      if (typeof e.transcript === 'string' && e.transcript) out.push({ transcript: e.transcript, agent: String(e.agent ?? ''), id: String(e.id ?? ''), at: Number(e.at ?? 0) });
    } catch {
      // a line cut by a crash: the others still hold
    }
  }
  return out;
}
