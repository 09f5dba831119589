/**
 * The wrap flow's live parts (step 3 of run-wrap.ts), all built here in one function once the child
 * runs: the recap drafter, the state file, attention, the transcript tracker, the display run-wrap
 * chose, the activity report, the live-recap controller and the control socket. The choices (which
 * agent, which display) arrive decided. Any failure here is logged and leaves the agent alone.
 */
import { basename } from 'node:path';
import { parseHotkey, type Hotkey } from '../../config/hotkey.js';
import { getHomeDir } from '../../config/paths.js';
import type { Options } from '../../config/options-table.js';
import { socketPathFor } from '../../display/control-socket.js';
import { StateWriter } from '../../display/state-file.js';
import { TmuxRecapDisplay } from '../../display/tmux-display.js';
import { readTmuxFocusEvents } from '../../display/tmux-focus.js';
import type { TmuxFocusOption } from '../../focus/focus-evidence.js';
import { SessionTracker } from '../../transcripts/tracker.js';
import type { LaunchPlan, TranscriptAdapter } from '../../transcripts/types.js';
import type { Disposable, Env } from '../../types.js';
import { debugLog } from '../../util/debug-log.js';
import { createRecapEngine } from '../recaps/recap-engine.js';
import { agentRecapsMode, decideOwnRecap } from '../recaps/own-recaps.js';
import { startActivityReport } from './activity-report.js';
import { startAttention } from './attention-wiring.js';
import { startControlSocket } from './control-wiring.js';
import { startFocusEvidence } from './focus-evidence-wiring.js';
import { startLiveRecap, viewRecapLine, type RecapDisplay } from './live-recap.js';
import type { PickerScreen } from '../picker/picker-session.js';
import { startPickerKey, type PickerPlace } from './picker-key.js';
import { startMemoryWriter } from './memory-writer.js';
import { recapRoom } from './recap-room.js';
import type { StateFolders } from './state-folders.js';
import type { WrapRun } from './wrap-run.js';

/** Where recaps appear, as run-wrap decided: the overlay bar (already mirroring the screen), tmux, or nowhere. */
export type LiveDisplay = { kind: 'overlay'; screen: RecapDisplay & Disposable } | { kind: 'tmux' } | { kind: 'none' };

export interface LivePartsInput {
  /** The agent's transcript adapter (run-wrap starts no live parts without one). */
  adapter: TranscriptAdapter;
  launch: LaunchPlan;
  run: WrapRun;
  options: Options;
  cwd: string;
  env: Env;
  startedAt: number;
  /** The wrapped command, as typed. */
  command: string;
  /** The state and socket folders, checked before the agent started (prepareStateFolders). */
  folders: StateFolders;
  display: LiveDisplay;
  /**
   * The copy of the agent's screen the reference picker draws over (the overlay display's). Without it,
   * inside tmux the picker opens in a tmux popup and needs no copy.
   */
  pickerScreen?: PickerScreen;
  /** Inside tmux: its focus-events option as the start's check read it (run-wrap), if it asked. */
  tmuxFocusAtStart?: Promise<TmuxFocusOption>;
}

export interface LiveParts {
  /** Take everything down (the state file last); resolves when tmux options are cleared. */
  stop(): Promise<void>;
}

const NO_DISPLAY: RecapDisplay = { show: () => {}, clear: () => {} };

