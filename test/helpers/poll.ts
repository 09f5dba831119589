/** Wait for a condition by polling it until a deadline: the only way e2e tests wait (no fixed sleeps). */

export interface PollOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** Time between tries (default 20 ms). */
  intervalMs?: number;
  /** Included in the timeout error, to say what was awaited. */
  description?: string;
}

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
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
