/**
 * `recapwrap board`: the live full-screen view of every wrapped session. Rows come from the state files
 * and change when they do (the state folder is watched: no loop reads files while nothing changes; a slow
 * timer only refreshes the "how long" columns). Enter jumps to the session's tmux pane, or outside tmux
 * shows its card; `r` asks the wrapper for a fresh recap over its control socket. The terminal is restored
 * on quit, on signals and on errors.
 */
import { watch, type FSWatcher } from 'node:fs';
import { homedir } from 'node:os';
import { getRuntimeDir, getStateDir, type Env } from '../../config/paths.js';
import type { BoardHandlers, BoardRow, BoardView } from '../../display/board-view.js';
import { requestControl, socketPathFor } from '../../display/control-socket.js';
import { readLiveStates, type LiveState } from '../../display/state-file.js';
import { compareByAttention } from '../../display/attention-order.js';
import { runTmux } from '../../display/tmux.js';
import { shortenDir } from '../../util/age.js';
import { fitRecapCell, isPlainCommand, liveRow, nameLiveState, orderLiveStates } from './live-listing.js';
import { ensurePrivateDir } from '../../util/safe-fs.js';
import { sanitizeLine } from '../../util/sanitize.js';

/** How often the age columns are redrawn (no file is read for it). */
export const AGE_REFRESH_MS = 10_000;
const WATCH_DEBOUNCE_MS = 100;

// Same order and wording as `ls`: newest first, the recap without its label.
export function boardRows(states: readonly LiveState[], now: number, home = homedir()): BoardRow[] {
  // Sessions that wait for you first (#21), then newest first as in ls (sort is stable).
  // A host's session (#35) is keyed by host and pid: pids of two machines may be equal.
  return orderLiveStates(states).sort(compareByAttention).map((s) => ({ key: liveKey(s), ...liveRow(s, now, home, 24) }));
}

const liveKey = (s: LiveState & { host?: string }) => (s.host === undefined ? String(s.pid) : `${s.host}:${s.pid}`);

/** The hosts' live sessions (#35, app/hosts/live-across.ts): polled; Enter on one shows how to get there. */
export interface BoardRemote {
  poll(): Promise<Array<LiveState & { host?: string }>>;
  card(s: LiveState & { host?: string }): { title: string; text: string };
  everyMs: number;
  /** This machine's sessions too (false: `--host NAME` alone). */
  local: boolean;
}

export interface BoardOptions {
  env: Env;
  remote?: BoardRemote;
  /** Build the view (tests may pass their own). */
  createView(handlers: BoardHandlers): BoardView;
}

