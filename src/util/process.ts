/** Process helpers shared by the layers. */
import { readFileSync } from 'node:fs';

/** Whether a pid is alive (signal 0; EPERM means it exists but is someone else's). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** /proc/<pid>/stat counts in USER_HZ, which Linux fixes at 100 for user space on every architecture. */
const USER_HZ = 100;
/** Slack when comparing a process start time with a file time: boot time is whole seconds in /proc/stat. */
const START_TIME_SLACK_MS = 2000;
let bootTimeMs: number | undefined;

// Linux only: when the system booted (ms since the epoch), or undefined without /proc.
function readBootTimeMs(): number | undefined {
  if (bootTimeMs !== undefined) return bootTimeMs;
  try {
    const m = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    if (m) bootTimeMs = Number(m[1]) * 1000;
  } catch {
    // No /proc (macOS): callers fall back to other evidence.
  }
  return bootTimeMs;
}

/**
 * When a process started (ms since the epoch), from /proc on Linux; undefined elsewhere or when the
 * pid is gone. Used to tell a reused pid from the process that wrote a file.
 */
export function getProcessStartMs(pid: number): number | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const boot = readBootTimeMs();
  if (boot === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, starttime 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? boot + (ticks * 1000) / USER_HZ : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `pid` is still the process that wrote a file at `writtenAtMs`: alive, and (where the start
 * time is known) started before that write. A pid reused by a newer process is not.
 */
export function isSameProcessAs(pid: number, writtenAtMs: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !isProcessAlive(pid)) return false;
  const started = getProcessStartMs(pid);
  return started === undefined || !Number.isFinite(writtenAtMs) || started <= writtenAtMs + START_TIME_SLACK_MS;
}
