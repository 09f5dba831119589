/**
 * `recapwrap next`: the live session that has waited longest for you (questions and approvals first,
 * see display/attention-order.ts). Inside tmux it switches the client to that session's pane; outside
 * tmux (or for a session that runs outside it) it prints the session's recap card. Nothing waits: exit 1
 * with one line.
 */
import { homedir } from 'node:os';
import { getStateDir, type Env } from '../config/paths.js';
import { pickNextWaiting, waitKindOf } from '../display/attention-order.js';
import { readLiveStates, type LiveState } from '../display/state-file.js';
import { runTmux } from '../display/tmux.js';
import { formatSince, shortenDir } from '../util/age.js';
import { sanitizeBlock, sanitizeLine } from '../util/sanitize.js';

export const NOTHING_WAITS_MESSAGE = 'recapwrap: no session is waiting for you';

export interface NextOptions {
  /** The pane you are in (skipped); default $TMUX_PANE. */
  from?: string;
  /** Print the card even inside tmux (no jump). */
  print?: boolean;
  width?: number;
}

export interface NextResult {
  code: number;
  out: string;
  err: string;
  /** The session chosen, if any (tests, scripts). */
  target?: LiveState;
}

// One line about the chosen session: agent, folder, why and for how long.
function describeTarget(s: LiveState, now: number): string {
  const since = s.attention?.since ?? s.stateSince;
  // Every part comes from a state file (a folder name, a command): one clean line (#40).
  return sanitizeLine(`${s.agent ?? s.command} · ${shortenDir(s.cwd, homedir(), 60)} · ${waitKindOf(s) ?? s.state} ${formatSince(since, now)}${s.tmuxPane ? ` · tmux pane ${s.tmuxPane}` : ''}`);
}

// The recap card of a live session: its transcript's cached or offline recap, else its last line.
async function renderLiveCard(s: LiveState, env: Env, width: number): Promise<string> {
  const fallback = sanitizeLine(s.lastRecap?.line ?? 'No recap yet for this session.');
  if (!s.sessionFile) return fallback;
  try {
    const [{ loadSessionFile }, { createEngine }, { renderCard }, { resolveConfig }] = await Promise.all([
      import('../transcripts/load.js'),
      import('./recap-engine.js'),
      import('../recap/format.js'),
      import('../config/load.js'),
    ]);
    const session = await loadSessionFile(s.sessionFile);
    const engine = createEngine({ options: resolveConfig({ env, cwd: s.cwd }).options, agent: session.agent, env });
    return sanitizeBlock(renderCard(engine.cachedRecap(session) ?? engine.heuristic(session), width));
  } catch (error) {
    return `${fallback}\n${sanitizeLine(`(cannot read ${s.sessionFile}: ${(error as Error).message})`)}`;
  }
}

export async function runNext(options: NextOptions = {}, env: Env = process.env, now = Date.now()): Promise<NextResult> {
  const states = readLiveStates(getStateDir(env), { prune: true });
  const target = pickNextWaiting(states, { exceptPane: options.from ?? env.TMUX_PANE ?? undefined });
  if (!target) {
    // From a tmux key binding (prefix + N) stderr goes nowhere: say it where the user looks too.
    if (env.TMUX && !options.print) await runTmux({ env }, ['display-message', NOTHING_WAITS_MESSAGE]);
    return { code: 1, out: '', err: `${NOTHING_WAITS_MESSAGE}\n` };
  }
  if (env.TMUX && target.tmuxPane && !options.print) {
    const pane = target.tmuxPane;
    const tmux = { env };
    // switch-client fails with no client to switch (a script): selecting the window and pane still helps.
    await runTmux(tmux, ['switch-client', '-t', pane]);
    const selected = (await runTmux(tmux, ['select-window', '-t', pane, ';', 'select-pane', '-t', pane])) !== undefined;
    if (!selected) return { code: 1, out: '', err: `recapwrap: could not switch to tmux pane ${sanitizeLine(pane)} (${describeTarget(target, now)})\n`, target };
    return { code: 0, out: '', err: '', target };
  }
  const card = await renderLiveCard(target, env, options.width ?? 100);
  return { code: 0, out: `${describeTarget(target, now)}\n\n${card}\n`, err: '', target };
}
