/**
 * A draft typed into the agent's input once it is ready (`resume --next`, a resumed session whose
 * transcript is gone): after its first screen is drawn and its output has been quiet for a moment (as
 * resume recaps wait for the first screen), one bracketed paste (one line without ?2004), never Enter.
 * If you start typing first, the draft is dropped: it never mixes into what you type.
 */
import type { Disposable } from '../../types.js';
import type { DebugLog } from '../../util/debug-log.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { pasteBytes } from '../picker/reference-block.js';
import { FIRST_SCREEN_SETTLE_MS } from './live-recap.js';

/** The agent counts as ready once its output has been quiet this long after its first screen. */
export const DRAFT_QUIET_MS = 500;
/** Give up on an agent that never goes quiet (a spinner from the start) after this long: type anyway. */
export const DRAFT_MAX_WAIT_MS = 15_000;
const POLL_MS = 50;

export interface DraftRun {
  readonly lastOutputAt: number;
  readonly childWantsBracketedPaste: boolean;
  onInput(listener: (data: string) => void): Disposable;
  onExit(listener: (exit: unknown) => void): Disposable;
  writeToChild(data: string): void;
}

/** Type `text` into the agent once it is ready; resolves with whether it was typed. */
export function typeDraftWhenReady(run: DraftRun, text: string, log: DebugLog, now: () => number = Date.now): Promise<boolean> {
  const startedAt = now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (typed: boolean, why: string) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      input.dispose();
      exit.dispose();
      log('draft', typed ? 'typed' : 'dropped', { why, chars: text.length });
      resolve(typed);
    };
    // Only text counts as typing: the terminal's answers to the agent's queries (CPR, DA, kitty flags)
    // arrive on the same input and are escape sequences only.
    const input = run.onInput((data) => {
      if (sanitizeLine(data) !== '') finish(false, 'you typed first');
    });
    const exit = run.onExit(() => finish(false, 'the agent exited'));
    const timer = setInterval(() => {
      const t = now();
      const first = run.lastOutputAt;
      const ready = first > 0 && t - startedAt >= FIRST_SCREEN_SETTLE_MS && t - first >= DRAFT_QUIET_MS;
      if (!ready && t - startedAt < DRAFT_MAX_WAIT_MS) return;
      run.writeToChild(pasteBytes(text, run.childWantsBracketedPaste));
      finish(true, ready ? 'ready' : 'waited long enough');
    }, POLL_MS);
  });
}
