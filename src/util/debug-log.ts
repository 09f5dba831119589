/**
 * Debug log: one line per event, appended to the file named by RECAPWRAP_DEBUG_LOG.
 * Never writes to the terminal (the pty owns the screen) and never logs transcript text:
 * callers pass ids, sizes and reasons, not content (DESIGN non-negotiable 5).
 */
import { appendFileSync } from 'node:fs';
import { RECAPWRAP_DEBUG_LOG_ENV } from '../config/paths.js';

export type DebugLog = (scope: string, message: string, fields?: Record<string, unknown>) => void;

const NOOP: DebugLog = () => {};

// Create a logger bound to the file in env; a no-op when the variable is unset.
export function createDebugLog(env: Readonly<Record<string, string | undefined>> = process.env): DebugLog {
  const file = env[RECAPWRAP_DEBUG_LOG_ENV];
  if (!file) return NOOP;
  return (scope, message, fields) => {
    const line = JSON.stringify({ t: new Date().toISOString(), pid: process.pid, scope, msg: message, ...fields });
    try {
      appendFileSync(file, line + '\n');
    } catch {
      // A debug log that cannot be written must never break the session.
    }
  };
}

let shared: DebugLog | undefined;
/** The process-wide logger (created on first use from process.env). */
export function debugLog(scope: string, message: string, fields?: Record<string, unknown>): void {
  (shared ??= createDebugLog())(scope, message, fields);
}
