// The small helpers every bench uses: a sleep, and quantiles of samples (nearest-rank).
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The q-quantile (0..1) of xs by nearest rank; NaN for no samples. */
export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

export const median = (xs) => quantile(xs, 0.5);
