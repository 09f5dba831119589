/**
 * tmux as a display: `display-message` for the transient recap (tmux clears it on the next key) and the
 * pane options @recap, @recap_state and @recap_age for status lines and pane borders. Text is sanitized
 * and every `#` doubled: tmux's status renderer reads `##` as `#`, so recap text can neither start a
 * style (`#[…]`) nor anything else, and `#(…)` never runs (plain `#{@recap}` is not re-expanded).
 * All calls are asynchronous and never throw: a tmux hiccup must not touch the agent.
 */
import { execFile } from 'node:child_process';
import { sanitizeLine } from '../util/sanitize.js';
import { truncateToWidth } from '../util/text-width.js';
import { escapeTmuxText } from './tmux-escape.js';

export { escapeTmuxText };

/** How long display-message keeps a recap up if no key is pressed (tmux clears it on a key anyway). */
export const TMUX_MESSAGE_MS = 15_000;
const TMUX_CALL_TIMEOUT_MS = 2000;
/** Cap on @recap's width: status lines cut it further themselves. */
export const TMUX_OPTION_MAX_WIDTH = 220;

export interface TmuxTarget {
  /** Pane id (`%3`), from $TMUX_PANE. */
  pane: string;
  /** Extra server arguments (`-L name` in tests); empty means the server in $TMUX. */
  serverArgs?: string[];
  env?: Readonly<Record<string, string | undefined>>;
}

export type PaneState = 'working' | 'waiting' | 'idle' | 'exited';

/** One safe line for tmux: no control characters, `#` doubled, cut to maxWidth cells. */
export function escapeForTmux(text: string, maxWidth = TMUX_OPTION_MAX_WIDTH): string {
  return escapeTmuxText(truncateToWidth(sanitizeLine(text), maxWidth));
}

/** "just now", "4m", "2h", "3d": the age shown in @recap_age. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86_400)}d`;
}

// Run tmux with args; resolves with stdout, or undefined on any failure (logged by the caller).
export function runTmux(target: Pick<TmuxTarget, 'serverArgs' | 'env'>, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'tmux',
      [...(target.serverArgs ?? []), ...args],
      { timeout: TMUX_CALL_TIMEOUT_MS, env: (target.env ?? process.env) as NodeJS.ProcessEnv },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
  });
}

/** Show text on the clients looking at the pane's session until a key is pressed. */
export async function tmuxDisplayMessage(target: TmuxTarget, text: string, durationMs = TMUX_MESSAGE_MS): Promise<boolean> {
  const out = await runTmux(target, ['display-message', '-t', target.pane, '-d', String(durationMs), escapeForTmux(text)]);
  return out !== undefined;
}

/** Set any of @recap, @recap_state, @recap_age on the pane in one tmux call. */
export async function setPaneRecapOptions(target: TmuxTarget, values: { recap?: string; state?: PaneState; age?: string }): Promise<boolean> {
  const args: string[] = [];
  const add = (name: string, value: string) => {
    if (args.length) args.push(';');
    args.push('set-option', '-p', '-t', target.pane, name, value);
  };
  if (values.recap !== undefined) add('@recap', escapeForTmux(values.recap));
  if (values.state !== undefined) add('@recap_state', values.state);
  if (values.age !== undefined) add('@recap_age', escapeForTmux(values.age, 20));
  if (!args.length) return true;
  return (await runTmux(target, args)) !== undefined;
}

/** Remove our pane options (on exit, so a shell in the pane shows no stale recap). */
export async function clearPaneRecapOptions(target: TmuxTarget): Promise<boolean> {
  const args = ['@recap', '@recap_state', '@recap_age'].flatMap((name, i) => [...(i ? [';'] : []), 'set-option', '-p', '-u', '-t', target.pane, name]);
  return (await runTmux(target, args)) !== undefined;
}
