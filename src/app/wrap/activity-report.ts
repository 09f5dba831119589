/**
 * The wrap flow's activity report (part of the live parts): what the agent is doing, from its
 * transcript plus the run's live signals (how long its output has been quiet, the busy state it
 * announces through its adapter's output signal), told to the state file, tmux and attention.
 */
import { APPROVAL_QUIET_MS, deriveActivity, isMidTurn } from '../../transcripts/activity.js';
import type { Session } from '../../transcripts/types.js';
import type { ActivityState, Disposable } from '../../types.js';
import type { WrapRun } from './wrap-run.js';

export interface ActivityReportInput {
  run: Pick<WrapRun, 'lastOutputAt' | 'announcedState'>;
  /** The tracker's latest session (for the re-check). */
  current(): Session | undefined;
  onActivity(activity: ActivityState, session: Session): void;
}

export interface ActivityReport extends Disposable {
  /** The session changed: derive its activity and tell onActivity. */
  report(session: Session): void;
}

// A tool call without a result turns into "waiting" (an approval prompt) only after the output has been
// quiet for a while, with no transcript change: re-checked on a timer while that is pending.
export function startActivityReport(input: ActivityReportInput): ActivityReport {
  let recheck: NodeJS.Timeout | undefined;
  const report = (session: Session): void => {
    if (recheck) clearTimeout(recheck);
    recheck = undefined;
    const lastOutputAt = input.run.lastOutputAt || undefined;
    const activity = deriveActivity(session, { now: Date.now(), lastOutputAt, announcedState: input.run.announcedState });
    input.onActivity(activity.state, session);
    if (activity.state === 'working' && isMidTurn(session)) {
      recheck = setTimeout(() => {
        const current = input.current();
        if (current) report(current);
      }, APPROVAL_QUIET_MS / 3);
      recheck.unref();
    }
  };
  return {
    report,
    dispose() {
      if (recheck) clearTimeout(recheck);
      recheck = undefined;
    },
  };
}
