/** Pure: reading an agent's command line the way its own option parser does (`--flag=value` or `--flag value`). */
import type { LaunchPlan } from './types.js';

/**
 * An id from a transcript that can stand alone in argv: letters, digits, `_ . : -`, not starting with `-`
 * (else the agent's option parser would read it as a flag). Resume commands check ids with it.
 */
export function isPlainId(id: string): boolean {
  return /^[A-Za-z0-9_][\w.:-]*$/.test(id);
}

/** `--session=x` → `--session`; other arguments as they are. */
export function flagName(arg: string): string {
  const eq = arg.indexOf('=');
  return arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
}

/** The value of the flag at `i`: after its `=`, or the next argument unless that is a flag itself. */
export function flagValue(args: readonly string[], i: number): string | undefined {
  const arg = args[i] as string;
  const eq = arg.indexOf('=');
  if (arg.startsWith('--') && eq > 0) return arg.slice(eq + 1);
  const next = args[i + 1];
  return next !== undefined && !next.startsWith('-') ? next : undefined;
}

/** The flags by which an agent's command line says whether, and which, session it records. */
export interface LaunchFlags {
  /** `agent <subcommand> …` that records no conversation. */
  subcommands?: ReadonlySet<string>;
  /** Flags that print and exit, or record nothing. */
  noSession: ReadonlySet<string>;
  /** Flags after which the agent does not start a fresh session of its own choosing. */
  userSession: ReadonlySet<string>;
  /** Flags that continue or resume a session; those in `resumeTargets` name it in their value. */
  resume: ReadonlySet<string>;
  resumeTargets: ReadonlySet<string>;
  /** The session a resume flag's value names, as recapwrap finds it (default: the value; undefined: none). */
  resumeTarget?: (value: string) => string | undefined;
  /** Whether the argument at i turns recording off in some other way. */
  disablesRecording?: (args: readonly string[], i: number) => boolean;
}

/** What the user's own arguments say about the session (read up to `--`). */
export interface LaunchFlagScan {
  /** A session or resume flag of the user's: recapwrap adds no pin flag of its own. */
  userChoseSession: boolean;
  resume: boolean;
  resumeTarget?: string;
  /** The value of the user's own `--session-id`, if any. */
  userId?: string;
  /** Scanning stopped at that `--session-id` (SessionIdFlags.pinsAtOnce). */
  pinnedAtOnce?: boolean;
}

/**
 * Read the user's arguments the way the agent would for its session; undefined when they start none
 * (a subcommand, a print-and-exit flag, recording off). `atSessionId` may stop the scan at a
 * `--session-id` value it accepts (true), as Claude Code takes one before any resume flag at once.
 */
export function scanLaunchFlags(args: readonly string[], flags: LaunchFlags, atSessionId?: (value: string, seen: LaunchFlagScan) => boolean): LaunchFlagScan | undefined {
  if (args[0] !== undefined && flags.subcommands?.has(args[0])) return undefined;
  const seen: LaunchFlagScan = { userChoseSession: false, resume: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') break;
    const name = flagName(arg);
    if (flags.noSession.has(name) || flags.disablesRecording?.(args, i)) return undefined;
    if (flags.userSession.has(name)) seen.userChoseSession = true;
    if (flags.resume.has(name)) {
      seen.resume = true;
      const value = flags.resumeTargets.has(name) ? flagValue(args, i) : undefined;
      const target = value === undefined || !flags.resumeTarget ? value : flags.resumeTarget(value);
      if (target !== undefined) seen.resumeTarget = target;
    }
    if (name === '--session-id') {
      seen.userId = flagValue(args, i);
      if (seen.userId !== undefined && atSessionId?.(seen.userId, seen)) return { ...seen, pinnedAtOnce: true };
    }
  }
  return seen;
}

/** The flags of an agent that recapwrap pins with its own `--session-id <id>` (Qwen Code, Gemini CLI, Claude Code). */
export interface SessionIdFlags extends LaunchFlags {
  /** Whether a `--session-id` value the user gave is one the agent accepts. */
  isId: (id: string) => boolean;
  /** A valid `--session-id` before any resume flag is the session, whatever follows (Claude Code). */
  pinsAtOnce?: boolean;
}

/** Add `--session-id <new id>` unless the user chose a session; a valid id of their own pins as exactly. */
export function planSessionIdLaunch(args: readonly string[], newId: () => string, flags: SessionIdFlags): LaunchPlan {
  const atSessionId = flags.pinsAtOnce ? (value: string, seen: LaunchFlagScan) => !seen.resume && flags.isId(value) : undefined;
  const scan = scanLaunchFlags(args, flags, atSessionId);
  if (!scan) return { args: [...args], resume: false };
  if (scan.pinnedAtOnce) return { args: [...args], pinnedId: scan.userId, resume: false };
  if (scan.userChoseSession) {
    const plan: LaunchPlan = { args: [...args], resume: scan.resume, resumeTarget: scan.resumeTarget };
    if (scan.userId && flags.isId(scan.userId) && !scan.resume) plan.pinnedId = scan.userId;
    return plan;
  }
  const id = newId();
  return { args: ['--session-id', id, ...args], pinnedId: id, resume: false };
}
