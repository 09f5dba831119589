/**
 * The wrap flow's core (step 2 of run-wrap.ts): one run of the command under a pty with the user's
 * terminal passed through. Splits focus reports out of the input, follows the child's modes, reads an
 * output signal when the caller names one, and offers focus/input/output/resize/exit as events plus
 * two hooks for the overlay. Knows no agent, transcript or recap: those attach from outside.
 */
import { StringDecoder } from 'node:string_decoder';
import { createFocusReportFilter, FOCUS_IN_REPORT, FOCUS_OUT_REPORT, PENDING_FOCUS_FLUSH_IN_TMUX_MS, PENDING_FOCUS_FLUSH_MS, type InputPiece } from '../../focus/focus-reports.js';
import { ModeTracker } from '../../pty/mode-tracker.js';
import { startPassthrough, terminalSize, type Passthrough } from '../../pty/passthrough.js';
import { spawnPty, type PtyProcess } from '../../pty/pty-process.js';
import type { AnnouncedState, Disposable, Env, OutputSignal } from '../../types.js';
import { debugLog } from '../../util/debug-log.js';
import { isProcessAlive } from '../../util/process.js';

/** Ask the terminal for focus reports (xterm mode ?1004). */
export const ENABLE_FOCUS_REPORTING = '\x1b[?1004h';
/** Stop focus reports. */
export const DISABLE_FOCUS_REPORTING = '\x1b[?1004l';
/** Set by tmux in its panes (the full check lives in display/tmux-focus.ts, loaded only inside tmux). */
export const TMUX_ENV = 'TMUX';
/** Set in the child's environment so tools (and nested recapwraps) know they are wrapped. */
export const RECAPWRAP_ENV = 'RECAPWRAP';
export const RECAPWRAP_PID_ENV = 'RECAPWRAP_PID';
/** An output signal's parser sees at most this many characters after its marker. */
const OUTPUT_SIGNAL_PEEK_CHARS = 16;
/** Activity (input/output) is logged once per burst: after this much silence. */
const ACTIVITY_LOG_GAP_MS = 1000;
/** Held output past this many bytes pauses the child (it waits, as on a slow terminal) until released. */
const HOLD_PAUSE_BYTES = 4 * 1024 * 1024;
/**
 * A child still running this long after SIGHUP (it ignores it; the terminal is gone) gets SIGTERM, and
 * as long again later SIGKILL: no wrapper (and no agent) is left behind a closed window.
 */
export const HANGUP_ESCALATION_MS = 3000;

export interface WrapExit {
  exitCode: number;
  signal?: number;
  /** What recapwrap exits with: exitCode, or 128+signal. */
  code: number;
}

export interface OutputGate {
  /** Called before each child output chunk is written; returns bytes to write just before it. */
  before(): string;
  /** Called with the chunk's raw bytes after it was written (not decoded: the gate may never need text). */
  after(chunk: Buffer): void;
}

