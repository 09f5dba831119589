/**
 * When to draft and when to show a recap: a pure state machine. Events go in (focus, input, transcript
 * changes, drafts finished, timer ticks); actions come out (draft, abort, show, clear, set a timer).
 * The clock is injected; the thresholds come from the options table as plain numbers. No I/O here.
 * The agent's own recap (own-recap.ts), when used, is the recap of the state it was written for: no
 * draft and no bar for it; a return the agent's own rule covers gets recapwrap's recap without a bar.
 */
import type { OwnRecapRule } from '../types.js';
import { OWN_RECAP_MAKE_MS, ownRecapCovers, ownRecapDueAt, ownRecapLine, type OwnRecapFacts } from './own-recap.js';

export interface TriggerConfig {
  /** Show on focus return after at least this long away. */
  awayMs: number;
  /** While focus reports do not hold (see focus-reports events): show this long after a turn ends with no input (0 = never). */
  idleMs: number;
  /** While away, draft this long after the transcript last changed. */
  draftDebounceMs: number;
  /**
   * Use the agent's own recaps (agentRecaps: use): a fresh one is the recap of its state. `rule`: the
   * agent's automatic recap is on: a return it covers gets no bar, and a recap it will write while you
   * are away is waited for before recapwrap drafts one. Absent: every return gets recapwrap's bar.
   */
  ownRecaps?: { rule?: OwnRecapRule };
}

export interface Clock {
  now(): number;
}

/**
 * Came back after being away while no session was known yet (an unpinned agent's file is found by
 * discovery, seconds late): a session that turns up within this long, before any key, is this return's
 * recap. Covers the tracker's slowest safety-net look (RELOCATE_FOUND_POLL_MS).
 */
export const LATE_SESSION_GRACE_MS = 15_000;

export type ShowReason = 'focus-return' | 'idle' | 'resume' | 'manual';

export type TriggerEvent =
  | { type: 'focus'; focused: boolean }
  /**
   * Whether focus reports can be trusted to say when the user looks away and back (focus/focus-evidence.ts
   * decides). Until told they hold, and whenever they stop holding, the idle timer shows recaps.
   */
  | { type: 'focus-reports'; hold: boolean }
  /** The user typed something for the agent (not the hotkey). */
  | { type: 'input' }
  /** The transcript's summarized state; midTurn = the agent is working on a turn; own = what the agent's own recap rule looks at. */
  | { type: 'session'; stamp: string; midTurn: boolean; own?: OwnRecapFacts }
  | { type: 'draft-ready'; stamp: string; text: string }
  | { type: 'draft-failed'; stamp: string }
  /** The agent drew its first screen (for the resume trigger). */
  | { type: 'first-screen' }
  /** Hotkey or control socket: show a recap now. */
  | { type: 'manual' }
  | { type: 'tick' }
  | { type: 'exit' };

export type TriggerAction =
  | { type: 'draft'; stamp: string }
  | { type: 'abort-draft' }
  | { type: 'show'; text: string; stamp: string; reason: ShowReason }
  /** Show a short "working: …" line now (the app derives it from the heuristic). */
  | { type: 'show-working' }
  /** The agent's own recap (a recap line) is the recap of this state: tmux options and state file, no bar. */
  | { type: 'own-recap'; text: string; stamp: string }
  /** recapwrap's recap of this state, for tmux options and the state file only: the agent shows its own. */
  | { type: 'publish'; text: string; stamp: string }
  | { type: 'clear' }
  /** Send a tick at (or after) this time; replaces any earlier request. */
  | { type: 'timer'; at: number };

export interface TriggerMachine {
  handle(event: TriggerEvent): TriggerAction[];
  /** For tests and `status`: a copy of the state. */
  inspect(): Readonly<TriggerState>;
}

interface TriggerState {
  focused: boolean;
  /** Focus reports hold (the idle fallback is off); false until the app says they do. */
  focusReportsHold: boolean;
  awaySince?: number;
  session?: { stamp: string; midTurn: boolean };
  /** The newest finished draft. */
  draft?: { stamp: string; text: string };
  /** Stamp being drafted now. */
  drafting?: string;
  /** Stamps already drafted (or being drafted): never drafted twice. */
  draftedStamp?: string;
  /** Show the draft for the current stamp as soon as it is ready, for this reason ('covered': publish it, no bar). */
  showWhenReady?: ShowReason | 'covered';
  /** Came back mid-turn: show the full recap when the turn ends, unless the user types. */
  showOnTurnEnd: boolean;
  /** Started on an existing session: show its recap once the first screen is drawn. */
  resumePending: boolean;
  /** Came back (after the threshold) before any session was known: a session found until then is shown. */
  lateReturnUntil?: number;
  firstScreenSeen: boolean;
  shown?: { text: string; stamp: string };
  lastShownText?: string;
  lastShownStamp?: string;
  draftDueAt?: number;
  idleDueAt?: number;
  lastInputAt?: number;
  /** What the agent's own recap rule looks at, from the last session event. */
  ownFacts?: OwnRecapFacts;
  /** The state whose recap is the agent's own, and that recap's line. */
  own?: { stamp: string; line: string };
  /** An agent that does not write its recap: its rule's count at the last return it covered. */
  coveredAtCount?: number;
}

