/**
 * The live-recap runtime of one wrapped agent, loaded after the child has started (so recaps never
 * delay the agent's start): the recap engine for the chosen generator, the overlay bar when that is
 * the display, and attachRecap's tracker, controller and tmux display.
 */
import type { Server } from 'node:net';
import { join } from 'node:path';
import type { Options } from '../config/options-table.js';
import type { Env } from '../config/paths.js';
import { socketPathFor, startControlServer, stopControlServer } from '../display/control-socket.js';
import { StateWriter } from '../display/state-file.js';
import { pruneStaleEntries } from '../display/stale-state.js';
import { debugLog } from '../util/debug-log.js';
import type { RecapDisplay } from './live-recap.js';
import type { RecapPlan } from './launch-plan.js';
import { attachRecap } from './recap-wiring.js';
import { startAttention } from './attention-wiring.js';
import { createRecapEngine } from './recap-engine.js';
import type { StateFolders } from './state-folders.js';
import type { WrapSession } from './wrap-session.js';

export interface LiveRuntimeInput {
  plan: RecapPlan;
  session: WrapSession;
  options: Options;
  cwd: string;
  env: Env;
  startedAt: number;
  /** The wrapped command, as typed. */
  command: string;
  /** The overlay bar, already mirroring the agent's screen (outside tmux). */
  overlay?: RecapDisplay & { dispose(): void };
  /** The state and socket folders, checked before the agent started (prepareStateFolders). */
  folders: StateFolders;
}

export function attachLiveRecap(input: LiveRuntimeInput): { stop(): Promise<void> } | undefined {
  const { plan, session, options, env } = input;
  const overlay = input.overlay;
  const engine = createRecapEngine({ options, agent: plan.agent, command: input.command, env });
  const now = () => new Date().toISOString();
  const { stateDir, runtimeDir } = input.folders;
  const socketPath = socketPathFor(runtimeDir, process.pid);
  const state = new StateWriter(
    stateDir,
    {
      pid: process.pid,
      agent: plan.agent ?? null,
      command: input.command,
      cwd: input.cwd,
      sessionFile: null,
      sessionId: null,
      tmuxPane: env.TMUX_PANE ?? null,
      state: 'idle',
      stateSince: now(),
      lastFocusAt: null,
      lastRecap: null,
      attention: null,
      socketPath,
      startedAt: new Date(input.startedAt).toISOString(),
    },
    (error) => debugLog('state', 'state file write failed', { error: error.message }),
    // Written once the socket answers: `ls` takes a live file whose socket refuses for a dead wrapper.
    { deferFirstWrite: true },
  );
  // Attention (#21): tells you when this session needs you while you are away.
  const attention = startAttention({
    wrap: session,
    options,
    env,
    cwd: input.cwd,
    agent: plan.agent ?? input.command,
    startedAt: input.startedAt,
    recapLine: () => state.current.lastRecap?.line,
    onMark: (mark) => state.update({ attention: mark }, { now: true }),
  });
  const attached = attachRecap({
    plan,
    wrap: session,
    options,
    engine,
    overlay,
    cwd: input.cwd,
    env,
    startedAt: input.startedAt,
    onShown: (text, current) => state.update({ lastRecap: { line: text, stamp: current.stamp, createdAt: now() } }, { now: true }),
    onActivity: (activity, current) => {
      const changed = activity !== state.current.state;
      // A closed turn gets its offline recap line at once, so ls, board and status say where it stands
      // before any recap was shown.
      const quick = (activity === 'idle' || activity === 'waiting') && state.current.lastRecap?.stamp !== current.stamp;
      state.update({
        sessionFile: current.file,
        sessionId: current.id,
        ...(changed ? { state: activity, stateSince: now() } : {}),
        ...(quick ? { lastRecap: { line: engine.quickLine(current), stamp: current.stamp, createdAt: now() } } : {}),
      });
      attention.report(activity, current);
    },
  });
  if (!attached) {
    void attention.dispose();
    state.remove();
    return undefined;
  }
  const focus = session.onFocus((focused) => focused && state.update({ lastFocusAt: now() }));
  let server: Server | undefined;
  let stopped = false;
  // One draft at a time however many clients ask (a flood of `recap` requests must not start a flood of generators).
  let drafting: Promise<string | null> | undefined;
  const draftNow = (): Promise<string | null> => {
    const current = attached.tracker.current;
    if (!current) return Promise.resolve(null);
    drafting ??= (async () => {
      try {
        const line = (await engine.draft(current, AbortSignal.timeout(options.generatorTimeoutSeconds * 1000))) ?? null;
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
    async (cmd) => {
      switch (cmd) {
        case 'status':
          return { state: state.current };
        case 'show':
          attached.live.requestManual();
          return { line: state.current.lastRecap?.line ?? null };
        case 'recap':
          return { line: await draftNow() };
        default:
          return cmd satisfies never;
      }
    },
    (message, fields) => debugLog('control', message, fields),
  )
    .then(
      (s) => {
        if (stopped) stopControlServer(s, socketPath);
        else server = s;
      },
      (error: Error) => {
        debugLog('control', 'control socket failed', { error: error.message });
        state.update({ socketPath: null });
      },
    )
    .finally(() => {
      if (stopped) return;
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
    async stop() {
      stopped = true;
      focus.dispose();
      await attention.dispose();
      state.update({ state: 'exited', stateSince: now() });
      await attached.stop();
      overlay?.dispose();
      if (server) stopControlServer(server, socketPath);
      state.remove();
    },
  };
}