/** One run of the wrapped command on this terminal: what the rest of the wrap flow sees of it. */
export interface WrapRun {
  /** The child's pid. */
  readonly pid: number;
  readonly cols: number;
  readonly rows: number;
  /** Whether the child itself asked for focus reports (?1004 on). */
  readonly childWantsFocus: boolean;
  /** When the child last printed anything (epoch ms; 0 before its first output). */
  readonly lastOutputAt: number;
  /** The busy state the child last announced through the output signal (WrapRunOptions), if any. */
  readonly announcedState: AnnouncedState | undefined;
  onFocus(listener: (focused: boolean) => void): Disposable;
  /** User input, fired before the bytes are forwarded to the child (focus reports excluded). */
  onInput(listener: (data: string) => void): Disposable;
  /** Child output, fired after the chunk was written to the terminal. */
  onOutput(listener: (chunk: string) => void): Disposable;
  /** Child output as raw bytes, fired right after the chunk was written (no decoding cost; attention bell). */
  onOutputBytes(listener: (chunk: Buffer) => void): Disposable;
  onResize(listener: (size: { cols: number; rows: number }) => void): Disposable;
  /** Fires once when the child is gone and its output drained, before the terminal is restored. */
  onExit(listener: (exit: WrapExit) => void): Disposable;
  /** Whether the child turned bracketed paste on (?2004h). */
  readonly childWantsBracketedPaste: boolean;
  /** Write our own bytes to the terminal, serialized with the child's output. */
  writeToTerminal(data: string): void;
  /** Write to the child's input, as if typed (the picker's paste). */
  writeToChild(data: string): void;
  /**
   * Take a key out of the user's input: those bytes never reach the child (nor onInput); onKey runs
   * where the key was, so input after it goes wherever onKey sent it (captureInput).
   */
  interceptKey(sequences: readonly string[], onKey: () => void): Disposable;
  /** While set, the user's input (focus reports aside) goes to the handler (decoded), not to the child. */
  captureInput(handler: (data: string) => void): Disposable;
  /**
   * Hold the child's output: chunks are kept, in order, and go out (to the gate, the terminal and the
   * listeners) on release; past HOLD_PAUSE_BYTES the child is paused. An exit releases every hold.
   */
  holdOutput(): { release(): void };
  setOutputGate(gate: OutputGate | undefined): void;
  /** Resolves with the exit once the terminal has been restored. */
  readonly exited: Promise<WrapExit>;
}

export interface WrapRunOptions {
  command: string;
  args: readonly string[];
  /** Write ?1004h for ourselves (false for --no-focus). */
  focus: boolean;
  cwd?: string;
  env?: Env;
  /** A busy signal the child writes into its output (from its transcript adapter); read into announcedState. */
  outputSignal?: OutputSignal;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}

// A minimal listener set whose listeners cannot break the run (errors are logged, not thrown).
function createEvent<T>(name: string): { add(listener: (value: T) => void): Disposable; fire(value: T): void; readonly size: number } {
  const listeners = new Set<(value: T) => void>();
  return {
    add(listener) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    fire(value) {
      for (const listener of listeners) {
        try {
          listener(value);
        } catch (error) {
          debugLog('wrap', 'listener failed', { event: name, error: error instanceof Error ? error.message : String(error) });
        }
      }
    },
    get size() {
      return listeners.size;
    },
  };
}

// The child's environment: ours plus RECAPWRAP=1 and RECAPWRAP_PID; TERM and TERM_PROGRAM untouched.
export function buildChildEnv(env: Env): Record<string, string | undefined> {
  return { ...env, [RECAPWRAP_ENV]: '1', [RECAPWRAP_PID_ENV]: String(process.pid) };
}

/**
 * What the last output signal in a chunk says: a state, null when the child withdrew it, undefined when
 * the chunk holds no signal its parser can read (the state stays as it was).
 */
export function readOutputSignal(chunk: Buffer, marker: Buffer, parse: OutputSignal['parse']): AnnouncedState | null | undefined {
  const at = chunk.lastIndexOf(marker);
  if (at === -1) return undefined;
  const start = at + marker.length;
  return parse(chunk.toString('latin1', start, start + OUTPUT_SIGNAL_PEEK_CHARS));
}

