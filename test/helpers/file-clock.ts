/**
 * File times for adapter tests. The adapters tell "born before our start" from "born since" by a
 * file's creation time (birth, or ctime where the file system keeps none), which the file system
 * takes from a coarse clock (a jiffy or more) and which no call can set. So instead of sleeping until
 * "surely later", a test waits until a newly made file is actually born later.
 */
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pollUntil } from './poll.js';

/** The adapters' START_SLACK_MS: a file born up to this long before the wrapper started still counts as ours. */
export const START_SLACK_MS = 1000;

/** A file's creation time as the adapters read it (session-files.ts). */
export function bornAt(file: string): number {
  const st = statSync(file);
  return st.birthtimeMs || st.ctimeMs;
}

/** Resolve once a file created in `dir` from now on is born strictly after `ms`. */
export async function fileClockPast(dir: string, ms: number): Promise<void> {
  const probe = join(dir, '.clock-probe');
  try {
    await pollUntil(
      () => {
        rmSync(probe, { force: true });
        writeFileSync(probe, '');
        return bornAt(probe) > ms;
      },
      { intervalMs: 1, description: `a file born after ${ms}` },
    );
  } finally {
    rmSync(probe, { force: true });
  }
}
