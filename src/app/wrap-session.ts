/**
 * Composition root of the wrapper: runs the command under a pty with the user's terminal passed
 * through, splits focus reports out of the input, tracks the child's modes from its output, and
 * exposes focus/input/output/resize/exit as events plus two hooks for the overlay display.
 * Recap, transcripts and display wiring attach to a WrapSession from outside (see runWrap).
 */
import { StringDecoder } from 'node:string_decoder';
import { createFocusReportFilter, FOCUS_IN_REPORT, FOCUS_OUT_REPORT, PENDING_FOCUS_FLUSH_IN_TMUX_MS, PENDING_FOCUS_FLUSH_MS, type InputPiece } from '../focus/focus-reports.js';
import { ModeTracker } from '../pty/mode-tracker.js';
import { isDumbTerminal, startPassthrough, terminalSize, type Passthrough } from '../pty/passthrough.js';
import { resolveCommand, spawnPty, type Disposable, type PtyProcess } from '../pty/pty-process.js';
import { resolveConfig } from '../config/load.js';
import type { OptionName } from '../config/options-table.js';
import type { AgentId } from '../transcripts/types.js';
import { debugLog } from '../util/debug-log.js';
import { chooseDisplay, planRecap } from './launch-plan.js';
import { prepareStateFolders } from './state-folders.js';

export type { Disposable } from '../pty/pty-process.js';

const OSC_7501_STATE = Buffer.from('\x1b]7501;state=', 'latin1');

/** Ask the terminal for focus reports (xterm mode ?1004). */
export const ENABLE_FOCUS_REPORTING = '\x1b[?1004h';
/** Stop focus reports. */
export const DISABLE_FOCUS_REPORTING = '\x1b[?1004l';
/** Set by tmux in its panes (the full check lives in display/tmux-focus.ts, loaded only inside tmux). */
const TMUX_ENV = 'TMUX';
/** Set in the child's environment so tools (and nested recapwraps) know they are wrapped. */
export const RECAPWRAP_ENV = 'RECAPWRAP';
export const RECAPWRAP_PID_ENV = 'RECAPWRAP_PID';
/** If the process is still alive this long after the child is gone, a stray handle is holding it. */
const EXIT_SAFETY_MS = 2000;
/**
 * How long the start waits for tmux's focus-events answer, so a warning lands above the agent's screen.
 * A healthy server answers in ~3 ms, but starting the tmux client costs 40-80 ms on a loaded 2-core box;
 * the question is asked before the launch plan is made, so most of that overlaps. A later answer still
 * goes above the agent's screen while it has printed nothing, else after it exits. A hung server costs
 * the start no more than this (it was 1.5 s).
 */
const TMUX_CHECK_WAIT_MS = 100;
/** On the way out, no tmux call (clearing @recap…) may hold the exit longer than this. */
const EXIT_TMUX_LIMIT_MS = 250;
/** Activity (input/output) is logged once per burst: after this much silence. */
const ACTIVITY_LOG_GAP_MS = 1000;

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

export interface WrapSession {
  /** The child's pid. */
  readonly pid: number;
  readonly cols: number;
  readonly rows: number;
  /** Whether the child itself asked for focus reports (?1004 on). */
  readonly childWantsFocus: boolean;
  /** When the child last printed anything (epoch ms; 0 before its first output). */
  readonly lastOutputAt: number;
  /** The busy state the child announces with OSC 7501 (Codex), if it does. */
  readonly announcedState: 'working' | 'idle' | 'done' | undefined;
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
  /** Write our own bytes to the terminal, serialized with the child's output. */
  writeToTerminal(data: string): void;
  setOutputGate(gate: OutputGate | undefined): void;
  /** Resolves with the exit once the terminal has been restored. */
  readonly exited: Promise<WrapExit>;
}

export interface WrapSessionOptions {
  command: string;
  args: readonly string[];
  /** Write ?1004h for ourselves (false for --no-focus). */
  focus: boolean;
  cwd?: string;
  env?: Readonly<Record<string, string | undefined>>;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}

// A minimal listener set whose listeners cannot break the session (errors are logged, not thrown).
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
export function buildChildEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return { ...env, [RECAPWRAP_ENV]: '1', [RECAPWRAP_PID_ENV]: String(process.pid) };
}

