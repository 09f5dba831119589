/**
 * The wrap flow's pick key (option `pickKey`): taken out of the input so the agent never sees it, and
 * when pressed, the reference picker (app/picker/picker-session.ts) is loaded and opened over the pane.
 * Keys typed while it loads are kept for it. Nothing of the picker or the index loads before the key.
 */
import type { Hotkey } from '../../config/hotkey.js';
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../types.js';
import type { Disposable } from '../../types.js';
import type { DebugLog } from '../../util/debug-log.js';
import type { PickerRun, PickerScreen } from '../picker/picker-session.js';

export interface PickerKeyInput {
  run: PickerRun & { interceptKey(sequences: readonly string[], onKey: () => void): Disposable };
  screen: PickerScreen;
  key: Hotkey;
  env: Env;
  options: Options;
  cwd: string;
  /** Called as the picker opens: the key counts as a keypress for a recap on screen (taken off, not brought back). */
  onOpen?(): void;
  log: DebugLog;
}

export function startPickerKey(input: PickerKeyInput): Disposable {
  const { run, log } = input;
  // Inside tmux (any display), tmux can say how long its lines are: see PickerSessionDeps.readWidths.
  const pane = input.env.TMUX_PANE;
  let open = false;
  return run.interceptKey(input.key.sequences, () => {
    if (open) return;
    open = true;
    try {
      input.onOpen?.();
    } catch (error) {
      log('picker', 'open hook failed', { error: (error as Error).message });
    }
    // Keys typed before the picker is loaded are its own, not the agent's.
    const typed: string[] = [];
    const early = run.captureInput((data) => typed.push(data));
    void Promise.all([import('../picker/picker-session.js'), import('../picker/open-memory.js')])
      .then(([{ openPicker }, { openPickerMemory }]) => {
        early.dispose();
        return openPicker({
          run,
          screen: input.screen,
          openMemory: () => openPickerMemory({ env: input.env, options: input.options, cwd: input.cwd }),
          readWidths: pane ? (top, count) => import('../../display/tmux.js').then((t) => t.readRowWidths({ pane, env: input.env }, top, top + count - 1)) : undefined,
          initialInput: typed,
          now: () => Date.now(),
          log,
        }).closed;
      })
      .catch((error: unknown) => {
        early.dispose();
        log('picker', 'failed', { error: (error as Error).message });
      })
      .finally(() => {
        open = false;
      });
  });
}
