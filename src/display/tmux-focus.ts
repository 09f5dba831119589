/**
 * tmux focus-events for the wrapper: are we inside tmux, is `focus-events` on (tmux only forwards
 * pane/window focus changes when it is; the default is off), and turn it on only when asked
 * (`--tmux-focus`): it is a server-global option that outlives us. Asynchronous, through tmux.ts's
 * bounded calls, so a hung tmux server never holds up the agent's start.
 */
import type { Env } from '../types.js';
import { runTmux as runTmuxCall } from './tmux.js';

export const TMUX_ENV = 'TMUX';
export const TMUX_PANE_ENV = 'TMUX_PANE';
/** The one-line fix we print when focus-events is off. */
export const TMUX_FOCUS_FIX = 'tmux set -g focus-events on';

export type TmuxFocusEvents = 'on' | 'off' | 'unknown';


export function isInsideTmux(env: Env): boolean {
  return Boolean(env[TMUX_ENV]);
}

// Run one tmux command against the server named in $TMUX; null when it fails or times out.
async function runTmux(args: string[], env: Env): Promise<string | null> {
  return (await runTmuxCall({ env }, args)) ?? null;
}

// Read the global focus-events option (started before the child, so a warning can land above its UI).
export async function readTmuxFocusEvents(env: Env): Promise<TmuxFocusEvents> {
  const out = await runTmux(['show', '-gv', 'focus-events'], env);
  if (out === null) return 'unknown';
  const value = out.trim();
  return value === 'on' ? 'on' : value === 'off' ? 'off' : 'unknown';
}

// Turn focus-events on for the whole server; only called for --tmux-focus. Returns whether it worked.
export async function enableTmuxFocusEvents(env: Env): Promise<boolean> {
  return (await runTmux(['set', '-g', 'focus-events', 'on'], env)) !== null && (await readTmuxFocusEvents(env)) === 'on';
}

export function formatTmuxFocusWarning(): string {
  return `recapwrap: tmux focus-events is off; fix: ${TMUX_FOCUS_FIX} (or use --tmux-focus)`;
}

export type TmuxFocusCheck = { action: 'none' | 'enabled' | 'warn' | 'enable-failed'; state: TmuxFocusEvents };

// Decide what to do about focus-events at start: nothing outside tmux or when on; enable when asked; else warn.
export async function checkTmuxFocus(env: Env, options: { enable: boolean }): Promise<TmuxFocusCheck> {
  if (!isInsideTmux(env)) return { action: 'none', state: 'unknown' };
  const state = await readTmuxFocusEvents(env);
  if (state === 'on') return { action: 'none', state };
  if (options.enable) return (await enableTmuxFocusEvents(env)) ? { action: 'enabled', state: 'on' } : { action: 'enable-failed', state };
  return { action: state === 'off' ? 'warn' : 'none', state };
}
