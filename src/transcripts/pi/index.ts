/**
 * The pi adapter. recapwrap pins the session file with pi's own `--session <path>` (a path that does not
 * exist becomes a new session there), unless the user chose a session themselves. `/new` makes pi switch
 * to a new file in the same folder, which locateLive offers as a candidate.
 */
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { AgentContext, LaunchPlan, LiveLocateContext, SessionCandidate, SessionFileInfo, TranscriptAdapter } from '../types.js';
import { scanLaunchFlags, type LaunchFlags } from '../launch-args.js';
import { parseJsonObject } from '../shared-parse.js';
import { listSessionFiles, sessionInfosOf } from '../session-files.js';
import { createPiParser } from './parse.js';
import { listAllPiSessions, piSessions } from './sessions.js';
import { getPiSessionDir, piIdFromFileName, piSessionFileName } from './paths.js';
import { piOneShot } from './one-shot.js';

const PI_LAUNCH_FLAGS: LaunchFlags = {
  // Invocations that print and exit without a session.
  noSession: new Set(['--help', '-h', '--version', '-v', '--list-models', '--export']),
  // Flags after which pi does not start a fresh session of its own choosing (or starts none).
  userSession: new Set(['--session', '--continue', '-c', '--resume', '-r', '--fork', '--no-session', '--session-dir']),
  resume: new Set(['--continue', '-c', '--resume', '-r', '--session', '--fork']),
  resumeTargets: new Set(['--session', '--fork']),
};
// Allow a 1 s clock skew between our start time and file times.
const START_SLACK_MS = 1000;

export function planPiLaunch(args: readonly string[], ctx: AgentContext & { newId: () => string; now: number }): LaunchPlan {
  const scan = scanLaunchFlags(args, {
    ...PI_LAUNCH_FLAGS,
    // A path (to a file) is found from this folder; anything else is an id or a name.
    resumeTarget: (value) => (!value ? undefined : value.includes('/') || value.endsWith('.jsonl') ? resolve(ctx.cwd, value) : value),
  });
  if (!scan) return { args: [...args], resume: false };
  if (scan.userChoseSession) return { args: [...args], resume: scan.resume, resumeTarget: scan.resumeTarget };
  const file = join(getPiSessionDir(ctx), piSessionFileName(ctx.now, ctx.newId()));
  return { args: ['--session', file, ...args], pinnedFile: file, resume: false };
}

const listJsonl = (dir: string) => listSessionFiles(dir, (n) => n.endsWith('.jsonl'));

// Best first: a file created after the pinned one (a /new switch) as a candidate, then the pinned file.
export async function locatePiLive(ctx: LiveLocateContext): Promise<SessionCandidate[]> {
  const { plan } = ctx;
  const pinned = plan.pinnedFile;
  let resumed: string | undefined;
  if (!pinned && plan.resumeTarget && isAbsolute(plan.resumeTarget)) resumed = plan.resumeTarget;
  const dir = pinned ? dirname(pinned) : resumed ? dirname(resumed) : getPiSessionDir(ctx);
  const files = (await listJsonl(dir)).filter((f) => f.birth >= ctx.startedAt - START_SLACK_MS || f.file === pinned || f.file === resumed);
  files.sort((a, b) => b.birth - a.birth);
  const anchor = pinned ?? resumed;
  const anchorEntry = files.find((f) => f.file === anchor);
  const out: SessionCandidate[] = [];
  for (const f of files) {
    if (f.file === anchor) continue;
    // Only files born after our own file can be our /new switch.
    if (anchorEntry && f.birth < anchorEntry.birth) continue;
    out.push({ file: f.file, confidence: 'candidate' });
  }
  if (anchor) out.push({ file: anchor, confidence: 'exact' });
  return out;
}

export async function listPiSessions(ctx: AgentContext): Promise<SessionFileInfo[]> {
  return sessionInfosOf('pi', await listJsonl(getPiSessionDir(ctx)), (file) => piIdFromFileName(basename(file)));
}

export { listAllPiSessions };

export const piAdapter: TranscriptAdapter = {
  id: 'pi',
  label: 'pi',
  createParser: createPiParser,
  detect(firstLines) {
    const first = firstLines.find((l) => l.trim());
    const rec = first ? parseJsonObject(first) : undefined;
    return rec?.type === 'session' && typeof rec.cwd === 'string' && !('sessionId' in rec);
  },
  planLaunch: planPiLaunch,
  sessionDirs: (ctx) => [getPiSessionDir(ctx)],
  locateLive: locatePiLive,
  listSessions: listPiSessions,
  ...piSessions,
  oneShot: piOneShot,
};
