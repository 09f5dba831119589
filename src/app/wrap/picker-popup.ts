/**
 * The pick key inside tmux: the reference picker opens in a tmux popup over the bottom of the pane
 * (`display-popup`, tmux 3.2 or later), run by a second recapwrap process (`recapwrap pick-popup`,
 * hidden) on the popup's own terminal. tmux draws the popup over the pane, sends the keys typed in it to
 * the popup (never to the agent) and restores the pane exactly when it closes, so the wrapper keeps no
 * copy of the agent's screen for it. Over the wrapper's control socket, with a one-time token, the
 * popup takes the keys typed before it opened (`pick`) and hands back the chosen block (`paste`), which
 * the wrapper writes to the agent as one bracketed paste (or one line), never Enter. Loaded on the key.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { MAX_REQUEST_BYTES } from '../../display/control-socket.js';
import { pickerHeight } from '../../display/picker-view.js';
import type { Disposable, Env } from '../../types.js';
import type { DebugLog } from '../../util/debug-log.js';
import { shellQuote } from '../../util/shell-quote.js';
import { parseTmuxVersion, tmuxAtLeast, type TmuxVersion } from '../../util/tmux-version.js';
import { pasteBytes } from '../picker/reference-block.js';

/**
 * A block longer than this is refused, measured as what it costs on the control socket: the UTF-8 bytes
 * of its JSON string (quotes, `\\` and `"` doubled, CJK 3 bytes), so any block taken here fits a request
 * line with the `paste` request's other fields. A reference block is well under 2,000 characters.
 */
export const MAX_PASTE_BYTES = MAX_REQUEST_BYTES - 256;
/** Lines of a block past this are dropped (a reference block has at most 6). */
const MAX_PASTE_LINES = 12;
/** Keys typed between the pick key and the popup's `pick` are kept up to this many characters. */
const MAX_EARLY_INPUT_CHARS = 1024;
/** Said in tmux (and the debug log) where display-popup is missing. */
export const POPUP_NEEDS_TMUX = 'recapwrap: the picker needs tmux 3.2 or later (display-popup)';
/**
 * The variables the popup's recapwrap needs to find the same config, state folder, index options and
 * agents' folders as the wrapper: tmux starts popups with the session's environment, not the wrapper's.
 * They go on the popup's command line (seen in `ps`), so nothing else goes: the picker uses no model, so
 * no key, token or base URL (which may carry user:pass@).
 */
const FORWARDED_ENV = /^(HOME|PATH|USER|LOGNAME|LANG|LANGUAGE|TZ|NO_COLOR|LC_[A-Z_]+|XDG_(CONFIG|STATE|DATA|CACHE|RUNTIME)_(HOME|DIR)|CLAUDE_CONFIG_DIR|CODEX_HOME|GEMINI_CLI_HOME|QWEN_HOME|QWEN_RUNTIME_DIR|PI_CODING_AGENT_DIR|PI_CODING_AGENT_SESSION_DIR|RECAPWRAP_(STATE_DIR|DEBUG_LOG|MEMORY|MEMORY_FOLDERS))$/;

export type PopupOutcome = 'closed' | 'unsupported' | 'too-small' | 'failed';

export interface PopupPickerInput {
  /** The parts of the wrap run the popup uses (WrapRun has them). */
  run: {
    readonly cols: number;
    readonly rows: number;
    readonly childWantsBracketedPaste: boolean;
    captureInput(handler: (data: string) => void): Disposable;
    writeToChild(data: string): void;
    /** The pane's resizes: one closes the popup (it was sized for the pane), with nothing pasted. */
    onResize(listener: (size: { cols: number; rows: number }) => void): Disposable;
  };
  /** The wrapper's pane ($TMUX_PANE). */
  pane: string;
  /** The wrapper's control socket, where the popup sends `pick` and `paste`. */
  socketPath: string;
  cwd: string;
  env: Env;
  /** How to start recapwrap itself: node and its launcher (process.execPath, process.argv[1]). */
  cli: readonly string[];
  /** Keys already typed after the pick key (before this module loaded). */
  typed?: string;
  /** Say something in tmux (the missing display-popup). */
  notify(text: string): void;
  log: DebugLog;
}

export interface PopupPicker {
  /** Resolves once the popup has closed, or could not open. */
  readonly closed: Promise<PopupOutcome>;
  /** A request of the popup over the control socket; throws (an error reply) on a wrong or used token. */
  handle(cmd: 'pick' | 'paste', request: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /**
   * The wrapper is going: no more pastes, and the waiting tmux client no longer holds it (the popup
   * closes by itself once the wrapper's socket is gone, popup-picker.ts).
   */
  dispose(): void;
}

/** The popup's size and place: the pane's width, the picker's rows (plus a border before tmux 3.3), at the pane's bottom left. */
export function popupArgs(input: { pane: string; cols: number; rows: number; cwd: string; borderless: boolean }): string[] | undefined {
  const frame = input.borderless ? 0 : 2;
  const height = pickerHeight(input.rows - frame);
  if (height === 0 || input.cols - frame < 20) return undefined;
  return ['display-popup', '-t', input.pane, '-E', ...(input.borderless ? ['-B'] : []), '-w', String(input.cols), '-h', String(height + frame), '-x', 'P', '-y', 'P', '-d', input.cwd];
}

/** The variables handed to the popup's recapwrap (see FORWARDED_ENV), as NAME=value words for `env`. */
export function popupEnv(env: Env): string[] {
  return Object.entries(env)
    .filter(([name, value]) => value !== undefined && FORWARDED_ENV.test(name))
    .map(([name, value]) => `${name}=${value}`);
}

let tmuxVersion: Promise<TmuxVersion | undefined | null> | undefined;
// `tmux -V` once per wrapper (a client-side answer, no server call); null when tmux does not run.
function readTmuxVersion(env: Env): Promise<TmuxVersion | undefined | null> {
  tmuxVersion ??= new Promise((resolve) => {
    execFile('tmux', ['-V'], { env: env as NodeJS.ProcessEnv, timeout: 2000 }, (error, stdout) => resolve(error ? null : parseTmuxVersion(String(stdout))));
  });
  return tmuxVersion;
}

/** What a block costs in a control-socket request: the UTF-8 bytes of its JSON string. */
export function pasteRequestBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text));
}

