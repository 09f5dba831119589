/**
 * The wrap flow's pick key (option `pickKey`): taken out of the input so the agent never sees it, and
 * when pressed, the reference picker opens: over the pane from the overlay's screen copy
 * (app/picker/picker-session.ts), or inside tmux in a tmux popup (picker-popup.ts), which needs no
 * screen copy. Keys typed while it loads are kept for it. Nothing of the picker or the index loads
 * before the key.
 */
import type { Hotkey } from '../../config/hotkey.js';
import type { Options } from '../../config/options-table.js';
import type { Disposable, Env } from '../../types.js';
import type { DebugLog } from '../../util/debug-log.js';
import type { PickerRun, PickerScreen } from '../picker/picker-session.js';
import type { PopupPicker } from './picker-popup.js';

/** Where the picker opens: over the overlay's screen copy, or in a tmux popup over the pane. */
export type PickerPlace = { kind: 'screen'; screen: PickerScreen } | { kind: 'popup'; pane: string; socketPath: string };

export interface PickerKeyInput {
  run: PickerRun & { interceptKey(sequences: readonly string[], onKey: () => void): Disposable };
  place: PickerPlace;
  key: Hotkey;
  env: Env;
  options: Options;
  cwd: string;
  /** Called as the picker opens: the key counts as a keypress for a recap on screen (taken off, not brought back). */
  onOpen?(): void;
  log: DebugLog;
}

export interface PickerKey extends Disposable {
  /** The popup's requests over the control socket (`pick`, `paste`); an error when no popup is open. */
  control(cmd: 'pick' | 'paste', request: Readonly<Record<string, unknown>>): Record<string, unknown>;
}

export function startPickerKey(input: PickerKeyInput): PickerKey {
  const { run, log, place } = input;
  let open = false;
  let popup: PopupPicker | undefined;
  const intercept = run.interceptKey(input.key.sequences, () => {
    if (open) return;
    open = true;
    try {
      input.onOpen?.();
    } catch (error) {
      log('picker', 'open hook failed', { error: (error as Error).message });
    }
    const opened = place.kind === 'popup' ? openPopup(place) : openOnScreen(place.screen);
    void opened
      .catch((error: unknown) => log('picker', 'failed', { error: (error as Error).message }))
      .finally(() => {
        open = false;
        popup = undefined;
      });
  });

  // Inside tmux: a tmux popup; the keys typed before it takes the keyboard are kept by picker-popup.ts.
  async function openPopup(where: { pane: string; socketPath: string }): Promise<unknown> {
    const typed: string[] = [];
    const early = run.captureInput((data) => typed.push(data));
    let modules;
    try {
      modules = await Promise.all([import('./picker-popup.js'), import('../../display/tmux.js')]);
    } catch (error) {
      early.dispose();
      throw error;
    }
    const [{ openPickerPopup }, { tmuxDisplayMessage }] = modules;
    // The popup's own capture replaces `early` in the same tick: no key slips through to the agent.
    popup = openPickerPopup({
      run,
      pane: where.pane,
      socketPath: where.socketPath,
      cwd: input.cwd,
      env: input.env,
      cli: [process.execPath, process.argv[1] ?? 'recapwrap'],
      notify: (text) => void tmuxDisplayMessage({ pane: where.pane, env: input.env }, text, 5000),
      // What came before the popup module loaded goes first (its own capture then takes the rest).
      typed: typed.join(''),
      log,
    });
    early.dispose();
    return popup.closed;
  }

  // Over the overlay's copy of the agent's screen (outside tmux, or --display overlay).
  async function openOnScreen(screen: PickerScreen): Promise<unknown> {
    // Keys typed before the picker is loaded are its own, not the agent's.
    const typed: string[] = [];
    const early = run.captureInput((data) => typed.push(data));
    const pane = input.env.TMUX_PANE;
    try {
      const [{ openPicker }, { openPickerMemory }] = await Promise.all([import('../picker/picker-session.js'), import('../picker/open-memory.js')]);
      early.dispose();
      return await openPicker({
        run,
        screen,
        openMemory: () => openPickerMemory({ env: input.env, options: input.options, cwd: input.cwd, inPane: true }),
        // Inside tmux (the overlay display), tmux can say how long its lines are: see PickerSessionDeps.readWidths.
        readWidths: pane ? (top, count) => import('../../display/tmux.js').then((t) => t.readRowWidths({ pane, env: input.env }, top, top + count - 1)) : undefined,
        initialInput: typed,
        now: () => Date.now(),
        log,
      }).closed;
    } finally {
      early.dispose();
    }
  }

  return {
    dispose() {
      intercept.dispose();
      popup?.dispose();
    },
    control(cmd, request) {
      if (!popup) throw new Error('no picker popup is open');
      return popup.handle(cmd, request);
    },
  };
}
