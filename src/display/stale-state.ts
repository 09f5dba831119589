/**
 * Removes what dead wrappers left behind (a SIGKILL runs no clean-up): `live-<pid>.json` files, control
 * sockets, session claims and half-written temp files. An entry is stale when its pid is gone, when the
 * pid now belongs to a newer process (start time after the file was written), or when its socket
 * refuses connections. Runs when a wrapper starts (off the agent's path) and when `ls` runs; never
 * touches a folder that is not private, and never follows links.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { isProcessAlive, isSameProcessAs } from '../util/process.js';
import { checkPrivateDir, readRegularFile, unlinkQuietly } from '../util/safe-fs.js';
import { sanitizeLine } from '../util/sanitize.js';
import { MAX_STATE_FILE_BYTES, parseLiveState } from './state-file.js';

/** How long a socket probe may take before the wrapper is taken to be alive (busy, not dead). */
const SOCKET_PROBE_TIMEOUT_MS = 300;
/** Claims are `{pid, file}`: a few hundred bytes. */
const MAX_CLAIM_BYTES = 16 * 1024;
const LIVE_FILE = /^live-(\d+)\.json$/;
const SOCKET_FILE = /^(\d+)\.sock$/;
/** Temp files of writeFileAtomic (`<name>.<pid>.tmp`) and staged claims (`.<pid>-<hex>`). */
const TEMP_FILE = /\.(\d+)\.tmp$|^\.(\d+)-[0-9a-f]+$/;

/** Whether a Unix socket refuses connections: nobody listens on it any more. Errors other than refusal count as alive. */
export function isSocketRefusing(path: string, timeoutMs = SOCKET_PROBE_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    const finish = (refusing: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(refusing);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('connect', () => finish(false));
    socket.on('error', (error: NodeJS.ErrnoException) => finish(error.code === 'ECONNREFUSED'));
  });
}

function mtimeOf(path: string): number | undefined {
  try {
    const st = lstatSync(path);
    return st.isSymbolicLink() ? undefined : st.mtimeMs;
  } catch {
    return undefined;
  }
}

function isSocketFile(path: string): boolean {
  try {
    return lstatSync(path).isSocket();
  } catch {
    return false;
  }
}

function listNames(dir: string): string[] {
  if (checkPrivateDir(dir)) return []; // missing, or not ours to clean
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export interface PruneResult {
  /** The paths removed. */
  removed: string[];
}

/** Remove stale live files, sockets, claims and temp files in the state folder and the socket folders given. */
export async function pruneStaleEntries(stateDir: string, socketDirs: readonly string[] = [], options: { warn?: (message: string) => void } = {}): Promise<PruneResult> {
  const removed: string[] = [];
  const probed = new Set<string>();
  const refusing = async (path: string) => {
    probed.add(path);
    return isSocketFile(path) && (await isSocketRefusing(path));
  };
  const remove = (path: string) => {
    unlinkQuietly(path);
    removed.push(path);
  };
  const staleTemp = (name: string) => {
    const m = TEMP_FILE.exec(name);
    const pid = m ? Number(m[1] ?? m[2]) : undefined;
    return pid !== undefined && pid !== process.pid && !isProcessAlive(pid);
  };

  for (const name of listNames(stateDir)) {
    const path = join(stateDir, name);
    if (staleTemp(name)) {
      remove(path);
      continue;
    }
    const m = LIVE_FILE.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    const written = mtimeOf(path);
    if (written === undefined) continue;
    let socketPath: string | null = null;
    let unreadable: string | undefined;
    try {
      socketPath = parseLiveState(readRegularFile(path, MAX_STATE_FILE_BYTES)).socketPath;
    } catch (error) {
      unreadable = (error as Error).message;
    }
    if (!isSameProcessAs(pid, written)) {
      remove(path);
      // A corrupt file is worth a word even when its wrapper is gone (JSON.parse quotes the bad text).
      if (unreadable !== undefined) options.warn?.(sanitizeLine(`removed ${path} of a gone wrapper: ${unreadable}`));
      continue;
    }
    // The pid is alive and may be ours: a wrapper whose socket refuses is gone all the same (a reused pid
    // where start times are unknown). Corrupt files of live pids are left for `ls` to warn about.
    if (unreadable !== undefined) continue;
    if (pid !== process.pid && socketPath && (await refusing(socketPath))) {
      remove(path);
      remove(socketPath);
    }
  }

  const claimsDir = join(stateDir, 'claims');
  for (const name of listNames(claimsDir)) {
    const path = join(claimsDir, name);
    if (staleTemp(name)) {
      remove(path);
      continue;
    }
    if (name.startsWith('.')) continue;
    const written = mtimeOf(path);
    if (written === undefined) continue;
    let owner: unknown;
    try {
      owner = (JSON.parse(readRegularFile(path, MAX_CLAIM_BYTES)) as { pid?: unknown }).pid;
    } catch {
      continue; // The tracker treats a corrupt claim as stale itself when it needs the file.
    }
    if (typeof owner === 'number' && !isSameProcessAs(owner, written)) remove(path);
  }

  for (const dir of new Set(socketDirs)) {
    for (const name of listNames(dir)) {
      const m = SOCKET_FILE.exec(name);
      if (!m) continue;
      const pid = Number(m[1]);
      const path = join(dir, name);
      const created = mtimeOf(path);
      if (created === undefined || pid === process.pid || removed.includes(path)) continue;
      if (!isSameProcessAs(pid, created) || (!probed.has(path) && (await refusing(path)))) remove(path);
    }
  }
  return { removed };
}
