/**
 * The wrap flow's tmux focus-events check (asked in step 1 of run-wrap.ts, before the child starts):
 * the one line to print when tmux will not pass focus changes on, and a bounded wait for it so a slow
 * or hung tmux server never holds the agent's start.
 */
import type { Env } from '../../types.js';
import { debugLog } from '../../util/debug-log.js';

/** Set by `recapwrap demo` for the wrapper it runs (demo/scripted-agent.ts), whose instructions explain focus-events already. */
export const DEMO_WORKSPACE_ENV = 'RECAPWRAP_DEMO_WORKSPACE';

/** What the start's check found: the line to print, if any, and the option as it is now (#43: the live parts use it). */
export interface TmuxFocusNotice {
  notice?: string;
  state: 'on' | 'off' | 'unknown';
}

// The focus-events check inside tmux, logged; resolves to the line to print, if any. Never rejects.
// Under the demo the warning is not said twice (its instructions said it); a failure to turn it on still is.
export async function checkTmuxFocusNotice(env: Env, enable: boolean): Promise<TmuxFocusNotice> {
  try {
    const { checkTmuxFocus, formatTmuxFocusWarning } = await import('../../display/tmux-focus.js');
    const tmux = await checkTmuxFocus(env, { enable });
    debugLog('wrap', 'tmux focus-events', { ...tmux });
    if (tmux.action === 'warn') return { state: tmux.state, notice: env[DEMO_WORKSPACE_ENV] ? undefined : formatTmuxFocusWarning() };
    if (tmux.action === 'enable-failed') return { state: tmux.state, notice: 'recapwrap: could not turn on tmux focus-events; switching panes is not seen' };
    return { state: tmux.state };
  } catch (error) {
    debugLog('wrap', 'tmux focus-events check failed', { error: error instanceof Error ? error.message : String(error) });
  }
  return { state: 'unknown' };
}

// Wait for a promise at most ms (the timer does not hold the process).
export function settleWithin<T>(promise: Promise<T>, ms: number): Promise<{ settled: true; value: T } | { settled: false }> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ settled: false }), ms);
    timer.unref();
    void promise.then((value) => {
      clearTimeout(timer);
      resolve({ settled: true, value });
    });
  });
}
