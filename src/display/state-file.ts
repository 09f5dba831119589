/**
 * One small JSON file per live wrapper in the state folder ($XDG_STATE_HOME/recapwrap, 0700), for
 * `status`, status lines and other tools: agent, folder, session file, tmux pane, activity state and
 * the last recap. Written atomically (temp file + rename, 0600), coalesced, removed on exit; readers
 * skip corrupt files and treat files of dead pids as stale.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../util/process.js';

export const STATE_FILE_VERSION = 1;
const STATE_PREFIX = 'live-';
/** Coalesce bursts of updates into one write at most this often. */
export const STATE_WRITE_COALESCE_MS = 200;

export type LiveActivity = 'working' | 'waiting' | 'idle' | 'exited';

export interface LiveState {
  version: number;
  pid: number;
  agent: string | null;
  command: string;
  cwd: string;
  sessionFile: string | null;
  sessionId: string | null;
  tmuxPane: string | null;
  state: LiveActivity;
  stateSince: string;
  lastFocusAt: string | null;
  lastRecap: { line: string; stamp: string; createdAt: string } | null;
  /** Set while the session wants you (a question, a finished turn, an error seen while you were away); #21. */
  attention?: { event: 'waiting' | 'done' | 'error'; since: string } | null;
  socketPath: string | null;
  startedAt: string;
  updatedAt: string;
}

export function stateFilePath(stateDir: string, pid: number): string {
  return join(stateDir, `${STATE_PREFIX}${pid}.json`);
}

/** Writes this wrapper's state file; updates are merged and written at most every 200 ms. */
export class StateWriter {
  private state: LiveState;
  private timer: NodeJS.Timeout | undefined;
  private removed = false;
  readonly file: string;

  constructor(
    private readonly stateDir: string,
    initial: Omit<LiveState, 'version' | 'updatedAt'>,
    private readonly onError: (error: Error) => void = () => {},
  ) {
    this.state = { ...initial, version: STATE_FILE_VERSION, updatedAt: new Date().toISOString() };
    this.file = stateFilePath(stateDir, initial.pid);
    this.flush();
  }

  get current(): Readonly<LiveState> {
    return this.state;
  }

  /** Merge a change; written within 200 ms, or at once with `now` (a shown recap: status lines want it). */
  update(patch: Partial<Omit<LiveState, 'version' | 'pid'>>, opts: { now?: boolean } = {}): void {
    // Nothing new: no write (readers such as `board` watch the folder).
    const changed = Object.entries(patch).some(([k, v]) => JSON.stringify(this.state[k as keyof LiveState]) !== JSON.stringify(v));
    if (!changed) return;
    this.state = { ...this.state, ...patch, updatedAt: new Date().toISOString() };
    if (opts.now) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.flush();
      return;
    }
    if (this.timer || this.removed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, STATE_WRITE_COALESCE_MS);
    this.timer.unref();
  }

  // Atomic: a reader sees the old file or the new one, never half of one.
  flush(): void {
    if (this.removed) return;
    try {
      mkdirSync(this.stateDir, { recursive: true, mode: 0o700 });
      const tmp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(this.state), { mode: 0o600 });
      renameSync(tmp, this.file);
    } catch (error) {
      this.onError(error as Error);
    }
  }

  remove(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.removed = true;
    try {
      unlinkSync(this.file);
    } catch {
      // Already gone.
    }
  }
}

export interface ReadStatesOptions {
  /** Delete the files of wrappers that are gone. */
  prune?: boolean;
  /** Told about files that cannot be read (corrupt, wrong shape). */
  warn?: (message: string) => void;
}

/** Every live wrapper's state, newest first; corrupt files are skipped, dead pids stale. */
export function readLiveStates(stateDir: string, options: ReadStatesOptions = {}): LiveState[] {
  let names: string[];
  try {
    names = readdirSync(stateDir);
  } catch {
    return [];
  }
  const out: LiveState[] = [];
  for (const name of names) {
    if (!name.startsWith(STATE_PREFIX) || !name.endsWith('.json')) continue;
    const file = join(stateDir, name);
    let state: LiveState;
    try {
      state = JSON.parse(readFileSync(file, 'utf8')) as LiveState;
      if (typeof state !== 'object' || state === null || typeof state.pid !== 'number' || typeof state.cwd !== 'string') throw new Error('not a recapwrap state file');
    } catch (error) {
      options.warn?.(`skipping ${file}: ${(error as Error).message}`);
      continue;
    }
    if (!isProcessAlive(state.pid)) {
      if (options.prune) {
        try {
          unlinkSync(file);
        } catch {}
      }
      continue;
    }
    out.push(state);
  }
  return out.sort((a, b) => byStartedAt(b, a));
}

/**
 * Oldest first, for sort(). Plain code-unit order, as ISO timestamps sort as text: localeCompare would
 * start ICU, ~15 ms of a status line's run.
 */
export function byStartedAt(a: LiveState, b: LiveState): number {
  return a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0;
}
