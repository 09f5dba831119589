/**
 * tmux focus-events for the wrapper: are we inside tmux, is `focus-events` on (tmux only forwards
 * pane/window focus changes when it is; the default is off), and turn it on only when asked
 * (`--tmux-focus`): it is a server-global option that outlives us. Other tmux client code lives elsewhere.
 */
import { execFileSync } from 'node:child_process';

export const TMUX_ENV = 'TMUX';
export const TMUX_PANE_ENV = 'TMUX_PANE';
/** The one-line fix we print when focus-events is off. */
export const TMUX_FOCUS_FIX = 'tmux set -g focus-events on';
/** tmux answers in a few ms; a hung server must not hold up the agent's start for long. */
const TMUX_CALL_TIMEOUT_MS = 1500;

export type TmuxFocusEvents = 'on' | 'off' | 'unknown';

type Env = Readonly<Record<string, string | undefined>>;

export function isInsideTmux(env: Env): boolean {
  return Boolean(env[TMUX_ENV]);
}

// Run one tmux command against the server named in $TMUX; null when it fails.
function runTmux(args: string[], env: Env): string | null {
  try {
    return execFileSync('tmux', args, {
      env: env as NodeJS.ProcessEnv,
      encoding: 'utf8',
      timeout: TMUX_CALL_TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return null;
  }
}

// Read the global focus-events option (before the child starts, so a warning lands above its UI).
export function readTmuxFocusEvents(env: Env): TmuxFocusEvents {
  const out = runTmux(['show', '-gv', 'focus-events'], env);
  if (out === null) return 'unknown';
  const value = out.trim();
  return value === 'on' ? 'on' : value === 'off' ? 'off' : 'unknown';
}

// Turn focus-events on for the whole server; only called for --tmux-focus. Returns whether it worked.
export function enableTmuxFocusEvents(env: Env): boolean {
  return runTmux(['set', '-g', 'focus-events', 'on'], env) !== null && readTmuxFocusEvents(env) === 'on';
}

export function formatTmuxFocusWarning(): string {
  return `recapwrap: tmux focus-events is off; fix: ${TMUX_FOCUS_FIX} (or use --tmux-focus)`;
}

export type TmuxFocusCheck = { action: 'none' | 'enabled' | 'warn' | 'enable-failed'; state: TmuxFocusEvents };

// Decide what to do about focus-events at start: nothing outside tmux or when on; enable when asked; else warn.
export function checkTmuxFocus(env: Env, options: { enable: boolean }): TmuxFocusCheck {
  if (!isInsideTmux(env)) return { action: 'none', state: 'unknown' };
  const state = readTmuxFocusEvents(env);
  if (state === 'on') return { action: 'none', state };
  if (options.enable) return enableTmuxFocusEvents(env) ? { action: 'enabled', state: 'on' } : { action: 'enable-failed', state };
  return { action: state === 'off' ? 'warn' : 'none', state };
}
