/**
 * Processes a test started, found by their environment (Linux /proc): detached ones (a wrapper's model
 * summary, `recapwrap index --summarize`) outlive the wrapper that started them, so a test that removes
 * its folder waits for them first, or they write into it after it is gone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { pollUntil } from './poll.js';

/**
 * An environment entry: exactly `NAME=value`, any that starts with `prefix` (`HOME=/tmp/x/`), or any
 * whose value is the folder `under` or inside it (HOME, RECAPWRAP_STATE_DIR, TMPDIR… in a test's folder).
 */
export type EnvEntry = string | { prefix: string } | { under: string };

function entryMatches(entry: EnvEntry): (e: string) => boolean {
  if (typeof entry === 'string') return (e) => e === entry;
  if ('prefix' in entry) return (e) => e.startsWith(entry.prefix);
  return (e) => {
    const value = e.slice(e.indexOf('=') + 1);
    return value === entry.under || value.startsWith(`${entry.under}/`);
  };
}

/** pids of the processes whose environment holds `entry` (`NAME=value`), optionally only those named `comm`. */
export function pidsWithEnv(entry: EnvEntry, options: { comm?: string } = {}): number[] {
  const matches = entryMatches(entry);
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (options.comm !== undefined && readFileSync(`/proc/${name}/comm`, 'utf8').trim() !== options.comm) continue;
      if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').some(matches)) pids.push(Number(name));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

const describeEntry = (entry: EnvEntry) => (typeof entry === 'string' ? entry : 'prefix' in entry ? `${entry.prefix}…` : `a value in ${entry.under}`);

/** Sends `signal` to each pid; returns the command lines of those it reached. */
function signalAll(pids: number[], signal: NodeJS.Signals): string[] {
  const reached: string[] = [];
  for (const pid of pids) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim();
      process.kill(pid, signal);
      reached.push(args);
    } catch {
      // Gone meanwhile.
    }
  }
  return reached;
}

/**
 * Wait (up to timeoutMs) for every process whose environment holds `entry` to end by itself, then
 * SIGTERM those still running (the demo agent and the wrapper clean up on it: a SIGKILL leaves the demo's
 * /tmp/recapwrap-demo-* folder behind), SIGKILL any still there 2 s later, and wait for them to go.
 * Returns the command lines of those it had to signal.
 */
export async function endProcessesWithEnv(entry: EnvEntry, timeoutMs = 10_000): Promise<string[]> {
  if (process.platform !== 'linux') return [];
  const gone = () => pidsWithEnv(entry).length === 0;
  const ended = await pollUntil(gone, { timeoutMs, description: `processes with ${describeEntry(entry)} to end` }).catch(() => false);
  if (ended) return [];
  const signalled = signalAll(pidsWithEnv(entry), 'SIGTERM');
  const terminated = await pollUntil(gone, { timeoutMs: 2000, description: `processes with ${describeEntry(entry)} to end on SIGTERM` }).catch(() => false);
  if (!terminated) signalAll(pidsWithEnv(entry), 'SIGKILL');
  await pollUntil(gone, { timeoutMs: 5000, description: `killed processes with ${describeEntry(entry)} to be gone` });
  return signalled;
}