export function startLiveParts(input: LivePartsInput): LiveParts {
  const { adapter, run, options, env, cwd, startedAt } = input;
  const log = debugLog;
  // Whether focus reports say where the user is (#43), before anything else listens to them.
  const focusReports = startFocusEvidence({
    wrap: run,
    ...(env.TMUX ? { readTmuxOption: () => readTmuxFocusEvents(env), startOption: input.tmuxFocusAtStart } : {}),
    log,
  });
  const drafter = createRecapEngine({ options, agent: adapter.id, command: input.command, env });
  const now = () => new Date().toISOString();
  const { stateDir, runtimeDir } = input.folders;
  const socketPath = socketPathFor(runtimeDir, process.pid);
  const state = new StateWriter(
    stateDir,
    {
      pid: process.pid,
      agent: adapter.id,
      command: input.command,
      cwd,
      sessionFile: null,
      sessionId: null,
      tmuxPane: env.TMUX_PANE ?? null,
      state: 'idle',
      stateSince: now(),
      lastFocusAt: null,
      lastRecap: null,
      attention: null,
      socketPath,
      startedAt: new Date(startedAt).toISOString(),
    },
    (error) => log('state', 'state file write failed', { error: error.message }),
    // Written once the socket answers: `ls` takes a live file whose socket refuses for a dead wrapper.
    { deferFirstWrite: true },
  );
  // Attention (#21): tells you when this session needs you while you are away.
  const attention = startAttention({
    wrap: run,
    options,
    env,
    cwd,
    agent: adapter.id,
    startedAt,
    focusReports,
    recapLine: () => state.current.lastRecap?.line,
    onMark: (mark) => state.update({ attention: mark }, { now: true }),
  });
  // Session memory (#25): the index gets this session's row at each turn end and at exit.
  const memory = startMemoryWriter({ options, env, cwd, log: (message, data) => log('memory', message, data) });
  const tracker = new SessionTracker({ adapter, plan: input.launch, cwd, env, home: getHomeDir(env), childPid: run.pid, startedAt, stateDir, log });
  const tmux =
    input.display.kind === 'tmux'
      ? new TmuxRecapDisplay(
          { pane: env.TMUX_PANE as string, env },
          { onError: (what) => log('tmux', 'call failed', { what }), whose: { agent: adapter.id, folder: basename(cwd) } },
        )
      : undefined;
  const display = input.display.kind === 'overlay' ? input.display.screen : (tmux ?? NO_DISPLAY);
  const activity = startActivityReport({
    run,
    current: () => tracker.current,
    onActivity(activity, session) {
      tmux?.setState(activity);
      const changed = activity !== state.current.state;
      // A closed turn gets its offline recap line at once, so ls, board and status say where it stands
      // before any recap was shown.
      const quick = (activity === 'idle' || activity === 'waiting') && state.current.lastRecap?.stamp !== session.stamp;
      const quickLine = quick ? drafter.quickLine(session) : undefined;
      state.update({
        sessionFile: session.file,
        sessionId: session.id,
        ...(changed ? { state: activity, stateSince: now() } : {}),
        ...(quickLine !== undefined ? { lastRecap: { line: quickLine, stamp: session.stamp, createdAt: now() } } : {}),
      });
      // @recap says what the state file (status, ls) says (#43): a status line built on it is never a turn behind.
      if (quickLine !== undefined) tmux?.setRecap(viewRecapLine(quickLine));
      attention.report(activity, session);
      if (activity === 'idle' || activity === 'waiting') memory.turnEnd(session);
    },
  });
  const hotkey = parseHotkey(options.hotkey);
  // Asked at each draft: the terminal may have been resized since the start.
  const room = () => recapRoom(input.display.kind, { cols: run.cols, rows: run.rows }, options.barRows);
  // The agent's own recap (#34): whether it is on and what recapwrap does about it (agentRecaps).
  const own = decideOwnRecap(adapter, agentRecapsMode(options), { cwd, env, home: getHomeDir(env) });
  log('recap', 'own recap', { agent: adapter.id, on: own.state?.on ?? null, uses: Boolean(own.trigger), rule: Boolean(own.trigger?.rule) });
  const live = startLiveRecap({
    wrap: run,
    sessions: tracker,
    display,
    drafter,
    room,
    focusReports,
    onShown: (text, session) => state.update({ lastRecap: { line: text, stamp: session.stamp, createdAt: now() } }, { now: true }),
    // The agent's own recap, or recapwrap's for a return the agent recaps itself: no bar, but tmux and the state file carry it.
    onQuietRecap: (text, session) => {
      state.update({ lastRecap: { line: text, stamp: session.stamp, createdAt: now() } }, { now: true });
      tmux?.setRecap(viewRecapLine(text));
    },
    onSessionChange: (session) => activity.report(session),
    config: { awayMs: options.awaySeconds * 1000, idleMs: options.idleSeconds * 1000, draftDebounceMs: options.draftDebounceMs, ...(own.trigger ? { ownRecaps: own.trigger } : {}) },
    hotkey: typeof hotkey === 'string' ? null : (hotkey as Hotkey | null),
    resume: input.launch.resume,
    log,
  });
  const pickKey = parseHotkey(options.pickKey);
  const pickerPlace: PickerPlace | undefined = input.pickerScreen
    ? { kind: 'screen', screen: input.pickerScreen }
    : env.TMUX && env.TMUX_PANE
      ? { kind: 'popup', pane: env.TMUX_PANE, socketPath }
      : undefined;
  const picker =
    pickerPlace && pickKey && typeof pickKey !== 'string'
      ? startPickerKey({ run, place: pickerPlace, key: pickKey, env, options, cwd, log, onOpen: () => display.clear('key') })
      : undefined;
  tracker.start();
  log('recap', 'attached', { agent: adapter.id, display: input.display.kind, pinned: Boolean(input.launch.pinnedFile || input.launch.pinnedId) });
  const focus = run.onFocus((focused) => focused && state.update({ lastFocusAt: now() }));
  let stopped = false;
  const control = startControlSocket({
    socketPath,
    folders: input.folders,
    state,
    live,
    current: () => tracker.current,
    draft: (session, signal) => drafter.draft(session, signal, room()),
    draftTimeoutMs: options.generatorTimeoutSeconds * 1000,
    stopped: () => stopped,
    now,
    picker: picker && ((cmd, request) => picker.control(cmd, request)),
  });
  return {
    async stop() {
      stopped = true;
      focus.dispose();
      focusReports.dispose();
      picker?.dispose();
      await attention.dispose();
      state.update({ state: 'exited', stateSince: now() });
      activity.dispose();
      live.dispose();
      await memory.exit(tracker.current);
      await tracker.stop();
      await tmux?.dispose(); // clears @recap*: a shell left in the pane shows no stale recap
      if (input.display.kind === 'overlay') input.display.screen.dispose();
      control.close();
      state.remove();
    },
  };
}
