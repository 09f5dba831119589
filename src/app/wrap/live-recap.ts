/**
 * The wrap flow's controller, the product's main moment: the wrap run's focus/input/output events and
 * the transcript tracker's sessions feed the trigger machine; its actions run the recap drafter (drafts,
 * aborted when stale) and drive a display. Every collaborator is injected, so this is tested with fakes
 * around the real trigger machine; live-parts.ts builds the real ones. A failure here is logged, never
 * thrown at the agent.
 */
import type { Hotkey } from '../../config/hotkey.js';
import { findHotkey } from '../../config/hotkey.js';
import type { RecapView } from '../../display/recap-view.js';
import { composeRecap } from '../../recap/compose.js';
import { ownRecapFacts } from '../../recap/own-recap.js';
import { createTriggerMachine, type TriggerAction, type TriggerConfig, type TriggerEvent, type TriggerMachine } from '../../recap/trigger.js';
import { isMidTurn } from '../../transcripts/activity.js';
import type { Session } from '../../transcripts/types.js';
import type { Disposable } from '../../types.js';
import type { DebugLog } from '../../util/debug-log.js';
import type { FocusReports } from './focus-evidence-wiring.js';

/** Wait this long after the agent's first output before counting its first screen as drawn. */
export const FIRST_SCREEN_SETTLE_MS = 300;

/** The parts of a WrapRun the controller listens to. */
export interface WrapEvents {
  onFocus(listener: (focused: boolean) => void): Disposable;
  onInput(listener: (data: string) => void): Disposable;
  onOutput(listener: (chunk: string) => void): Disposable;
  onExit(listener: (exit: unknown) => void): Disposable;
}

export interface SessionSource {
  onSession(listener: (session: Session) => void): Disposable;
  readonly current: Session | undefined;
}

/**
 * What turns a transcript session into recap text, as the wrap flow sees the recap engine
 * (app/recap-engine.ts builds it from the options).
 */
export interface RecapDrafter {
  /**
   * The full recap line; undefined when there is nothing to say or the signal aborted. `cells`: the room
   * where it will be shown (a model is told it), when the display knows.
   */
  draft(session: Session, signal: AbortSignal, cells?: number): Promise<string | undefined>;
  /** A short "working: …" line for an agent mid-turn (fast, offline). */
  workingLine(session: Session): string;
  /** The offline recap line of a session, at once (for state files, ls and board between shown recaps). */
  quickLine(session: Session): string;
}

/** Why a shown recap is taken off: a key the user pressed (tmux already cleared its message), or anything else. */
export type ClearCause = 'key' | 'other';

/** Where recaps appear (overlay bar, tmux, or nothing); each composes the view for the cells it has. */
export interface RecapDisplay {
  show(view: RecapView): void;
  clear(cause?: ClearCause): void;
}

/** A recap line as displays take it: the line, and the recap layer's composer for any width. */
export function viewRecapLine(line: string): RecapView {
  return { line, compose: (cells) => composeRecap({ line }, cells) };
}

export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface LiveRecapDeps {
  wrap: WrapEvents;
  sessions: SessionSource;
  display: RecapDisplay;
  /** The full recap line (its draft must honour the signal) and the "working: …" line mid-turn. */
  drafter: Pick<RecapDrafter, 'draft' | 'workingLine'>;
  /** Called whenever a recap was shown (state file, tmux options). */
  onShown?(text: string, session: Session): void;
  /**
   * Called when a recap is the recap of the session now but no bar is drawn (tmux options, state file):
   * the agent's own recap (`own`), or recapwrap's for a return the agent shows its own for (`published`).
   */
  onQuietRecap?(text: string, session: Session, kind: 'own' | 'published'): void;
  /** Called on every new session snapshot (state file, tmux @recap_state). */
  onSessionChange?(session: Session): void;
  /** Whether focus reports can be trusted (focus-evidence-wiring.ts); without it they never hold (the idle timer). */
  focusReports?: FocusReports;
  /** The cells a recap has on the display now (recap-room.ts); undefined when it cannot say. */
  room?: () => number | undefined;
  config: TriggerConfig;
  hotkey: Hotkey | null;
  resume: boolean;
  timers?: Timers;
  log: DebugLog;
}

const REAL_TIMERS: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface LiveRecap {
  /** Ask for a recap now (hotkey, control socket). */
  requestManual(): void;
  readonly machine: TriggerMachine;
  dispose(): void;
}

