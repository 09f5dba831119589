/** Pure: reading an agent's command line the way its own option parser does (`--flag=value` or `--flag value`). */
import type { LaunchPlan } from './types.js';

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

/** The flags of an agent that recapwrap pins with its own `--session-id <id>` (Qwen Code, Gemini CLI). */
export interface SessionIdFlags {
  /** `agent <subcommand> …` that records no conversation. */
  subcommands: ReadonlySet<string>;
  /** Flags that print and exit, or record nothing. */
  noSession: ReadonlySet<string>;
  /** Flags after which the agent does not start a fresh session of its own choosing. */
  userSession: ReadonlySet<string>;
  /** Flags that continue or resume a session; those in `resumeTargets` name it in their value. */
  resume: ReadonlySet<string>;
  resumeTargets: ReadonlySet<string>;
  /** Whether the argument at i turns recording off in some other way. */
  disablesRecording?: (args: readonly string[], i: number) => boolean;
  /** Whether a `--session-id` value the user gave is one the agent accepts. */
  isId: (id: string) => boolean;
}

/** Add `--session-id <new id>` unless the user chose a session; a valid id of their own pins as exactly. */
export function planSessionIdLaunch(args: readonly string[], newId: () => string, flags: SessionIdFlags): LaunchPlan {
  if (args[0] !== undefined && flags.subcommands.has(args[0])) return { args: [...args], resume: false };
  let resume = false;
  let resumeTarget: string | undefined;
  let userChoseSession = false;
  let userId: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') break;
    const name = flagName(arg);
    if (flags.noSession.has(name) || flags.disablesRecording?.(args, i)) return { args: [...args], resume: false };
    if (flags.userSession.has(name)) userChoseSession = true;
    if (name === '--session-id') userId = flagValue(args, i);
    if (flags.resume.has(name)) {
      resume = true;
      if (flags.resumeTargets.has(name)) resumeTarget = flagValue(args, i) ?? resumeTarget;
    }
  }
  if (userChoseSession) {
    const plan: LaunchPlan = { args: [...args], resume, resumeTarget };
    if (userId && flags.isId(userId) && !resume) plan.pinnedId = userId;
    return plan;
  }
  const id = newId();
  return { args: ['--session-id', id, ...args], pinnedId: id, resume: false };
}
