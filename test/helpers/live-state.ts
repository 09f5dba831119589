/**
 * One way for tests to make the live state of a wrapper (what `ls`, `board`, `status`, `next` and
 * `recap` read from the state folder): a complete LiveState with plain defaults, and a writer that
 * puts it where a wrapper would.
 */
import { writeFileSync } from 'node:fs';
import { stateFilePath, STATE_FILE_VERSION, type LiveState } from '../../src/display/state-file.js';

/** A wrapper of pi in /w, idle, in no tmux pane and with no recap yet; `over` changes any field. */
export function liveState(over: Partial<LiveState> = {}): LiveState {
  const now = new Date().toISOString();
  return {
    version: STATE_FILE_VERSION,
    pid: process.pid,
    agent: 'pi',
    command: 'pi',
    cwd: '/w',
    sessionFile: null,
    sessionId: null,
    tmuxPane: null,
    state: 'idle',
    stateSince: now,
    lastFocusAt: null,
    lastRecap: null,
    socketPath: null,
    startedAt: now,
    updatedAt: now,
    ...over,
  };
}

/** What a StateWriter is given: a LiveState without the fields it sets itself. */
export function liveStateInit(over: Partial<LiveState> = {}): Omit<LiveState, 'version' | 'updatedAt'> {
  const { version: _version, updatedAt: _updatedAt, ...init } = liveState(over);
  return init;
}

/** Write a wrapper's state file into `stateDir` (live-<pid>.json) as the wrapper would; returns its path. */
export function writeLiveState(stateDir: string, state: LiveState | Record<string, unknown>): string {
  const file = stateFilePath(stateDir, Number(state.pid));
  writeFileSync(file, JSON.stringify(state));
  return file;
}
