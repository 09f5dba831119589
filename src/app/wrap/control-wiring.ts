/**
 * The wrap flow's control socket (part of the live parts): answers `status`, `show` and `recap` from
 * other recapwrap commands and `pick`/`paste` from the tmux popup picker, writes the state file once
 * it listens (so `ls` never lists a wrapper whose socket refuses), then clears away what dead wrappers
 * left, off the agent's path.
 */
import type { Server } from 'node:net';
import { join } from 'node:path';
import { startControlServer, stopControlServer } from '../../display/control-socket.js';
import { pruneStaleEntries } from '../../display/stale-state.js';
import type { StateWriter } from '../../display/state-file.js';
import type { Session } from '../../transcripts/types.js';
import { debugLog } from '../../util/debug-log.js';
import type { LiveRecap, RecapDrafter } from './live-recap.js';
import type { StateFolders } from './state-folders.js';

export interface ControlWiringInput {
  socketPath: string;
  folders: StateFolders;
  state: StateWriter;
  live: Pick<LiveRecap, 'requestManual'>;
  /** The tracker's latest session. */
  current(): Session | undefined;
  draft: RecapDrafter['draft'];
  draftTimeoutMs: number;
  /** The tmux popup picker's requests (`pick`, `paste`; picker-key.ts); none when there is no pick key. */
  picker?(cmd: 'pick' | 'paste', request: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /** True once the live parts are stopping: a server that starts listening then is closed at once. */
  stopped(): boolean;
  now(): string;
}

export function startControlSocket(input: ControlWiringInput): { close(): void } {
  const { socketPath, state, now } = input;
  const { stateDir, runtimeDir } = input.folders;
  let server: Server | undefined;
  // One draft at a time however many clients ask (a flood of `recap` requests must not start a flood of generators).
  let drafting: Promise<string | null> | undefined;
  const draftNow = (): Promise<string | null> => {
    const current = input.current();
    if (!current) return Promise.resolve(null);
    drafting ??= (async () => {
      try {
        const line = (await input.draft(current, AbortSignal.timeout(input.draftTimeoutMs))) ?? null;
        if (line) state.update({ lastRecap: { line, stamp: current.stamp, createdAt: now() } }, { now: true });
        return line;
      } finally {
        drafting = undefined;
      }
    })();
    return drafting;
  };
  startControlServer(
    socketPath,
    async (cmd, request) => {
      switch (cmd) {
        case 'status':
          return { state: state.current };
        case 'show':
          input.live.requestManual();
          return { line: state.current.lastRecap?.line ?? null };
        case 'recap':
          return { line: await draftNow() };
        case 'pick':
        case 'paste':
          if (!input.picker) throw new Error('no pick key in this wrapper');
          return input.picker(cmd, request);
        default:
          return cmd satisfies never;
      }
    },
    (message, fields) => debugLog('control', message, fields),
  )
    .then(
      (s) => {
        if (input.stopped()) stopControlServer(s, socketPath);
        else server = s;
      },
      (error: Error) => {
        debugLog('control', 'control socket failed', { error: error.message });
        state.update({ socketPath: null });
      },
    )
    .finally(() => {
      if (input.stopped()) return;
      state.flush();
      // What dead wrappers left behind (SIGKILL runs no clean-up), off the agent's path.
      setTimeout(() => {
        pruneStaleEntries(stateDir, [runtimeDir, join(stateDir, 'sockets')]).then(
          ({ removed }) => removed.length > 0 && debugLog('state', 'removed stale entries', { count: removed.length }),
          (error: Error) => debugLog('state', 'stale clean-up failed', { error: error.message }),
        );
      }, 0).unref();
    });
  return {
    close() {
      if (server) stopControlServer(server, socketPath);
    },
  };
}
