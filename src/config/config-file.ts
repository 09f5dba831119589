/**
 * Finding and reading recapwrap's config files with the facts the trust rule needs (project-rule.ts):
 * the walk from the working folder to a project's `.recapwrap.json`, and a bounded read whose owner and
 * mode come from the very descriptor read, so no file can be swapped between the check and the read.
 * What the keys mean is load.ts's.
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { nodeRequire } from '../util/node-require.js';
import { judgeConfigFile, type FileRule, type FileVerdict, type StatFacts } from './project-rule.js';

export const PROJECT_CONFIG_FILE = '.recapwrap.json';
/** A config file larger than this is no config file (and is not read whole). */
const MAX_CONFIG_BYTES = 1 << 20;

// `dir` lies strictly below `root`.
function isBelow(dir: string, root: string): boolean {
  const rel = relative(root, dir);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

// The nearest folder from `dir` up that holds `.git` (a folder, or a worktree's file): the repository root.
function findRepositoryRoot(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/**
 * The project file for a working folder: `.recapwrap.json` in it or the nearest parent. Below the home
 * folder the walk stops before home itself (home is no project: what applies everywhere is the global
 * file's); elsewhere it stops at the repository root (the folder holding `.git`), and outside any
 * repository only the working folder's own file counts (so /tmp/.recapwrap.json never reaches /tmp/x).
 */
export function findProjectConfig(cwd: string, home: string): string | undefined {
  const start = resolve(cwd);
  const homes = [resolve(home)];
  try {
    const real = realpathSync(home);
    if (!homes.includes(real)) homes.push(real);
  } catch {
    // No such home: the spelled path is all there is to compare.
  }
  if (homes.includes(start)) return undefined;
  // A home that is the filesystem root (HOME=/, as services and some containers run) holds every folder:
  // "below home" would let the walk climb past any repository to /. Such a home bounds nothing.
  const homeRoot = homes.find((h) => dirname(h) !== h && isBelow(start, h));
  const stop = homeRoot === undefined ? (findRepositoryRoot(start) ?? start) : undefined;
  for (let dir = start; ; dir = dirname(dir)) {
    if (dir === homeRoot) return undefined;
    const candidate = join(dir, PROJECT_CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    if (dir === stop || dirname(dir) === dir) return undefined;
  }
}

/** A config file as read: what the rule said of it, and its bytes when it may be read. */
export type ConfigFileRead =
  | { kind: 'missing' }
  | { kind: 'refused'; verdict: Extract<FileVerdict, { ok: false }> }
  | { kind: 'unreadable'; message: string }
  /** linked: the path is a link to a file lying elsewhere (its folder's own links resolved, the file's not). */
  | { kind: 'read'; realPath: string; linked: boolean; bytes: Buffer };

const effectiveUid = (): number | undefined => (typeof process.geteuid === 'function' ? process.geteuid() : typeof process.getuid === 'function' ? process.getuid() : undefined);

function folderFacts(path: string): StatFacts & { path: string } {
  const st = statSync(path);
  return { path, uid: st.uid, mode: st.mode };
}

/**
 * Read a config file under the trust rule: a link is followed to the file it names, and both the folder
 * it was found in and the folder it lies in are judged; owner and mode are the opened descriptor's.
 * FIFOs and devices are refused without blocking; a file over MAX_CONFIG_BYTES is unreadable.
 */
export function readConfigFileSafely(path: string, rule: FileRule): ConfigFileRead {
  try {
    lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', message: `Cannot read ${path}: ${(error as Error).message}` };
  }
  let fd: number | undefined;
  try {
    const realPath = realpathSync(path);
    fd = openSync(realPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    const folders = [folderFacts(dirname(resolve(path)))];
    if (dirname(realPath) !== folders[0]?.path) folders.push(folderFacts(dirname(realPath)));
    const verdict = judgeConfigFile({ path, file: { uid: st.uid, mode: st.mode, isFile: st.isFile() }, folders, uid: effectiveUid() }, rule);
    if (!verdict.ok) return { kind: 'refused', verdict };
    if (st.size > MAX_CONFIG_BYTES) return { kind: 'unreadable', message: `Cannot read ${path}: over ${MAX_CONFIG_BYTES} bytes` };
    const buffer = Buffer.alloc(Math.min(st.size + 1, MAX_CONFIG_BYTES + 1));
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > MAX_CONFIG_BYTES) return { kind: 'unreadable', message: `Cannot read ${path}: over ${MAX_CONFIG_BYTES} bytes` };
    const linked = join(realpathSync(dirname(resolve(path))), basename(path)) !== realPath;
    return { kind: 'read', realPath, linked, bytes: buffer.subarray(0, length) };
  } catch (error) {
    return { kind: 'unreadable', message: `Cannot read ${path}: ${(error as Error).message}` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The sha256 of a file's bytes, as the trust list keeps it (node:crypto loaded only when a file needs it). */
export function sha256Of(bytes: Buffer): string {
  return nodeRequire<typeof import('node:crypto')>('node:crypto').createHash('sha256').update(bytes).digest('hex');
}
