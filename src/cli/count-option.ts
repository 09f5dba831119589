/**
 * Whole-number options (`--limit N`, `--pick N`) checked in one place: digits only (no sign, fraction,
 * exponent or hex), from 1 to a bound SQLite and the lists can hold, else one clear message.
 */
import { formatExpected } from '../config/load.js';

/** The largest count any option takes (a limit past every session there could be, far inside SQLite's integers). */
export const MAX_COUNT = 1_000_000;

/** The option's value, `fallback` when it was not given, or the message saying what it should be. */
export function parseCount(flag: string, text: string | undefined, fallback: number, max?: number): { value: number } | { error: string };
export function parseCount(flag: string, text: string | undefined, fallback?: undefined, max?: number): { value: number | undefined } | { error: string };
export function parseCount(flag: string, text: string | undefined, fallback?: number, max = MAX_COUNT): { value: number | undefined } | { error: string } {
  if (text === undefined) return { value: fallback };
  const trimmed = text.trim();
  const n = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (Number.isSafeInteger(n) && n >= 1 && n <= max) return { value: n };
  return { error: formatExpected(`\`${flag}\``, `a whole number from 1 to ${max.toLocaleString('en-US')}`, `\`${text}\``) };
}