/** The same text with only what a paste may hold, cut to MAX_PASTE_LINES lines (pasteBytes sanitizes each). */
export function checkedBlock(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') throw new Error('expected `text` to be a non-empty string');
  if (pasteRequestBytes(text) > MAX_PASTE_BYTES) throw new Error(`expected \`text\` of at most ${MAX_PASTE_BYTES} bytes as JSON`);
  return text.split(/\r\n|\r|\n/).slice(0, MAX_PASTE_LINES).join('\n');
}

export function openPickerPopup(input: PopupPickerInput): PopupPicker {
  const { run, log } = input;
  let token: Buffer | undefined = randomBytes(16);
  const tokenText = token.toString('hex');
  // Keys typed before the popup took the keyboard are the picker's: kept for it, never the agent's.
  let typed = (input.typed ?? '').slice(0, MAX_EARLY_INPUT_CHARS);
  let popupClient: ChildProcess | undefined;
  let disposed = false;
  let early: Disposable | undefined = run.captureInput((data) => {
    if (typed.length < MAX_EARLY_INPUT_CHARS) typed += data.slice(0, MAX_EARLY_INPUT_CHARS - typed.length);
  });
  const endEarly = () => {
    early?.dispose();
    early = undefined;
  };
  // A resize of the pane closes the popup, sized for the old pane (popup-picker.ts closes on the popup's
  // own resize; tmux does not resize a popup with its pane), and no paste is taken after it.
  let resized = false;
  const resize = run.onResize(() => {
    if (resized || !token) return;
    resized = true;
    token = undefined;
    log('picker', 'pane resized: popup closed');
    if (popupClient) execFile('tmux', ['display-popup', '-C', '-t', input.pane], { env: input.env as NodeJS.ProcessEnv, timeout: 2000 }, () => undefined);
  });
  const closed = (async (): Promise<PopupOutcome> => {
    const version = await readTmuxVersion(input.env);
    if (version === null) return 'failed';
    if (version && !tmuxAtLeast(version, 3, 2)) {
      log('picker', 'popup unavailable', { reason: POPUP_NEEDS_TMUX, tmux: `${version.major}.${version.minor}` });
      input.notify(POPUP_NEEDS_TMUX);
      return 'unsupported';
    }
    // tmux 3.3 added -B (no border) and runs a command given as several words without a shell.
    const modern = !version || tmuxAtLeast(version, 3, 3);
    const args = popupArgs({ pane: input.pane, cols: run.cols, rows: run.rows, cwd: input.cwd, borderless: modern });
    if (!args) {
      log('picker', 'pane too small for the picker', { cols: run.cols, rows: run.rows });
      return 'too-small';
    }
    const command = ['env', ...popupEnv(input.env), ...input.cli, 'pick-popup', '--socket', input.socketPath, '--token', tokenText, '--wrapper', String(process.pid)];
    const all = [...args, ...(modern ? command : [command.map(shellQuote).join(' ')])];
    log('picker', 'popup open', { rows: args[args.indexOf('-h') + 1], cols: run.cols });
    // display-popup returns when the popup closes (no timeout: it is up as long as the user keeps it).
    if (disposed || resized) return 'closed';
    return new Promise<PopupOutcome>((resolve) => {
      popupClient = execFile('tmux', all, { env: input.env as NodeJS.ProcessEnv }, (error, _stdout, stderr) => {
        if (!error) return resolve('closed');
        const said = String(stderr).trim().split('\n')[0] ?? '';
        log('picker', 'popup failed', { error: said || error.message });
        if (/unknown command|unknown flag|usage:/i.test(said)) {
          input.notify(POPUP_NEEDS_TMUX);
          return resolve('unsupported');
        }
        resolve('failed');
      });
    });
  })()
    .catch((error: unknown) => {
      log('picker', 'popup failed', { error: (error as Error).message });
      return 'failed' as const;
    })
    .finally(() => {
      endEarly();
      resize.dispose();
      token = undefined;
    });

  function checkToken(request: Readonly<Record<string, unknown>>): void {
    const given = typeof request.token === 'string' && /^[0-9a-f]{32}$/.test(request.token) ? Buffer.from(request.token, 'hex') : undefined;
    if (!token || !given || !timingSafeEqual(token, given)) throw new Error('no picker popup with this token is open');
  }

  return {
    closed,
    handle(cmd, request) {
      checkToken(request);
      if (cmd === 'pick') {
        endEarly();
        const keys = typed;
        typed = '';
        return { typed: keys };
      }
      const block = checkedBlock(request.text);
      token = undefined; // one paste per popup
      endEarly();
      const bracketed = run.childWantsBracketedPaste;
      run.writeToChild(pasteBytes(block, bracketed));
      log('picker', 'pasted from the popup', { chars: block.length, bracketed });
      return { pasted: true };
    },
    dispose() {
      disposed = true;
      token = undefined;
      endEarly();
      popupClient?.stdout?.destroy();
      popupClient?.stderr?.destroy();
      popupClient?.unref();
    },
  };
}