// Start the child under a pty on this terminal. Throws only if the pty cannot be spawned.
export function startWrapSession(options: WrapSessionOptions): WrapSession {
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
  let flushTimer: NodeJS.Timeout | undefined;
  let lastInputAt = 0;
  let lastOutputAt = 0;
  let announcedState: 'working' | 'idle' | 'done' | undefined;
  let child: PtyProcess | undefined;
  let childExited = false;
  let hungUp = false; // SIGHUP forwarded (received, or the terminal went away): only once
  // How long a trailing ESC waits for the rest of a focus report (see focus-reports.ts for the values).
  const pendingFlushMs = env[TMUX_ENV] ? PENDING_FOCUS_FLUSH_IN_TMUX_MS : PENDING_FOCUS_FLUSH_MS;
  let resolveExited: (exit: WrapExit) => void = () => {};
  const exited = new Promise<WrapExit>((resolve) => (resolveExited = resolve));

  // The terminal first (raw mode, then stty -opost in the background), the child in the same tick: stty
  // runs while node-pty loads and forks, and is done before a quick child's output is let out. Output
  // cannot come before the passthrough is ready; a failed spawn gives the terminal back at once.
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
      if (blocked) child?.pause();
      else child?.resume();
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

  function hangUpChild(): void {
    if (hungUp || childExited) return;
    hungUp = true;
    child?.kill('SIGHUP');
  }

  if (options.focus) passthrough.write(ENABLE_FOCUS_REPORTING);
  const pty = child;
  debugLog('wrap', 'start', { childPid: pty.pid, cols: pty.cols, rows: pty.rows, focus: options.focus });

  // Child output: forwarded first; modes, gate and listeners look at it afterwards.
  pty.onData((buf) => {
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
  });

  // Follow the child's modes; if it turns focus reporting off (or resets the terminal), keep ours on.
  // Codex announces busy/idle with OSC 7501 (`ESC ] 7501;state=working|idle|done|clear`).
  function trackModes(buf: Buffer): void {
    const osc = buf.lastIndexOf(OSC_7501_STATE);
    if (osc !== -1) {
      const value = /^(working|idle|done|clear)/.exec(buf.toString('latin1', osc + OSC_7501_STATE.length, osc + OSC_7501_STATE.length + 8))?.[1];
      if (value) announcedState = value === 'clear' ? undefined : (value as 'working' | 'idle' | 'done');
    }
    const changes = modes.feed(buf.toString('latin1'));
    for (const change of changes) {
      const focusOff = (change.type === 'private' && change.mode === 1004 && !change.on) || change.type === 'reset';
      if (change.type === 'private' && change.mode === 1004) debugLog('wrap', 'child focus mode', { on: change.on });
      if (focusOff && options.focus) passthrough.write(ENABLE_FOCUS_REPORTING);
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
      const bytes = Buffer.from(piece.data, 'latin1');
      const now = Date.now();
      if (now - lastInputAt >= ACTIVITY_LOG_GAP_MS) debugLog('wrap', 'input', { bytes: bytes.length });
      lastInputAt = now;
      if (inputEvent.size > 0) inputEvent.fire(inputDecoder.write(bytes));
      pty.write(bytes);
    }
  }

  pty.onExit(({ exitCode, signal }) => {
    childExited = true;
    if (flushTimer) clearTimeout(flushTimer);
    const exit: WrapExit = signal ? { exitCode, signal, code: 128 + signal } : { exitCode, code: exitCode };
    debugLog('wrap', 'exit', { exitCode, signal, code: exit.code });
    exitEvent.fire(exit);
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
    writeToTerminal: (data) => passthrough.write(data),
    setOutputGate(next) {
      gate = next;
    },
    exited,
  };
}

export interface RunWrapOptions {
  command: string;
  args: readonly string[];
  /** Flag values the user gave (by option name); env and config files are resolved here. */
  flags?: Partial<Record<OptionName, unknown>>;
  /** --agent: read this agent's transcripts whatever the command is called. */
  agent?: AgentId;
}

// `recapwrap [options] <command> [args…]`: resolves to the exit code for the process.
export async function runWrap(options: RunWrapOptions): Promise<number> {
  const env = process.env;
  const cwd = process.cwd();
  const config = resolveConfig({ env, cwd, flags: options.flags });
  const flagProblems = config.problems.filter((p) => p.source === 'flag');
  if (flagProblems.length > 0) {
    for (const p of flagProblems) process.stderr.write(`recapwrap: ${p.message}\n`);
    return 2;
  }
  for (const p of config.problems) process.stderr.write(`recapwrap: warning: ${p.message}\n`);
  const opts = config.options;
  const resolved = resolveCommand(options.command, env, cwd);
  if (!resolved.ok) {
    process.stderr.write(`recapwrap: ${resolved.message}\n`);
    return resolved.exitCode;
  }
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    debugLog('wrap', 'direct mode', { stdinTTY: Boolean(process.stdin.isTTY), stdoutTTY: Boolean(process.stdout.isTTY) });
    const { runDirect } = await import('../pty/direct.js'); // lazy: start-up time of the common path
    return runDirect(options.command, options.args, { cwd, env: buildChildEnv(env) });
  }
  // TERM=dumb (or unset), e.g. an editor's shell buffer: no escape sequences of ours at all.
  const dumb = isDumbTerminal(env.TERM);
  if (dumb) debugLog('wrap', 'terminal features off', { term: env.TERM ?? null, reason: 'TERM is dumb or unset: no focus reporting, no overlay bar' });
  const focus = opts.focus && !dumb;
  // Asked now, answered beside the launch plan; never on the agent's path for longer than TMUX_CHECK_WAIT_MS.
  const tmuxNotice = focus && env[TMUX_ENV] ? checkTmuxFocusNotice(env, opts.tmuxFocus) : undefined;
  // The pin flags must be known before the child starts; the rest of the recap machinery loads after.
  const plan = await planRecap({ command: options.command, args: options.args, agent: options.agent, cwd, env });
  const started: { session?: WrapSession } = {}; // set once the child runs (read by a late tmux answer)
  let lateNotice: string | undefined;
  if (tmuxNotice) {
    const early = await settleWithin(tmuxNotice, TMUX_CHECK_WAIT_MS);
    if (early.settled) {
      if (early.value) process.stderr.write(early.value + '\n');
    } else {
      debugLog('wrap', 'tmux focus-events: no answer yet; going on without it', { waitedMs: TMUX_CHECK_WAIT_MS });
      // Still above the agent's screen while it has printed nothing (through the session: raw mode, in
      // order with its output); otherwise once it has exited.
      void tmuxNotice.then((notice) => {
        if (!notice) return;
        const { session } = started;
        if (!session) process.stderr.write(notice + '\n');
        else if (session.lastOutputAt === 0) session.writeToTerminal(notice + '\r\n');
        else lateNotice = notice;
      });
    }
  }
  // Unusable or unsafe state folders: the agent runs without recaps (#19 points 2 and 8).
  const folders = plan.adapter ? prepareStateFolders(env, (m) => process.stderr.write(`recapwrap: ${m}\n`)) : undefined;
  // The overlay mirrors the agent's screen from its very first byte, so it is set up before the spawn.
  const overlaySetup = folders && !dumb && chooseDisplay(opts, env) === 'overlay' ? await (await import('./overlay-setup.js')).prepareOverlay() : undefined;
  const startedAt = Date.now();
  const session = startWrapSession({ command: options.command, args: plan.launch.args, focus, cwd, env });
  started.session = session;
  const overlay = overlaySetup?.attach(session, { position: opts.position, barRows: opts.barRows });
  let recap: { stop(): Promise<void> } | undefined;
  if (folders) {
    // Even with --display none: the transcript is still followed for status, ls and recap --pane.
    try {
      const { attachLiveRecap } = await import('./live-runtime.js');
      recap = attachLiveRecap({ plan, session, options: opts, cwd, env, startedAt, overlay, command: options.command, folders });
    } catch (error) {
      debugLog('wrap', 'recap machinery failed to start', { error: (error as Error).message });
    }
  }
  const exit = await session.exited;
  // A hung tmux server must not hold the exit (and the state files' removal) for long.
  if (env[TMUX_ENV]) (await import('../display/tmux.js')).limitTmuxCalls(EXIT_TMUX_LIMIT_MS);
  await recap?.stop().catch(() => undefined);
  debugLog('wrap', 'recap machinery stopped', { code: exit.code });
  if (lateNotice) process.stderr.write(lateNotice + '\n');
  setTimeout(() => process.exit(exit.code), EXIT_SAFETY_MS).unref();
  return exit.code;
}

// The focus-events check inside tmux, logged; resolves to the line to print, if any. Never rejects.
async function checkTmuxFocusNotice(env: NodeJS.ProcessEnv, enable: boolean): Promise<string | undefined> {
  try {
    const { checkTmuxFocus, formatTmuxFocusWarning } = await import('../display/tmux-focus.js');
    const tmux = await checkTmuxFocus(env, { enable });
    debugLog('wrap', 'tmux focus-events', { ...tmux });
    if (tmux.action === 'warn') return formatTmuxFocusWarning();
    if (tmux.action === 'enable-failed') return 'recapwrap: could not turn on tmux focus-events; switching panes is not seen';
  } catch (error) {
    debugLog('wrap', 'tmux focus-events check failed', { error: error instanceof Error ? error.message : String(error) });
  }
  return undefined;
}

// Wait for a promise at most ms (the timer does not hold the process).
function settleWithin<T>(promise: Promise<T>, ms: number): Promise<{ settled: true; value: T } | { settled: false }> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ settled: false }), ms);
    timer.unref();
    void promise.then((value) => {
      clearTimeout(timer);
      resolve({ settled: true, value });
    });
  });
}