export function createTriggerMachine(config: TriggerConfig, clock: Clock, opts: { resume?: boolean } = {}): TriggerMachine {
  const s: TriggerState = { focused: true, focusReportsHold: false, showOnTurnEnd: false, resumePending: Boolean(opts.resume), firstScreenSeen: false };

  const hasDraftFor = (stamp: string | undefined) => stamp !== undefined && s.draft?.stamp === stamp;

  function timerAction(): TriggerAction[] {
    const times = [s.draftDueAt, s.idleDueAt].filter((t): t is number => t !== undefined);
    return times.length ? [{ type: 'timer', at: Math.min(...times) }] : [];
  }

  // Start drafting the current state unless it is drafted already (LLM generators: once per state).
  function draftCurrent(out: TriggerAction[]): void {
    const stamp = s.session?.stamp;
    if (!stamp || s.draftedStamp === stamp || s.own?.stamp === stamp) return;
    if (s.drafting !== undefined) out.push({ type: 'abort-draft' });
    s.drafting = stamp;
    s.draftedStamp = stamp;
    s.draftDueAt = undefined;
    out.push({ type: 'draft', stamp });
  }

  // Show the draft of the current state for a reason, through the gates; false if nothing was shown.
  function showDraft(reason: ShowReason | 'covered', out: TriggerAction[]): boolean {
    const d = s.draft;
    if (!d || d.stamp !== s.session?.stamp) return false;
    if (reason === 'covered') {
      // The agent shows its own recap for this return: recapwrap's goes to tmux and the state file only.
      s.lastShownText = d.text;
      s.lastShownStamp = d.stamp;
      s.showWhenReady = undefined;
      out.push({ type: 'publish', text: d.text, stamp: d.stamp });
      return true;
    }
    // Never the same text twice in a row, unless the user asked for it.
    if (reason !== 'manual' && d.text === s.lastShownText) return false;
    s.shown = { text: d.text, stamp: d.stamp };
    s.lastShownText = d.text;
    s.lastShownStamp = d.stamp;
    s.showWhenReady = undefined;
    out.push({ type: 'show', text: d.text, stamp: d.stamp, reason });
    return true;
  }

  // Show now if the draft is ready, else draft it and show when ready.
  function showOrDraft(reason: ShowReason | 'covered', out: TriggerAction[]): void {
    if (s.own && s.own.stamp === s.session?.stamp) {
      // The agent's own recap is this state's: asked for (the hotkey), it is shown; otherwise it was already.
      if (reason === 'manual') {
        s.shown = { text: s.own.line, stamp: s.own.stamp };
        out.push({ type: 'show', text: s.own.line, stamp: s.own.stamp, reason });
      }
      return;
    }
    if (hasDraftFor(s.session?.stamp)) {
      showDraft(reason, out);
      return;
    }
    s.showWhenReady = reason;
    if (s.drafting !== s.session?.stamp) {
      s.draftedStamp = undefined; // a failed or aborted draft of this state may be retried when asked
      draftCurrent(out);
    }
  }

  function clearShown(out: TriggerAction[]): void {
    if (!s.shown) return;
    s.shown = undefined;
    out.push({ type: 'clear' });
  }

  function abortDraft(out: TriggerAction[]): void {
    if (s.drafting === undefined) return;
    // An aborted state may be drafted again later.
    if (s.draftedStamp === s.drafting) s.draftedStamp = undefined;
    s.drafting = undefined;
    out.push({ type: 'abort-draft' });
  }

  function onFocus(focused: boolean, out: TriggerAction[]): void {
    // Reports that hold replace the idle timer; ones that do not (an attach in tmux) leave it running.
    if (s.focusReportsHold) s.idleDueAt = undefined;
    if (focused === s.focused) return;
    const now = clock.now();
    s.focused = focused;
    s.lateReturnUntil = undefined;
    if (!focused) {
      s.awaySince = now;
      if (s.session && !s.session.midTurn && s.session.stamp !== s.lastShownStamp && !hasDraftFor(s.session.stamp)) s.draftDueAt = now + config.draftDebounceMs;
      return;
    }
    const awaySince = s.awaySince;
    const awayMs = awaySince === undefined ? 0 : now - awaySince;
    s.awaySince = undefined;
    s.draftDueAt = undefined;
    if (awayMs < config.awayMs) {
      // A short absence while reports do not hold: the idle timer (skipped while away) runs again.
      if (!s.focusReportsHold) armIdle(now);
      return;
    }
    if (!s.session) {
      s.lateReturnUntil = now + LATE_SESSION_GRACE_MS;
      return;
    }
    if (s.session.stamp === s.lastShownStamp) return;
    if (awaySince !== undefined && coveredByOwnRule(awaySince, now)) {
      // The agent shows a recap of its own for this return: no second bar; recapwrap's keeps tmux and memory current.
      showOrDraft('covered', out);
      return;
    }
    showOnReturn(out);
  }

  // The agent's own rule shows a recap for this return (an idle session); for an agent that does not
  // write its recap down, remember the count so its "since the last recap" minimum can be kept.
  function coveredByOwnRule(awaySince: number, now: number): boolean {
    const rule = config.ownRecaps?.rule;
    const facts = s.ownFacts;
    if (!rule || !facts || !s.session || s.session.midTurn) return false;
    // A while-away agent that writes its recap: the record in its file, not this rule, says whether it made one.
    if (rule.writes && rule.when === 'while-away') return false;
    const sinceCovered = s.coveredAtCount === undefined ? undefined : facts.count - s.coveredAtCount;
    if (!ownRecapCovers(rule, facts, awaySince, now, sinceCovered)) return false;
    if (!rule.writes) s.coveredAtCount = facts.count;
    return true;
  }

  // A while-away agent that writes its recap makes one at this time for this absence (plus the time it takes): recapwrap drafts only after.
  function ownRecapWait(): number | undefined {
    const rule = config.ownRecaps?.rule;
    if (!rule || !rule.writes || rule.when !== 'while-away' || !s.ownFacts || s.awaySince === undefined) return undefined;
    const due = ownRecapDueAt(rule, s.ownFacts, s.awaySince);
    return due === undefined ? undefined : due + OWN_RECAP_MAKE_MS;
  }

  // The agent's own recap is the recap of this state: no draft, no bar of recapwrap's (one that is up goes).
  function adoptOwn(stamp: string, text: string, out: TriggerAction[]): void {
    const line = ownRecapLine(text);
    s.own = { stamp, line };
    abortDraft(out);
    s.draftedStamp = stamp;
    s.draftDueAt = undefined;
    s.showWhenReady = undefined;
    s.showOnTurnEnd = false;
    s.resumePending = false;
    s.lateReturnUntil = undefined;
    clearShown(out);
    s.lastShownText = line;
    s.lastShownStamp = stamp;
    out.push({ type: 'own-recap', text: line, stamp });
  }

  // The recap for a return: the full recap, or mid-turn a "working: …" line and the recap at turn end.
  function showOnReturn(out: TriggerAction[]): void {
    if (!s.session) return;
    if (s.session.midTurn) {
      s.showOnTurnEnd = true;
      out.push({ type: 'show-working' });
      s.shown = { text: 'working', stamp: s.session.stamp };
      return;
    }
    showOrDraft('focus-return', out);
  }

  function onSession(stamp: string, midTurn: boolean, own: OwnRecapFacts | undefined, out: TriggerAction[]): void {
    const prev = s.session;
    s.session = { stamp, midTurn };
    if (config.ownRecaps) s.ownFacts = own;
    if (prev && prev.stamp === stamp && prev.midTurn === midTurn) return;
    const now = clock.now();
    if (config.ownRecaps && own?.fresh && !midTurn && s.own?.stamp !== stamp) {
      adoptOwn(stamp, own.fresh.text, out);
      return;
    }
    const lateReturn = s.lateReturnUntil !== undefined && now <= s.lateReturnUntil && s.focused;
    s.lateReturnUntil = undefined;
    if (lateReturn && !prev) {
      // Found after the user came back: the recap of this return, as if it had been known then.
      if (s.drafting !== undefined && s.drafting !== stamp) abortDraft(out);
      showOnReturn(out);
      return;
    }
    const turnStarted = midTurn && (!prev || !prev.midTurn);
    const turnEnded = !midTurn && prev !== undefined && prev.midTurn;
    if (turnStarted) {
      clearShown(out);
      s.idleDueAt = undefined;
    }
    if (s.drafting !== undefined && s.drafting !== stamp) abortDraft(out);
    if (s.resumePending && s.firstScreenSeen && !midTurn) {
      s.resumePending = false;
      showOrDraft('resume', out);
      return;
    }
    if (turnEnded) {
      if (s.showOnTurnEnd && s.focused) {
        s.showOnTurnEnd = false;
        clearShown(out);
        showOrDraft('focus-return', out);
        return;
      }
      if (!s.focusReportsHold && config.idleMs > 0) s.idleDueAt = now + config.idleMs;
    }
    if (!s.focused && !midTurn) s.draftDueAt = now + config.draftDebounceMs;
    if (s.showWhenReady && !midTurn && s.drafting === undefined) draftCurrent(out);
  }

  function onTick(out: TriggerAction[]): void {
    const now = clock.now();
    if (s.draftDueAt !== undefined && now >= s.draftDueAt) {
      s.draftDueAt = undefined;
      const wait = ownRecapWait();
      if (wait !== undefined && now < wait) s.draftDueAt = wait;
      else if (!s.focused && s.session && !s.session.midTurn) draftCurrent(out);
    }
    if (s.idleDueAt !== undefined && now >= s.idleDueAt) {
      s.idleDueAt = undefined;
      const quiet = s.lastInputAt === undefined || now - s.lastInputAt >= config.idleMs;
      // Known to be away (a focus-out, as a tmux detach sends): the return shows it, not an idle show to nobody.
      if (quiet && !s.focusReportsHold && s.focused && s.session && !s.session.midTurn && s.session.stamp !== s.lastShownStamp) showOrDraft('idle', out);
    }
  }

  // Focus reports start or stop holding: the idle timer stops, or takes over for a closed turn not yet recapped.
  function onFocusReports(hold: boolean): void {
    if (hold === s.focusReportsHold) return;
    s.focusReportsHold = hold;
    if (hold) {
      s.idleDueAt = undefined;
      return;
    }
    armIdle(clock.now());
  }

  // The idle timer for a closed turn whose recap was not shown yet.
  function armIdle(now: number): void {
    if (config.idleMs > 0 && s.session && !s.session.midTurn && s.session.stamp !== s.lastShownStamp) s.idleDueAt = now + config.idleMs;
  }

  function handle(event: TriggerEvent): TriggerAction[] {
    const out: TriggerAction[] = [];
    switch (event.type) {
      case 'focus':
        onFocus(event.focused, out);
        break;
      case 'focus-reports':
        onFocusReports(event.hold);
        break;
      case 'input':
        s.lastInputAt = clock.now();
        s.lateReturnUntil = undefined;
        s.showOnTurnEnd = false;
        s.showWhenReady = undefined;
        s.idleDueAt = undefined;
        clearShown(out);
        abortDraft(out);
        break;
      case 'session':
        onSession(event.stamp, event.midTurn, event.own, out);
        break;
      case 'draft-ready':
        if (s.drafting === event.stamp) s.drafting = undefined;
        s.draft = { stamp: event.stamp, text: event.text };
        if (s.showWhenReady && event.stamp === s.session?.stamp) showDraft(s.showWhenReady, out);
        break;
      case 'draft-failed':
        if (s.drafting === event.stamp) s.drafting = undefined;
        if (s.draftedStamp === event.stamp) s.draftedStamp = undefined;
        break;
      case 'first-screen':
        if (s.firstScreenSeen) break;
        s.firstScreenSeen = true;
        if (s.resumePending && s.session && !s.session.midTurn) {
          s.resumePending = false;
          showOrDraft('resume', out);
        }
        break;
      case 'manual':
        if (!s.session) break;
        if (s.session.midTurn) {
          out.push({ type: 'show-working' });
          s.shown = { text: 'working', stamp: s.session.stamp };
          break;
        }
        if (hasDraftFor(s.session.stamp)) showDraft('manual', out);
        else showOrDraft('manual', out);
        break;
      case 'tick':
        onTick(out);
        break;
      case 'exit':
        abortDraft(out);
        clearShown(out);
        s.draftDueAt = undefined;
        s.idleDueAt = undefined;
        return out;
      default:
        return event satisfies never;
    }
    return [...out, ...timerAction()];
  }

  return { handle, inspect: () => ({ ...s }) };
}
