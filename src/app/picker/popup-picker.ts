/**
 * `recapwrap pick-popup` (hidden): the reference picker in a tmux popup, started by a wrapper's pick key
 * (app/wrap/picker-popup.ts). The same picker session as over the pane (picker-session.ts), on the
 * popup's own terminal: it takes the keys typed before the popup opened from the wrapper (`pick`), and
 * on Enter hands the chosen block to the wrapper (`paste`), which pastes it into the agent. Esc, a
 * resize or the wrapper's exit close it with nothing pasted; tmux then restores the pane.
 */
import { existsSync } from 'node:fs';
import { requestControl } from '../../display/control-socket.js';
import type { Disposable, Env } from '../../types.js';
import type { Options } from '../../config/options-table.js';
import type { DebugLog } from '../../util/debug-log.js';
import { isProcessAlive } from '../../util/process.js';
import { openPickerMemory } from './open-memory.js';
import { openPicker, type PickerOutcome, type PickerRun, type PickerScreen } from './picker-session.js';

/** How often the popup checks that its wrapper still runs (it closes when the agent has exited). */
const WRAPPER_CHECK_MS = 500;
/** How long a request to the wrapper may take. */
const REQUEST_TIMEOUT_MS = 3000;
const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

export interface PopupPickerInput {
  socket: string;
  token: string;
  wrapperPid: number;
  env: Env;
  options: Options;
  cwd: string;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  log: DebugLog;
}

/** The popup's terminal as the picker session's run and screen: keys from stdin, rows at the bottom of stdout. */
function popupTerminal(input: PopupPickerInput): { run: PickerRun; screen: PickerScreen; dispose(): void } {
  const { stdin, stdout } = input;
  const timers: NodeJS.Timeout[] = [];
  const run: PickerRun = {
    get cols() {
      return stdout.columns || 80;
    },
    get rows() {
      return stdout.rows || 12;
    },
    childWantsBracketedPaste: true, // not used: the wrapper decides at paste time
    captureInput(handler) {
      const listener = (data: string) => handler(data);
      stdin.on('data', listener);
      return { dispose: () => stdin.off('data', listener) };
    },
    holdOutput: () => ({ release: () => {} }), // the agent's output goes on under the popup
    writeToChild: () => {},
    onResize(listener) {
      const fire = () => listener({ cols: run.cols, rows: run.rows });
      stdout.on('resize', fire);
      return { dispose: () => stdout.off('resize', fire) };
    },
    onExit(listener): Disposable {
      // The wrapper removes its socket as it stops (the agent has exited), before the process ends.
      const timer = setInterval(() => {
        if (!existsSync(input.socket) || !isProcessAlive(input.wrapperPid)) listener({});
      }, WRAPPER_CHECK_MS);
      timers.push(timer);
      return { dispose: () => clearInterval(timer) };
    },
  };
  const screen: PickerScreen = {
    async cover(rows, beforeDraw) {
      beforeDraw?.();
      const top = Math.max(1, run.rows - rows.length + 1);
      stdout.write(HIDE_CURSOR + rows.map((row, i) => `\x1b[${top + i};1H${row}`).join(''));
      return { drawn: true };
    },
    uncover: () => {},
  };
  return {
    run,
    screen,
    dispose: () => {
      for (const t of timers) clearInterval(t);
    },
  };
}

/** Runs the picker in the popup; resolves to the exit code (0 pasted or cancelled, 1 when the wrapper could not be reached). */
export async function runPopupPicker(input: PopupPickerInput): Promise<number> {
  const { stdin, stdout, log } = input;
  const ask = (cmd: 'pick' | 'paste', fields: Record<string, unknown>) => requestControl(input.socket, cmd, REQUEST_TIMEOUT_MS, { token: input.token, ...fields });
  let typed = '';
  try {
    const reply = await ask('pick', {});
    if (reply.ok !== true) throw new Error(String(reply.error ?? 'refused'));
    typed = typeof reply.typed === 'string' ? reply.typed : '';
  } catch (error) {
    log('picker', 'popup: the wrapper did not answer', { error: (error as Error).message });
    return 1;
  }
  if (stdin.isTTY) stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  const terminal = popupTerminal(input);
  let pasted: Promise<boolean> | undefined;
  let outcome: PickerOutcome;
  try {
    outcome = await openPicker({
      run: terminal.run,
      screen: terminal.screen,
      openMemory: () => openPickerMemory({ env: input.env, options: input.options, cwd: input.cwd }),
      paste: (block) => {
        pasted = ask('paste', { text: block }).then(
          (reply) => {
            if (reply.ok !== true) log('picker', 'popup: paste refused', { error: String(reply.error ?? '') });
            return reply.ok === true;
          },
          (error: unknown) => {
            log('picker', 'popup: paste failed', { error: (error as Error).message });
            return false;
          },
        );
      },
      initialInput: typed ? [typed] : [],
      now: () => Date.now(),
      log,
    }).closed;
  } finally {
    terminal.dispose();
    stdin.pause();
    if (stdin.isTTY) stdin.setRawMode(false);
    stdout.write(SHOW_CURSOR);
  }
  const ok = pasted ? await pasted : true;
  log('picker', 'popup closed', { outcome, pasted: pasted ? ok : null });
  return ok ? 0 : 1;
}