export function startLiveRecap(deps: LiveRecapDeps): LiveRecap {
  const timers = deps.timers ?? REAL_TIMERS;
  const machine = createTriggerMachine(deps.config, { now: timers.now }, { resume: deps.resume });
  const disposables: Disposable[] = [];
  let tickTimer: unknown;
  let firstScreenTimer: unknown;
  let sawOutput = false;
  let firstOutput: Disposable | undefined;
  let inFlight: { stamp: string; controller: AbortController } | undefined;
  let disposed = false;
  /** A "working: …" line is up (the hotkey, or a return mid-turn): it goes when the turn ends. */
  let workingShown = false;
  /** The event being handled: a clear it causes comes from a key when it is input. */
  let handling: TriggerEvent['type'] | undefined;

  function send(event: TriggerEvent): void {
    if (disposed) return;
    let actions: TriggerAction[];
    try {
      actions = machine.handle(event);
    } catch (error) {
      deps.log('live-recap', 'trigger failed', { event: event.type, error: (error as Error).message });
      return;
    }
    if (event.type !== 'tick' || actions.length > 0) {
      deps.log('live-recap', 'trigger', { event: event.type, actions: actions.map((a) => a.type).join(',') || 'none' });
    }
    handling = event.type;
    try {
      for (const action of actions) run(action);
    } finally {
      handling = undefined;
    }
  }

  function run(action: TriggerAction): void {
    try {
      switch (action.type) {
        case 'draft':
          startDraft(action.stamp);
          break;
        case 'abort-draft':
          inFlight?.controller.abort();
          inFlight = undefined;
          break;
        case 'show': {
          deps.log('live-recap', 'show', { reason: action.reason, chars: action.text.length });
          workingShown = false;
          deps.display.show(viewRecapLine(action.text));
          const current = deps.sessions.current;
          if (current) deps.onShown?.(action.text, current);
          break;
        }
        case 'show-working': {
          const current = deps.sessions.current;
          if (current) {
            deps.display.show(viewRecapLine(deps.drafter.workingLine(current)));
            workingShown = true;
          }
          break;
        }
        case 'own-recap':
        case 'publish': {
          deps.log('live-recap', action.type === 'own-recap' ? "the agent's own recap" : 'recap without a bar', { chars: action.text.length });
          const current = deps.sessions.current;
          if (current) deps.onQuietRecap?.(action.text, current, action.type === 'own-recap' ? 'own' : 'published');
          break;
        }
        case 'clear':
          workingShown = false;
          deps.display.clear(handling === 'input' ? 'key' : 'other');
          break;
        case 'timer':
          if (tickTimer !== undefined) timers.clearTimeout(tickTimer);
          tickTimer = timers.setTimeout(() => {
            tickTimer = undefined;
            send({ type: 'tick' });
          }, Math.max(0, action.at - timers.now()));
          break;
        default:
          action satisfies never;
      }
    } catch (error) {
      deps.log('live-recap', 'action failed', { action: action.type, error: (error as Error).message });
    }
  }

  // Draft the current session; the result only counts if the state has not moved on meanwhile.
  function startDraft(stamp: string): void {
    const session = deps.sessions.current;
    if (!session || session.stamp !== stamp) {
      send({ type: 'draft-failed', stamp });
      return;
    }
    inFlight?.controller.abort();
    const controller = new AbortController();
    inFlight = { stamp, controller };
    deps.drafter
      .draft(session, controller.signal, deps.room?.())
      .then(
        (text) => {
          if (controller.signal.aborted) return;
          if (inFlight?.controller === controller) inFlight = undefined;
          send(text ? { type: 'draft-ready', stamp, text } : { type: 'draft-failed', stamp });
        },
        (error: unknown) => {
          if (inFlight?.controller === controller) inFlight = undefined;
          deps.log('live-recap', 'draft failed', { error: (error as Error).message });
          if (!controller.signal.aborted) send({ type: 'draft-failed', stamp });
        },
      );
  }

  if (deps.focusReports?.hold) send({ type: 'focus-reports', hold: true });
  disposables.push(
    ...(deps.focusReports ? [deps.focusReports.onChange((hold) => send({ type: 'focus-reports', hold }))] : []),
    deps.wrap.onFocus((focused) => send({ type: 'focus', focused })),
    deps.wrap.onInput((data) => {
      if (deps.hotkey && findHotkey(deps.hotkey, data).index >= 0) {
        send({ type: 'manual' });
        return;
      }
      send({ type: 'input' });
    }),
    // Only the first output matters (the resume trigger); then stop listening, so the wrapper need
    // not decode every chunk of output for us.
    (firstOutput = deps.wrap.onOutput(() => {
      if (sawOutput) return;
      sawOutput = true;
      firstScreenTimer = timers.setTimeout(() => send({ type: 'first-screen' }), FIRST_SCREEN_SETTLE_MS);
      queueMicrotask(() => firstOutput?.dispose());
    })),
    deps.wrap.onExit(() => send({ type: 'exit' })),
    deps.sessions.onSession((session) => {
      try {
        deps.onSessionChange?.(session);
      } catch (error) {
        deps.log('live-recap', 'session listener failed', { error: (error as Error).message });
      }
      const midTurn = isMidTurn(session);
      // The turn a "working: …" line spoke of is over: the line is wrong now (#19.13). Taken off before
      // the machine acts, so a recap it shows for the turn's end stays up.
      if (workingShown && !midTurn) {
        workingShown = false;
        deps.log('live-recap', 'turn ended; working line taken off');
        try {
          deps.display.clear('other');
        } catch (error) {
          deps.log('live-recap', 'action failed', { action: 'clear', error: (error as Error).message });
        }
      }
      const own = deps.config.ownRecaps ? ownRecapFacts(session.events, deps.config.ownRecaps.rule?.counts) : undefined;
      send({ type: 'session', stamp: session.stamp, midTurn, ...(own ? { own } : {}) });
    }),
  );

  return {
    machine,
    requestManual: () => send({ type: 'manual' }),
    dispose() {
      if (disposed) return;
      send({ type: 'exit' });
      disposed = true;
      for (const d of disposables) d.dispose();
      if (tickTimer !== undefined) timers.clearTimeout(tickTimer);
      if (firstScreenTimer !== undefined) timers.clearTimeout(firstScreenTimer);
      inFlight?.controller.abort();
    },
  };
}
