/**
 * How tests wait: poll a condition until a deadline (`pollUntil`), never a fixed sleep. The one
 * exception is proving that something does NOT happen, which needs time by nature: `holdsFor` checks
 * the condition throughout a bounded window and fails at the first moment it breaks.
 */

export interface PollOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** Time between tries (default 20 ms). */
  intervalMs?: number;
  /** Included in the timeout error, to say what was awaited. */
  description?: string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Resolve with the first truthy value fn returns (sync or async); reject with the last value seen on timeout.
export async function pollUntil<T>(fn: () => T | Promise<T>, options: PollOptions = {}): Promise<NonNullable<T>> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const intervalMs = options.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  let lastError: unknown;
  for (;;) {
    try {
      last = await fn();
      lastError = undefined;
      if (last) return last as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const what = options.description ?? 'condition';
      const seen = lastError instanceof Error ? `error: ${lastError.message}` : `last value: ${JSON.stringify(last)?.slice(0, 500)}`;
      throw new Error(`Expected ${what} within ${timeoutMs} ms, got ${seen}`);
    }
    await pause(intervalMs);
  }
}

export interface HoldOptions {
  /** How long the condition must keep holding. Keep it short: every caller pays it in full. */
  forMs: number;
  /** Time between checks (default 10 ms). */
  intervalMs?: number;
  /** Included in the error, to say what must not happen. */
  description?: string;
}

/**
 * For "X does not happen": check `fn` now and every interval for `forMs`; throw at the first falsy
 * answer. Only for negatives that nothing observable can confirm sooner (each use says why).
 */
export async function holdsFor(fn: () => unknown, options: HoldOptions): Promise<void> {
  const intervalMs = options.intervalMs ?? 10;
  const end = Date.now() + options.forMs;
  for (;;) {
    if (!(await fn())) throw new Error(`Expected ${options.description ?? 'condition'} to hold for ${options.forMs} ms; it broke after ${options.forMs - (end - Date.now())} ms`);
    if (Date.now() >= end) return;
    await pause(Math.min(intervalMs, Math.max(0, end - Date.now())));
  }
}
