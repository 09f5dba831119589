/**
 * The wrap flow's state folders (step 1 of run-wrap.ts), prepared before the agent starts: the state
 * folder, its `claims` folder and the socket folder, each created 0700 or checked the way tmux checks
 * its socket folder (ours, a real folder, writable by nobody else). Not used by read-only commands.
 */
import { join } from 'node:path';
import { getRuntimeDir, getStateDir } from '../../config/paths.js';
import type { Env } from '../../types.js';
import { ensurePrivateDir, UnsafeFolderError } from '../../util/safe-fs.js';
import { debugLog } from '../../util/debug-log.js';
import { sanitizeLine } from '../../util/sanitize.js';

export interface StateFolders {
  stateDir: string;
  /** Where this wrapper's control socket goes: the runtime folder, else `<state>/sockets`. */
  runtimeDir: string;
}

function tryPrivateDir(path: string): { ok: true } | { ok: false; error: Error } {
  try {
    ensurePrivateDir(path);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error as Error };
  }
}

/**
 * The folders to use, or undefined when the state folder cannot be used: then the agent runs without
 * any recap machinery. A folder that is not safe (someone else's, open to others, a link) is also told
 * to the user through `warn` (one line, before the agent draws); one that cannot be made (a read-only
 * or pseudo file system such as /proc) goes to the debug log only. A bad runtime folder costs only
 * its own place: sockets then live in `<state>/sockets`.
 */
export function prepareStateFolders(env: Env, warn: (message: string) => void = () => {}): StateFolders | undefined {
  const stateDir = getStateDir(env);
  for (const dir of [stateDir, join(stateDir, 'claims')]) {
    const result = tryPrivateDir(dir);
    if (!result.ok) {
      debugLog('state', 'state folder unusable; running without recaps', { error: result.error.message });
      if (result.error instanceof UnsafeFolderError && result.error.kind === 'not-private') {
        warn(sanitizeLine(`not using the state folder: ${result.error.message}; running without recaps`));
      }
      return undefined;
    }
  }
  const runtimeDir = getRuntimeDir(env);
  const runtime = tryPrivateDir(runtimeDir);
  if (runtime.ok) return { stateDir, runtimeDir };
  const fallback = join(stateDir, 'sockets');
  debugLog('state', 'runtime folder unusable; sockets go to the state folder', { error: runtime.error.message });
  if (runtime.error instanceof UnsafeFolderError && runtime.error.kind === 'not-private') warn(sanitizeLine(`not using the socket folder: ${runtime.error.message}`));
  return tryPrivateDir(fallback).ok ? { stateDir, runtimeDir: fallback } : undefined;
}
