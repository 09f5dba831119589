/**
 * Opening files the transcript layer reads: regular files only, every read bounded. A FIFO would block an
 * open (and a read) for ever, a device (`/dev/zero`, a symlink to it) never ends; neither is a session
 * file. The open does not block (O_NONBLOCK: a FIFO with no writer opens at once) and the opened file is
 * checked with fstat, so a file swapped for a FIFO between a stat and the open is refused too.
 */
import { constants, promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

// O_NONBLOCK does not exist on Windows (no FIFOs there to worry about); O_NOCTTY: a tty never becomes ours.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** The file is not a regular file (FIFO, device, socket): code `ENOTREG`. */
export function notRegularError(file: string): Error {
  return Object.assign(new Error(`${file} is not a regular file (a FIFO, device or socket is no session file)`), { code: 'ENOTREG' });
}

/** Open for reading, only a regular file (symlinks followed); throws ENOENT/EACCES/… or ENOTREG. */
export async function openRegular(file: string): Promise<{ handle: FileHandle; size: number; ino: number; mtimeMs: number }> {
  // fs.promises read here, not imported: Node loads its promise API (~2-5 ms) on first use.
  const handle = await fsp.open(file, OPEN_FLAGS);
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw Object.assign(new Error(`${file} is a folder`), { code: 'EISDIR' });
    if (!st.isFile()) throw notRegularError(file);
    return { handle, size: st.size, ino: st.ino, mtimeMs: st.mtimeMs };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/** Read at most maxBytes from the start of a regular file; undefined when it is missing, not regular or larger. */
export async function readSmallFile(file: string, maxBytes = 1024 * 1024): Promise<string | undefined> {
  let opened: Awaited<ReturnType<typeof openRegular>> | undefined;
  try {
    opened = await openRegular(file);
    if (opened.size > maxBytes) return undefined;
    const buffer = Buffer.alloc(opened.size);
    let at = 0;
    while (at < buffer.length) {
      const { bytesRead } = await opened.handle.read(buffer, at, buffer.length - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return buffer.subarray(0, at).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await opened?.handle.close().catch(() => undefined);
  }
}
