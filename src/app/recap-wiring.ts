/**
 * Builds the live-recap machinery around one wrapped agent: plans the launch (pin flags), and once the
 * child runs, starts the transcript tracker, the display chosen by the options, the state file, and the
 * live-recap controller. An agent recapwrap does not know runs transparently with no recap machinery.
 * Any failure here is logged and leaves the agent alone.
 */
import { basename } from 'node:path';
import type { Hotkey } from '../config/hotkey.js';
import { parseHotkey } from '../config/hotkey.js';
import type { Options } from '../config/options-table.js';
import { getHomeDir, getStateDir, type Env } from '../config/paths.js';
import { chooseDisplay, type RecapPlan } from './launch-plan.js';
import { TmuxRecapDisplay } from '../display/tmux-display.js';
import { APPROVAL_QUIET_MS, deriveActivity, isMidTurn } from '../transcripts/activity.js';
import { SessionTracker } from '../transcripts/tracker.js';
import type { Session } from '../transcripts/types.js';
import { debugLog, type DebugLog } from '../util/debug-log.js';
import { startLiveRecap, type LiveRecap, type RecapDisplay, type WrapEvents } from './live-recap.js';

/** What turns a session into text: the recap engine, seen from the app. */
export interface RecapEngine {
  draft(session: Session, signal: AbortSignal): Promise<string | undefined>;
  workingLine(session: Session): string;
  /** The offline recap line of a session, at once (for state files, ls and board between shown recaps). */
  quickLine(session: Session): string;
}

export interface AttachInput {
  plan: RecapPlan;
  wrap: WrapEvents & { readonly pid: number; readonly lastOutputAt?: number; readonly announcedState?: 'working' | 'idle' | 'done' };
  options: Options;
  engine: RecapEngine;
  /** The overlay display, when the options choose it (built by the caller, which owns the terminal). */
  overlay?: RecapDisplay;
  cwd: string;
  env: Env;
  startedAt: number;
  log?: DebugLog;
  /** A recap was shown (state file). */
  onShown?(text: string, session: Session): void;
  /** The session changed; its activity state (state file). */
  onActivity?(state: 'working' | 'waiting' | 'idle' | 'exited', session: Session): void;
}

export interface AttachedRecap {
  readonly tracker: SessionTracker;
  readonly live: LiveRecap;
  stop(): Promise<void>;
}

export function attachRecap(input: AttachInput): AttachedRecap | undefined {
  const log = input.log ?? debugLog;
  const { plan, options, env } = input;
  if (!plan.adapter) {
    log('recap', 'no transcript support for this command; running transparently');
    return undefined;
  }
  const tracker = new SessionTracker({
    adapter: plan.adapter,
    plan: plan.launch,
    cwd: input.cwd,
    env,
    home: getHomeDir(env),
    childPid: input.wrap.pid,
    startedAt: input.startedAt,
    stateDir: getStateDir(env),
    log,
  });
  const where = chooseDisplay(options, env);
  let tmux: TmuxRecapDisplay | undefined;
  let display: RecapDisplay;
  if (where === 'tmux') {
    tmux = new TmuxRecapDisplay(
      { pane: env.TMUX_PANE as string, env },
      { onError: (what) => log('tmux', 'call failed', { what }), whose: { agent: plan.adapter.id, folder: basename(input.cwd) } },
    );
    display = tmux;
  } else if (where === 'overlay' && input.overlay) {
    display = input.overlay;
  } else {
    display = { show: () => {}, clear: () => {} };
  }
  const hotkey = parseHotkey(options.hotkey);
  // Activity from the transcript plus live signals (output quiet time, Codex's OSC 7501). A tool call
  // without a result turns into "waiting" (an approval prompt) only after the output has been quiet for
  // a while, with no transcript change: re-check on a timer while that is pending.
  let recheck: NodeJS.Timeout | undefined;
  const reportActivity = (session: Session) => {
    if (recheck) clearTimeout(recheck);
    recheck = undefined;
    const lastOutputAt = input.wrap.lastOutputAt || undefined;
    const activity = deriveActivity(session, { now: Date.now(), lastOutputAt, codexState: input.wrap.announcedState });
    tmux?.setState(activity.state);
    input.onActivity?.(activity.state, session);
    if (activity.state === 'working' && isMidTurn(session)) {
      recheck = setTimeout(() => {
        const current = tracker.current;
        if (current) reportActivity(current);
      }, APPROVAL_QUIET_MS / 3);
      recheck.unref();
    }
  };
  const live = startLiveRecap({
    wrap: input.wrap,
    sessions: tracker,
    display,
    draft: (session, signal) => input.engine.draft(session, signal),
    workingLine: (session) => input.engine.workingLine(session),
    onShown: input.onShown,
    onSessionChange: (session) => reportActivity(session),
    config: { awayMs: options.awaySeconds * 1000, idleMs: options.idleSeconds * 1000, draftDebounceMs: options.draftDebounceMs },
    hotkey: typeof hotkey === 'string' ? null : (hotkey as Hotkey | null),
    resume: plan.launch.resume,
    log,
  });
  tracker.start();
  log('recap', 'attached', { agent: plan.adapter.id, display: where, pinned: Boolean(plan.launch.pinnedFile || plan.launch.pinnedId) });
  return {
    tracker,
    live,
    async stop() {
      if (recheck) clearTimeout(recheck);
      live.dispose();
      await tracker.stop();
      await tmux?.dispose(); // clears @recap*: a shell left in the pane shows no stale recap
    },
  };
}