/** Runs until the user quits; resolves to the exit code. */
export async function runBoard(options: BoardOptions): Promise<number> {
  const { env } = options;
  const stateDir = getStateDir(env);
  try {
    ensurePrivateDir(stateDir); // not mkdir -p: under /proc it never returns (#19 point 8)
  } catch (error) {
    process.stderr.write(`recapwrap: ${sanitizeLine((error as Error).message)}\n`);
    return 1;
  }
  let states: LiveState[] = [];
  let view: BoardView | undefined;
  let watcher: FSWatcher | undefined;
  let ageTimer: NodeJS.Timeout | undefined;
  let debounce: NodeJS.Timeout | undefined;
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => (finish = resolve));

  let local: LiveState[] = [];
  let remote: Array<LiveState & { host?: string }> = [];
  const refresh = () => {
    local = options.remote?.local === false ? [] : readLiveStates(stateDir, { prune: true });
    states = [...local, ...remote];
    view?.setRows(boardRows(states, Date.now()));
  };
  const find = (row: BoardRow) => states.find((s) => liveKey(s) === row.key);
  let remoteTimer: NodeJS.Timeout | undefined;
  const pollRemote = async () => {
    if (!options.remote) return;
    remote = await options.remote.poll();
    refresh();
    if (view) remoteTimer = setTimeout(() => void pollRemote(), options.remote.everyMs);
  };

  const onEnter = (row: BoardRow) => {
    const s = find(row);
    if (!s) return;
    if ((s as { host?: string }).host !== undefined && options.remote) {
      const card = options.remote.card(s);
      view?.showCard(card.title, card.text);
      return;
    }
    if (env.TMUX && s.tmuxPane) {
      const pane = s.tmuxPane;
      void (async () => {
        const target = { env };
        const ok = (await runTmux(target, ['switch-client', '-t', pane])) !== undefined;
        await runTmux(target, ['select-window', '-t', pane]);
        await runTmux(target, ['select-pane', '-t', pane]);
        view?.setStatus(ok ? `jumped to ${pane}` : `could not switch to ${pane}`);
      })();
      return;
    }
    void showCard(s);
  };

  const showCard = async (s: LiveState) => {
    if (isPlainCommand(s)) {
      view?.showCard(`${s.command} · ${shortenDir(s.cwd, homedir(), 60)}`, 'A command, not an agent: it has no transcript, so no recap.');
      return;
    }
    if (!s.sessionFile) {
      view?.showCard(`${s.agent ?? s.command} · ${s.cwd}`, s.lastRecap?.line ?? 'No session file known yet for this wrapper.');
      return;
    }
    try {
      const [{ loadSessionFile }, { createEngine }, { renderCard }, { resolveConfig }] = await Promise.all([
        import('../../transcripts/load.js'),
        import('../recaps/recap-engine.js'),
        import('../../recap/format.js'),
        import('../../config/load.js'),
      ]);
      const session = await loadSessionFile(s.sessionFile);
      const engine = createEngine({ options: resolveConfig({ env, cwd: s.cwd }).options, agent: session.agent, env });
      const recap = engine.cachedRecap(session) ?? engine.heuristic(session);
      view?.showCard(`${s.agent ?? s.command} · ${shortenDir(s.cwd, homedir(), 60)}`, renderCard(recap, 96));
    } catch (error) {
      view?.showCard(`${s.agent ?? s.command}`, `Cannot read ${s.sessionFile}: ${(error as Error).message}`);
    }
  };

  const onRecap = (row: BoardRow) => {
    const s = find(row);
    if (!s) return;
    const name = nameLiveState(s, homedir());
    if ((s as { host?: string }).host !== undefined) {
      view?.setStatus(`${name} runs on host ${(s as { host?: string }).host}: press Enter for how to get there`);
      return;
    }
    if (isPlainCommand(s)) {
      view?.setStatus(`${name} is a command, not an agent: no recap`);
      return;
    }
    view?.setStatus(`asking ${name} for a fresh recap…`);
    const socket = s.socketPath ?? socketPathFor(getRuntimeDir(env), s.pid);
    requestControl(socket, 'recap', 60_000).then(
      (reply) => view?.setStatus(reply.ok === true ? `fresh recap from ${name}` : `${name}: ${String(reply.error ?? 'refused')}`),
      (error: NodeJS.ErrnoException) => view?.setStatus(`${name}: ${error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? 'not answering (its control socket is gone)' : error.message}`),
    );
  };

  const cleanup = (code: number) => {
    watcher?.close();
    if (ageTimer) clearInterval(ageTimer);
    if (remoteTimer) clearTimeout(remoteTimer);
    if (debounce) clearTimeout(debounce);
    view?.destroy();
    view = undefined;
    finish(code);
  };
  const onSignal = () => cleanup(130);
  const onError = (error: unknown) => {
    cleanup(1);
    process.stderr.write(`recapwrap: board failed: ${(error as Error)?.message ?? String(error)}\n`);
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
  process.once('uncaughtException', onError);

  try {
    view = options.createView({ onEnter, onRecap, onQuit: () => cleanup(0), fitRecap: fitRecapCell });
    refresh();
    void pollRemote();
    watcher = watch(stateDir, () => {
      if (debounce) clearTimeout(debounce);
      debounce = setTimeout(refresh, WATCH_DEBOUNCE_MS);
    });
    watcher.on('error', () => {});
    ageTimer = setInterval(() => view?.setRows(boardRows(states, Date.now())), AGE_REFRESH_MS);
  } catch (error) {
    onError(error);
  }
  const code = await done;
  process.removeListener('SIGTERM', onSignal);
  process.removeListener('SIGHUP', onSignal);
  process.removeListener('uncaughtException', onError);
  return code;
}
