/**
 * The `command:<cmd>` notification channel: runs the user's command through /bin/sh with what happened
 * in its environment, and never waits on it. Its stdin is /dev/null and its output goes to the debug log
 * (cut short), never to the terminal the agent draws on. A command still running after 10 s is killed
 * with its process group; failures are logged. Nothing here can block or fail the agent.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** A notification command is killed after this long. */
export const NOTIFY_COMMAND_TIMEOUT_MS = 10_000;
/** After SIGTERM, SIGKILL follows this long later if the command is still there. */
const KILL_GRACE_MS = 1000;
/** At most this many commands at once; more are skipped (and logged). */
export const MAX_RUNNING_COMMANDS = 4;
/** Output kept for the log, per stream. */
const OUTPUT_LOG_MAX_CHARS = 300;

export const NOTIFY_ENV = {
  event: 'RECAPWRAP_EVENT',
  agent: 'RECAPWRAP_AGENT',
  cwd: 'RECAPWRAP_CWD',
  state: 'RECAPWRAP_STATE',
  recap: 'RECAPWRAP_RECAP',
  pane: 'RECAPWRAP_PANE',
} as const;

export interface NotifyCommandValues {
  event: string;
  agent: string;
  cwd: string;
  state: string;
  recap: string;
  pane: string;
}

export type NotifyCommandOutcome =
  | { type: 'exited'; code: number | null; signal: NodeJS.Signals | null; ms: number; stderr: string }
  | { type: 'killed'; ms: number }
  | { type: 'failed'; message: string }
  | { type: 'skipped'; reason: 'too-many' };

export interface NotifyCommandOptions {
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  timeoutMs?: number;
  /** Told once how the command ended (for the debug log and tests). */
  onDone?(outcome: NotifyCommandOutcome): void;
}

const running = new Set<ChildProcess>();

// Kill the command's whole process group (it runs detached: `sh -c 'sleep 100'` has a child of its own).
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Start the command; returns at once (the outcome arrives through onDone). */
export function runNotifyCommand(command: string, values: NotifyCommandValues, options: NotifyCommandOptions = {}): void {
  const done = options.onDone ?? (() => {});
  if (running.size >= MAX_RUNNING_COMMANDS) {
    done({ type: 'skipped', reason: 'too-many' });
    return;
  }
  const env: Record<string, string | undefined> = { ...(options.env ?? process.env) };
  for (const [key, name] of Object.entries(NOTIFY_ENV)) env[name] = values[key as keyof NotifyCommandValues];
  const startedAt = Date.now();
  let child: ChildProcess;
  try {
    child = spawn('/bin/sh', ['-c', command], { cwd: options.cwd, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  } catch (error) {
    done({ type: 'failed', message: (error as Error).message });
    return;
  }
  running.add(child);
  let stderr = '';
  let finished = false;
  let killed = false;
  child.stdout?.on('data', () => {}); // drained, so a chatty command never blocks on a full pipe
  child.stderr?.on('data', (d: Buffer) => {
    if (stderr.length < OUTPUT_LOG_MAX_CHARS) stderr = (stderr + d.toString('utf8')).slice(0, OUTPUT_LOG_MAX_CHARS);
  });
  const timer = setTimeout(() => {
    killed = true;
    killGroup(child, 'SIGTERM');
    setTimeout(() => killGroup(child, 'SIGKILL'), KILL_GRACE_MS).unref();
  }, options.timeoutMs ?? NOTIFY_COMMAND_TIMEOUT_MS);
  timer.unref();
  const finish = (outcome: NotifyCommandOutcome) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    running.delete(child);
    done(outcome);
  };
  child.on('error', (error) => finish({ type: 'failed', message: error.message }));
  child.on('close', (code, signal) => finish(killed ? { type: 'killed', ms: Date.now() - startedAt } : { type: 'exited', code, signal, ms: Date.now() - startedAt, stderr: stderr.trim() }));
  // The wrapper's exit never waits for a notification command.
  child.unref();
  (child.stdout as unknown as { unref?: () => void } | null)?.unref?.();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
}
