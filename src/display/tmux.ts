/**
 * tmux as a display: `display-message` for the transient recap (tmux clears it on the next key) and the
 * pane options @recap, @recap_state and @recap_age for status lines and pane borders. Text is sanitized
 * and every `#` doubled: tmux's status renderer reads `##` as `#`, so recap text can neither start a
 * style (`#[…]`) nor anything else, and `#(…)` never runs (plain `#{@recap}` is not re-expanded).
 * All calls are asynchronous and never throw: a tmux hiccup must not touch the agent.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import type { ActivityState } from '../types.js';
import { sanitizeLine } from '../util/sanitize.js';
import { displayWidth, truncateToWidth } from '../util/text-width.js';
import { escapeTmuxText } from './tmux-escape.js';

export { escapeTmuxText };

/** How long display-message keeps a recap up if no key is pressed (tmux clears it on a key anyway). */
export const TMUX_MESSAGE_MS = 15_000;
/**
 * A tmux server answers in ~3 ms; a hung one (stopped, swapping) never does. No call waits longer than
 * this, and none is ever on the agent's path (calls are asynchronous; see also limitTmuxCalls).
 */
export const TMUX_CALL_TIMEOUT_MS = 1000;
/** Cap on @recap's width: status lines cut it further themselves. */
export const TMUX_OPTION_MAX_WIDTH = 220;

export interface TmuxTarget {
  /** Pane id (`%3`), from $TMUX_PANE. */
  pane: string;
  /** Extra server arguments (`-L name` in tests); empty means the server in $TMUX. */
  serverArgs?: string[];
  env?: Readonly<Record<string, string | undefined>>;
}

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

/** tmux clients still running, so a limit (or our exit) can end them: a hung server must not keep us. */
const running = new Set<ChildProcess>();
/** Once set (at exit), the most any tmux call may still take. */
let callLimitMs: number | undefined;
let exitKillInstalled = false;

// Run tmux with args; resolves with stdout, or undefined on any failure or timeout (logged by the caller).
export function runTmux(target: Pick<TmuxTarget, 'serverArgs' | 'env'>, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    let child: ChildProcess | undefined;
    try {
      child = execFile(
        'tmux',
        [...(target.serverArgs ?? []), ...args],
        { timeout: Math.min(TMUX_CALL_TIMEOUT_MS, callLimitMs ?? Infinity), killSignal: 'SIGKILL', env: (target.env ?? process.env) as NodeJS.ProcessEnv },
        (error, stdout) => {
          if (child) running.delete(child);
          resolve(error ? undefined : stdout);
        },
      );
    } catch {
      resolve(undefined); // spawn failed outright (EAGAIN, bad env): the same as a failed call
      return;
    }
    running.add(child);
    if (!exitKillInstalled) {
      exitKillInstalled = true;
      // A client left waiting on a hung server would outlive us; end it with us.
      process.on('exit', () => {
        for (const c of running) endTmuxCall(c);
      });
    }
  });
}

/**
 * From now on no tmux call takes longer than ms: running ones are ended then, new ones time out then.
 * For the way out, so a hung server delays the wrapper's exit by at most ms.
 */
export function limitTmuxCalls(ms: number): void {
  callLimitMs = Math.min(ms, callLimitMs ?? Infinity);
  for (const child of running) {
    const timer = setTimeout(() => endTmuxCall(child), ms);
    child.once('exit', () => clearTimeout(timer));
  }
}

// End a tmux client and its call at once. The client hands its stdio to the server, so a hung server
// holds our pipes open: without closing them ourselves the call would only end when the server does.
function endTmuxCall(child: ChildProcess): void {
  child.stdout?.destroy();
  child.stderr?.destroy();
  child.kill('SIGKILL');
}

/** Show text on the clients looking at the pane's session until a key is pressed. */
export async function tmuxDisplayMessage(target: TmuxTarget, text: string, durationMs = TMUX_MESSAGE_MS): Promise<boolean> {
  const out = await runTmux(target, ['display-message', '-t', target.pane, '-d', String(durationMs), escapeForTmux(text)]);
  return out !== undefined;
}

/** Set any of @recap, @recap_state, @recap_age on the pane in one tmux call. */
export async function setPaneRecapOptions(target: TmuxTarget, values: { recap?: string; state?: ActivityState; age?: string }): Promise<boolean> {
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

/** A client that sees a pane: its name (for `-c`), its width, and whether the pane is its current one. */
export interface ViewingClient {
  name: string;
  width: number;
  /** The pane is the client's current (active) pane; else it is another pane of the window on screen. */
  current: boolean;
}

const FIELD = '\t';

/**
 * The clients that have the pane on screen: their current window is the pane's window (linked windows
 * count in every session), and the pane is not hidden behind another zoomed pane. Control-mode clients
 * have no status line. One tmux call; undefined when it fails.
 */
export async function listViewingClients(target: TmuxTarget): Promise<ViewingClient[] | undefined> {
  const out = await runTmux(target, [
    'display-message', '-p', '-t', target.pane, ['#{window_id}', '#{window_zoomed_flag}', '#{pane_active}'].join(FIELD),
    ';', 'list-clients', '-F', ['#{client_name}', '#{client_width}', '#{window_id}', '#{pane_id}', '#{client_control_mode}'].join(FIELD),
  ]);
  if (out === undefined) return undefined;
  const [paneLine = '', ...clientLines] = out.split('\n');
  const [window, zoomed, active] = paneLine.split(FIELD);
  if (!window) return undefined;
  if (zoomed === '1' && active !== '1') return [];
  const clients: ViewingClient[] = [];
  for (const line of clientLines) {
    const [name, width, clientWindow, clientPane, control] = line.split(FIELD);
    if (!name || clientWindow !== window || control === '1') continue;
    clients.push({ name, width: Number(width) || 0, current: clientPane === target.pane });
  }
  return clients;
}

/** Show each client its own text (already fitted to it) until a key is pressed, in one tmux call. */
export async function tmuxDisplayMessages(
  target: TmuxTarget,
  messages: ReadonlyArray<{ client: string; text: string }>,
  durationMs = TMUX_MESSAGE_MS,
): Promise<boolean> {
  if (messages.length === 0) return true;
  const args = messages.flatMap(({ client, text }, i) => [
    ...(i ? [';'] : []),
    'display-message', '-c', client, '-t', target.pane, '-d', String(durationMs), escapeForTmux(text, Number.MAX_SAFE_INTEGER),
  ]);
  return (await runTmux(target, args)) !== undefined;
}

/**
 * For the pane's rows top..bottom: how many cells tmux's line holds (written or cleared, trailing blanks
 * included: capture-pane -N). A terminal cannot show this, but capture-pane -e can (a row ends with an
 * SGR change when its line runs on past the text); the picker rebuilds it when it takes its rows off,
 * so the pane captures byte for byte as before. Undefined when tmux does not answer.
 */
export async function readRowWidths(target: TmuxTarget, top: number, bottom: number): Promise<number[] | undefined> {
  const out = await runTmux(target, ['capture-pane', '-p', '-e', '-N', '-t', target.pane, '-S', String(top), '-E', String(bottom)]);
  if (out === undefined) return undefined;
  const lines = out.split('\n');
  return Array.from({ length: bottom - top + 1 }, (_, i) => displayWidth((lines[i] ?? '').replace(/\x1b\[[0-9;:]*m/g, '')));
}
