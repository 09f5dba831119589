/**
 * File I/O for recapwrap's own state in folders other users might reach: private folders checked the
 * way tmux checks its socket folder, atomic writes that never follow a planted link, and bounded reads
 * of regular files only. Agent transcripts are not read here (the transcript layer has its own reader).
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, isAbsolute } from 'node:path';

/** Group or other write: anyone else could plant links or files in the folder. */
const OPEN_TO_OTHERS_MODE = 0o022;
const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;
/** Folders nested deeper than this below their nearest existing ancestor are not created (a typo, not a plan). */
const MAX_NEW_DIR_DEPTH = 16;

/**
 * A folder recapwrap will not use, with the reason in words a user can act on. `kind`: 'unusable' (it
 * cannot be made or read: a read-only or pseudo file system) or 'not-private' (someone else's, open to
 * others, a link: refused on purpose).
 */
export class UnsafeFolderError extends Error {
  constructor(
    readonly path: string,
    readonly kind: 'unusable' | 'not-private',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UnsafeFolderError';
  }
}

function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

// Creates the missing folders one level at a time. Not mkdir's `recursive` option: under /proc it
// never returns (Node 20 retries ENOENT for ever), which hung the wrapped agent (#19 point 8).
function createFolderChain(path: string): void {
  const missing: string[] = [];
  let p = path;
  for (;;) {
    try {
      statSync(p);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    missing.push(p);
    const parent = dirname(p);
    if (parent === p || missing.length > MAX_NEW_DIR_DEPTH) throw new Error(`no existing folder above ${path}`);
    p = parent;
  }
  for (const dir of missing.reverse()) {
    try {
      mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * Why a folder is not safe for recapwrap's files, or undefined when it is: a real folder (not a
 * symlink), owned by this user, writable by nobody else. A missing folder is reported as missing.
 */
export function checkPrivateDir(path: string): string | undefined {
  let st;
  try {
    st = lstatSync(path);
  } catch (error) {
    return `cannot use ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
  if (st.isSymbolicLink()) return `${path} is a symbolic link; recapwrap only uses a real folder of yours there`;
  if (!st.isDirectory()) return `${path} is not a folder`;
  const uid = currentUid();
  if (uid !== undefined && st.uid !== uid) return `${path} belongs to uid ${st.uid}, not to you (uid ${uid})`;
  if ((st.mode & OPEN_TO_OTHERS_MODE) !== 0) {
    return `${path} is writable by other users (mode ${(st.mode & 0o7777).toString(8)}); fix it with \`chmod 700 ${path}\``;
  }
  return undefined;
}

/** Create the folder (0700) when missing, then check it; throws UnsafeFolderError with a clear reason. */
export function ensurePrivateDir(path: string): void {
  if (!isAbsolute(path)) throw new UnsafeFolderError(path, 'unusable', `${path} is not an absolute path`);
  try {
    createFolderChain(path);
  } catch (error) {
    throw new UnsafeFolderError(path, 'unusable', `cannot create ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
  const problem = checkPrivateDir(path);
  if (problem) throw new UnsafeFolderError(path, problem.startsWith('cannot use') ? 'unusable' : 'not-private', problem);
}

// Create a new file for writing, never through a link and never over an existing file.
function openExclusive(path: string): number {
  return openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, PRIVATE_FILE_MODE);
}

function writeAll(fd: number, data: string): void {
  const bytes = Buffer.from(data, 'utf8');
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/**
 * Replace `target` atomically (a reader sees the old file or the new one, never half): a 0600 temp file
 * beside it, created with O_EXCL|O_NOFOLLOW, then renamed over it. A leftover temp file of this pid (a
 * crash) is removed first; rename replaces a link at `target` itself, never what it points to.
 */
export function writeFileAtomic(target: string, data: string): void {
  const tmp = `${target}.${process.pid}.tmp`;
  let fd: number;
  try {
    fd = openExclusive(tmp);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    unlinkSync(tmp); // removes a link, not its target
    fd = openExclusive(tmp);
  }
  try {
    writeAll(fd, data);
  } catch (error) {
    closeSync(fd);
    unlinkQuietly(tmp);
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(tmp, target);
  } catch (error) {
    unlinkQuietly(tmp);
    throw error;
  }
}

/**
 * Read a small regular file whole: symlinks (O_NOFOLLOW), FIFOs and devices are refused without
 * blocking (O_NONBLOCK), and files over `maxBytes` are refused rather than read.
 */
export function readRegularFile(path: string, maxBytes: number): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error('not a regular file');
    if (st.size > maxBytes) throw new Error(`over ${maxBytes} bytes`);
    const buffer = Buffer.alloc(Math.min(st.size + 1, maxBytes + 1));
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes) throw new Error(`over ${maxBytes} bytes`);
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

export function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone, or not ours to remove: nothing to do either way.
  }
}
