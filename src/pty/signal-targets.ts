/**
 * Where a signal for the child goes: its process group, or the pty's foreground group for the signals
 * a keyboard sends. Pure target choice plus one Linux /proc read; sends nothing itself.
 */
import { readFileSync } from 'node:fs';

/** Signals a terminal sends from the keyboard: only to its foreground process group. */
const KEYBOARD_SIGNALS: ReadonlySet<NodeJS.Signals> = new Set(['SIGINT', 'SIGQUIT', 'SIGTSTP']);

// Where a signal for the child goes, as kill() targets (negative: a process group). node-pty starts the
// child as a session leader, so its group is -pid. Keyboard signals go to the pty's foreground group
// (an interactive shell's running job) when known; SIGTERM and SIGHUP to the child's group and, when
// another group is in the foreground, to that one as well (a hang-up reaches both).
export function signalTargets(pid: number, signal: NodeJS.Signals, foregroundGroup: number | undefined): number[] {
  const own = -pid;
  const fg = foregroundGroup !== undefined && foregroundGroup > 0 ? -foregroundGroup : undefined;
  if (KEYBOARD_SIGNALS.has(signal)) return [fg ?? own];
  return fg === undefined || fg === own ? [own] : [own, fg];
}

// The foreground process group of the child's terminal (tpgid in /proc/<pid>/stat). Linux only, as a
// shortcut: elsewhere (or when the child is gone) undefined, and the child's own group is used.
export function readForegroundGroup(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Fields after the command name (which may hold spaces and parentheses): state ppid pgrp session tty_nr tpgid
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const tpgid = Number(fields[5]);
    return Number.isInteger(tpgid) && tpgid > 0 ? tpgid : undefined;
  } catch {
    return undefined;
  }
}
