/**
 * One small JSON file per live wrapper in the state folder ($XDG_STATE_HOME/recapwrap, 0700), for
 * `status`, status lines and other tools: agent, folder, session file, tmux pane, activity state and
 * the last recap. Written atomically (temp file + rename, 0600, never through a link), coalesced,
 * removed on exit; readers skip corrupt or odd files and treat files of dead or reused pids as stale.
 * The caller checks the folder (ensurePrivateDir) before the first write.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ActivityState } from '../types.js';
import { isSameProcessAs } from '../util/process.js';
import { sanitizeLine } from '../util/sanitize.js';
import { checkPrivateDir, ensurePrivateDir, readRegularFile, unlinkQuietly, writeFileAtomic } from '../util/safe-fs.js';

export const STATE_FILE_VERSION = 1;
export const STATE_PREFIX = 'live-';
/** A state file is a few hundred bytes; anything far bigger is not ours. */
export const MAX_STATE_FILE_BYTES = 256 * 1024;
/** Coalesce bursts of updates into one write at most this often. */
export const STATE_WRITE_COALESCE_MS = 200;

export interface LiveState {
  version: number;
  pid: number;
  agent: string | null;
  command: string;
  cwd: string;
  sessionFile: string | null;
  sessionId: string | null;
  tmuxPane: string | null;
  state: ActivityState;
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

  /** `deferFirstWrite`: the caller flushes once the wrapper can answer on its socket (ls takes a refusing socket for a dead wrapper). */
  constructor(
    private readonly stateDir: string,
    initial: Omit<LiveState, 'version' | 'updatedAt'>,
    private readonly onError: (error: Error) => void = () => {},
    options: { deferFirstWrite?: boolean } = {},
  ) {
    this.state = { ...initial, version: STATE_FILE_VERSION, updatedAt: new Date().toISOString() };
    this.file = stateFilePath(stateDir, initial.pid);
    if (!options.deferFirstWrite) this.flush();
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
      writeFileAtomic(this.file, JSON.stringify(this.state));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return this.onError(error as Error);
      // The folder went away under us (someone cleaned ~/.local/state): make it again, checked, once.
      try {
        ensurePrivateDir(this.stateDir);
        writeFileAtomic(this.file, JSON.stringify(this.state));
      } catch (again) {
        this.onError(again as Error);
      }
    }
  }

  remove(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.removed = true;
    unlinkQuietly(this.file);
  }
}

export interface ReadStatesOptions {
  /** Delete the files of wrappers that are gone. */
  prune?: boolean;
  /** Told about files that cannot be read (corrupt, wrong shape). */
  warn?: (message: string) => void;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const ATTENTION_EVENTS = ['waiting', 'done', 'error'] as const;

// The attention mark as written (#21), or null: a mark of another shape (a newer writer's event, a hand
// edit) is read as none, never as a wrong reason to call you.
function attentionOf(v: unknown): LiveState['attention'] {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const event = ATTENTION_EVENTS.find((e) => e === o.event);
  return event && typeof o.since === 'string' ? { event, since: o.since } : null;
}

/**
 * A state file's text as a LiveState with every field of the right type (files are written by us, but
 * readers print them: a wrong-typed field must not crash `ls` or a status line). Throws on what is not
 * a recapwrap state file at all.
 */
export function parseLiveState(text: string): LiveState {
  const raw = JSON.parse(text) as unknown;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('not a recapwrap state file');
  const o = raw as Record<string, unknown>;
  if (typeof o.pid !== 'number' || !Number.isInteger(o.pid) || o.pid <= 0 || typeof o.cwd !== 'string') throw new Error('not a recapwrap state file');
  const recap = o.lastRecap as Record<string, unknown> | null | undefined;
  const activity = (['working', 'waiting', 'idle', 'exited'] as const).find((a) => a === o.state) ?? 'idle';
  return {
    version: typeof o.version === 'number' ? o.version : STATE_FILE_VERSION,
    pid: o.pid,
    agent: strOrNull(o.agent),
    command: str(o.command) ?? '',
    cwd: o.cwd,
    sessionFile: strOrNull(o.sessionFile),
    sessionId: strOrNull(o.sessionId),
    tmuxPane: strOrNull(o.tmuxPane),
    state: activity,
    stateSince: str(o.stateSince) ?? '',
    lastFocusAt: strOrNull(o.lastFocusAt),
    lastRecap:
      recap && typeof recap === 'object' && typeof recap.line === 'string'
        ? { line: recap.line, stamp: str(recap.stamp) ?? '', createdAt: str(recap.createdAt) ?? '' }
        : null,
    // Read back as written: without it `next`, `ls` and `board` saw no finished turn or error wanting you.
    attention: attentionOf(o.attention),
    socketPath: strOrNull(o.socketPath),
    startedAt: str(o.startedAt) ?? '',
    updatedAt: str(o.updatedAt) ?? '',
  };
}

/**
 * Every live wrapper's state, newest first; corrupt or odd files (links, FIFOs, huge) are skipped, and
 * files of dead pids or of pids reused by a newer process are stale. A folder that is not private
 * (another owner, writable by others, a link) is not read at all.
 */
export function readLiveStates(stateDir: string, options: ReadStatesOptions = {}): LiveState[] {
  const problem = checkPrivateDir(stateDir);
  if (problem) {
    if (!problem.endsWith('ENOENT')) options.warn?.(sanitizeLine(`not reading the state folder: ${problem}`));
    return [];
  }
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
    let writtenAt: number;
    try {
      state = parseLiveState(readRegularFile(file, MAX_STATE_FILE_BYTES));
      writtenAt = statSync(file).mtimeMs;
    } catch (error) {
      options.warn?.(sanitizeLine(`skipping ${file}: ${(error as Error).message}`)); // JSON.parse quotes the bad text
      continue;
    }
    if (!isSameProcessAs(state.pid, writtenAt)) {
      if (options.prune) unlinkQuietly(file);
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