// Start the child under a pty on this terminal. Throws only if the pty cannot be spawned.
export function startWrapRun(options: WrapRunOptions): WrapRun {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const env = buildChildEnv(options.env ?? process.env);
  const focusEvent = createEvent<boolean>('focus');
  const inputEvent = createEvent<string>('input');
  const outputEvent = createEvent<string>('output');
  const outputBytesEvent = createEvent<Buffer>('output-bytes');
  const resizeEvent = createEvent<{ cols: number; rows: number }>('resize');
  const exitEvent = createEvent<WrapExit>('exit');
  const modes = new ModeTracker();
  const filter = createFocusReportFilter();
  const inputDecoder = new StringDecoder('utf8');
  const outputDecoder = new StringDecoder('utf8');
  let gate: OutputGate | undefined;
  const intercepts = new Set<{ sequences: readonly string[]; onKey: () => void }>();
  let capture: ((data: string) => void) | undefined;
  const captureDecoder = new StringDecoder('utf8');
  let holds = 0;
  let held: Buffer[] = [];
  let heldBytes = 0;
  let pausedForHold = false;
  let backpressured = false;
  let flushTimer: NodeJS.Timeout | undefined;
  let lastInputAt = 0;
  let lastOutputAt = 0;
  let announcedState: AnnouncedState | undefined;
  const { outputSignal } = options;
  const watchedSignal = outputSignal && { bytes: Buffer.from(outputSignal.marker, 'latin1'), parse: outputSignal.parse };
  let child: PtyProcess | undefined;
  let childExited = false;
  let hungUp = false; // SIGHUP forwarded (received, or the terminal went away): only once
  let escalation: NodeJS.Timeout | undefined;
  // How long a trailing ESC waits for the rest of a focus report (see focus-reports.ts for the values).
  const pendingFlushMs = env[TMUX_ENV] ? PENDING_FOCUS_FLUSH_IN_TMUX_MS : PENDING_FOCUS_FLUSH_MS;
  let resolveExited: (exit: WrapExit) => void = () => {};
  const exited = new Promise<WrapExit>((resolve) => (resolveExited = resolve));

  // The terminal first (raw mode; stty -opost follows at the first output line or a little after the
  // spawn, see passthrough.ts), the child in the same tick. Output cannot come before the passthrough is
  // ready; a failed spawn gives the terminal back at once.
  const passthrough: Passthrough = startPassthrough({
    stdin,
    stdout,
    onInput: handleInput,
    onResize(cols, rows) {
      debugLog('wrap', 'resize', { cols, rows });
      child?.resize(cols, rows);
      resizeEvent.fire({ cols, rows });
    },
    onSignal(signal) {
      debugLog('wrap', 'signal', { signal });
      if (signal === 'SIGHUP') return hangUpChild();
      if (!childExited) child?.kill(signal);
    },
    onHangup(cause) {
      // The window was closed or the connection dropped: end as on SIGHUP (the child gets it, we exit
      // as it does, 128+1 when it dies of it), writing nothing more to the terminal.
      debugLog('wrap', 'terminal gone', { cause });
      hangUpChild();
    },
    onBackpressure(blocked) {
      backpressured = blocked;
      if (blocked) child?.pause();
      else if (!pausedForHold) child?.resume();
    },
    restoreSequence() {
      const reset = modes.buildResetSequence({ includeFocus: false });
      return reset + (options.focus || modes.isOn(1004) ? DISABLE_FOCUS_REPORTING : '');
    },
    onFatal(error) {
      debugLog('wrap', 'fatal', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      child?.kill('SIGHUP');
      process.stderr.write(`recapwrap: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  });
  try {
    child = spawnPty(options.command, options.args, {
      ...terminalSize(stdout),
      cwd: options.cwd ?? process.cwd(),
      env,
    });
  } catch (error) {
    passthrough.restore();
    throw new Error(`Expected to start '${options.command}' on a pty, got: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const spawned = child;
  passthrough.childStarted(() => !childExited && isProcessAlive(spawned.pid));

  function hangUpChild(): void {
    if (hungUp || childExited) return;
    hungUp = true;
    child?.kill('SIGHUP');
    escalate(['SIGTERM', 'SIGKILL']);
  }

  // The next signal of the hang-up, if the child is still there after HANGUP_ESCALATION_MS.
  function escalate(next: NodeJS.Signals[]): void {
    const [signal, ...rest] = next;
    if (!signal) return;
    escalation = setTimeout(() => {
      if (childExited) return;
      debugLog('wrap', 'child ignored the hang-up', { signal });
      child?.kill(signal);
      escalate(rest);
    }, HANGUP_ESCALATION_MS);
  }

  if (options.focus) passthrough.write(ENABLE_FOCUS_REPORTING);
  const pty = child;
  debugLog('wrap', 'start', { childPid: pty.pid, cols: pty.cols, rows: pty.rows, focus: options.focus });

  // Child output: forwarded first; modes, gate and listeners look at it afterwards. Held output waits.
  pty.onData((buf) => {
    if (holds > 0) {
      held.push(buf);
      heldBytes += buf.length;
      if (heldBytes > HOLD_PAUSE_BYTES && !pausedForHold) {
        pausedForHold = true;
        pty.pause();
      }
      return;
    }
    forwardOutput(buf);
  });

  function forwardOutput(buf: Buffer): void {
    const observed = outputEvent.size > 0;
    const text = observed ? outputDecoder.write(buf) : '';
    if (gate) {
      try {
        const prefix = gate.before();
        if (prefix) passthrough.write(prefix);
      } catch (error) {
        debugLog('wrap', 'output gate failed', { error: error instanceof Error ? error.message : String(error) });
      }
    }
    passthrough.write(buf);
    if (modes.hasPending || buf.indexOf(0x1b) !== -1) trackModes(buf);
    if (gate) {
      try {
        gate.after(buf);
      } catch (error) {
        debugLog('wrap', 'output gate failed', { error: error instanceof Error ? error.message : String(error) });
      }
    }
    const now = Date.now();
    if (now - lastOutputAt >= ACTIVITY_LOG_GAP_MS) debugLog('wrap', 'output', { bytes: buf.length });
    lastOutputAt = now;
    if (observed) outputEvent.fire(text);
    if (outputBytesEvent.size > 0) outputBytesEvent.fire(buf);
  }

  // The last hold is gone (or the child exited): what was held goes out in order, the child reads on.
  function releaseHeld(): void {
    const chunks = held;
    held = [];
    heldBytes = 0;
    for (const chunk of chunks) forwardOutput(chunk);
    if (pausedForHold) {
      pausedForHold = false;
      if (!backpressured) pty.resume();
    }
  }

  // Follow the child's modes; if it turns focus reporting off (or resets the terminal), keep ours on.
  function trackModes(buf: Buffer): void {
    if (watchedSignal) followOutputSignal(buf, watchedSignal.bytes, watchedSignal.parse);
    const changes = modes.feed(buf.toString('latin1'));
    for (const change of changes) {
      const focusOff = (change.type === 'private' && change.mode === 1004 && !change.on) || change.type === 'reset';
      if (change.type === 'private' && change.mode === 1004) debugLog('wrap', 'child focus mode', { on: change.on });
      if (focusOff && options.focus) passthrough.write(ENABLE_FOCUS_REPORTING);
    }
  }

  function followOutputSignal(buf: Buffer, marker: Buffer, parse: OutputSignal['parse']): void {
    try {
      const state = readOutputSignal(buf, marker, parse);
      if (state !== undefined) announcedState = state ?? undefined;
    } catch (error) {
      debugLog('wrap', 'output signal parse failed', { error: error instanceof Error ? error.message : String(error) });
    }
  }

  // User input: focus reports are ours (forwarded only if the child asked), everything else goes on.
  function handleInput(buf: Buffer): void {
    if (flushTimer) {
      clearTimeout(flushTimer);
      flushTimer = undefined;
    }
    deliverInput(filter.push(buf.toString('latin1')));
    if (!filter.pending) return;
    // Only while focus reports can come (we or the child asked the terminal for them) may a trailing
    // ESC wait for the rest of one; otherwise it is a key and goes on at once.
    if (!options.focus && !modes.isOn(1004)) return deliverInput(filter.flush());
    flushTimer = setTimeout(() => {
      flushTimer = undefined;
      deliverInput(filter.flush());
    }, pendingFlushMs);
  }

  function deliverInput(pieces: InputPiece[]): void {
    for (const piece of pieces) {
      if (piece.type === 'focus') {
        debugLog('wrap', piece.focused ? 'focus in' : 'focus out', { forwarded: modes.isOn(1004) });
        focusEvent.fire(piece.focused);
        if (modes.isOn(1004)) pty.write(piece.focused ? FOCUS_IN_REPORT : FOCUS_OUT_REPORT);
        continue;
      }
      deliverData(piece.data);
    }
  }

  // Typed data (latin1 text of the raw bytes): intercepted keys out, the rest to a capture or the child.
  function deliverData(data: string): void {
    while (data.length > 0) {
      if (capture) {
        const text = captureDecoder.write(Buffer.from(data, 'latin1'));
        try {
          if (text) capture(text);
        } catch (error) {
          debugLog('wrap', 'input capture failed', { error: error instanceof Error ? error.message : String(error) });
        }
        return;
      }
      let hit: { index: number; length: number; onKey: () => void } | undefined;
      for (const entry of intercepts) {
        for (const seq of entry.sequences) {
          const index = data.indexOf(seq);
          if (index >= 0 && (!hit || index < hit.index)) hit = { index, length: seq.length, onKey: entry.onKey };
        }
      }
      if (!hit) return forwardInput(data);
      if (hit.index > 0) forwardInput(data.slice(0, hit.index));
      data = data.slice(hit.index + hit.length);
      try {
        hit.onKey();
      } catch (error) {
        debugLog('wrap', 'key handler failed', { error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  function forwardInput(data: string): void {
    const bytes = Buffer.from(data, 'latin1');
    const now = Date.now();
    if (now - lastInputAt >= ACTIVITY_LOG_GAP_MS) debugLog('wrap', 'input', { bytes: bytes.length });
    lastInputAt = now;
    if (inputEvent.size > 0) inputEvent.fire(inputDecoder.write(bytes));
    pty.write(bytes);
  }

  pty.onExit(({ exitCode, signal }) => {
    childExited = true;
    if (flushTimer) clearTimeout(flushTimer);
    if (escalation) clearTimeout(escalation);
    const exit: WrapExit = signal ? { exitCode, signal, code: 128 + signal } : { exitCode, code: exitCode };
    debugLog('wrap', 'exit', { exitCode, signal, code: exit.code });
    exitEvent.fire(exit);
    // Listeners (the picker) have let go by now; anything still held goes out before the terminal is restored.
    if (holds > 0) {
      holds = 0;
      releaseHeld();
    }
    passthrough.restore();
    void passthrough.drained().then(() => resolveExited(exit));
  });

  return {
    get pid() {
      return pty.pid;
    },
    get cols() {
      return passthrough.cols;
    },
    get rows() {
      return passthrough.rows;
    },
    get childWantsFocus() {
      return modes.isOn(1004);
    },
    get lastOutputAt() {
      return lastOutputAt;
    },
    get announcedState() {
      return announcedState;
    },
    onFocus: (listener) => focusEvent.add(listener),
    onInput: (listener) => inputEvent.add(listener),
    onOutput: (listener) => outputEvent.add(listener),
    onOutputBytes: (listener) => outputBytesEvent.add(listener),
    onResize: (listener) => resizeEvent.add(listener),
    onExit: (listener) => exitEvent.add(listener),
    get childWantsBracketedPaste() {
      return modes.isOn(2004);
    },
    writeToTerminal: (data) => passthrough.write(data),
    writeToChild(data) {
      if (!childExited) pty.write(data);
    },
    interceptKey(sequences, onKey) {
      const entry = { sequences, onKey };
      intercepts.add(entry);
      return { dispose: () => intercepts.delete(entry) };
    },
    captureInput(handler) {
      capture = handler;
      return {
        dispose: () => {
          if (capture === handler) capture = undefined;
        },
      };
    },
    holdOutput() {
      holds++;
      let released = false;
      return {
        release() {
          if (released || holds === 0) return;
          released = true;
          holds--;
          if (holds === 0) releaseHeld();
        },
      };
    },
    setOutputGate(next) {
      gate = next;
    },
    exited,
  };
}
