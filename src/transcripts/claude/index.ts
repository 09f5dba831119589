/**
 * The Claude Code adapter. recapwrap pins the first session id with Claude's own `--session-id <uuid>`
 * unless the user chose a session. While Claude runs, its live record `sessions/<pid>.json` (the pid is
 * the one node-pty spawned: the CLI is a native binary) names the current session, and follows `/clear`,
 * which starts a new id and file. Without a record, the pinned or resumed file, then files created in the
 * project folder after our start (as candidates).
 */
import { basename, join } from 'node:path';
import type { AgentContext, LaunchPlan, LiveLocateContext, SessionCandidate, SessionFileInfo, TranscriptAdapter } from '../types.js';
import { planSessionIdLaunch, type SessionIdFlags } from '../launch-args.js';
import { readSmallFile } from '../regular-file.js';
import { parseJsonObject } from '../shared-parse.js';
import { listSessionFiles, sessionInfosOf } from '../session-files.js';
import { createClaudeParser } from './parse.js';
import { claudeSessions, listAllClaudeSessions } from './sessions.js';
import { getClaudeLiveRecordPath, getClaudeProjectDir, isUuid } from './paths.js';
import type { ClaudeLiveRecord } from './schema.js';
import { claudeOneShot } from './one-shot.js';
import { claudeOwnRecap } from './own-recap.js';

const CLAUDE_LAUNCH_FLAGS: SessionIdFlags = {
  // `claude <subcommand>` manages things and records no conversation.
  subcommands: new Set(['mcp', 'config', 'doctor', 'update', 'install', 'setup-token', 'plugin', 'migrate-installer', 'auth']),
  noSession: new Set(['--help', '-h', '--version', '-v']),
  // Flags after which Claude does not start a fresh session of its own choosing.
  userSession: new Set(['--session-id', '--continue', '-c', '--resume', '-r', '--fork-session', '--no-session-persistence']),
  resume: new Set(['--continue', '-c', '--resume', '-r']),
  resumeTargets: new Set(['--resume', '-r']),
  isId: isUuid,
  // Claude takes a valid --session-id before any resume flag as the session at once.
  pinsAtOnce: true,
};
const START_SLACK_MS = 1000;
// Entry and metadata types only Claude Code writes.
const CLAUDE_ONLY_TYPES = new Set(['file-history-snapshot', 'queue-operation', 'permission-mode', 'last-prompt', 'ai-title', 'summary', 'atis-latch', 'mode', 'custom-title']);

export function planClaudeLaunch(args: readonly string[], ctx: AgentContext & { newId: () => string; now: number }): LaunchPlan {
  return planSessionIdLaunch(args, ctx.newId, CLAUDE_LAUNCH_FLAGS);
}

const listJsonl = (dir: string) => listSessionFiles(dir, (n) => n.endsWith('.jsonl'));

async function readLiveRecord(file: string): Promise<ClaudeLiveRecord | undefined> {
  try {
    const text = await readSmallFile(file);
    return text === undefined ? undefined : (parseJsonObject(text) as ClaudeLiveRecord | undefined);
  } catch {
    return undefined;
  }
}

export async function locateClaudeLive(ctx: LiveLocateContext): Promise<SessionCandidate[]> {
  // 1. Claude's own record for a process of ours names the current session exactly (and follows /clear).
  for (const pid of ctx.pids) {
    const rec = await readLiveRecord(getClaudeLiveRecordPath(ctx.env, ctx.home, pid));
    if (rec && rec.pid === pid && isUuid(rec.sessionId)) {
      const dir = getClaudeProjectDir({ ...ctx, cwd: typeof rec.cwd === 'string' ? rec.cwd : ctx.cwd });
      return [{ file: join(dir, `${rec.sessionId}.jsonl`), confidence: 'exact' }];
    }
  }
  const dir = getClaudeProjectDir(ctx);
  const anchorId = ctx.plan.pinnedId ?? (isUuid(ctx.plan.resumeTarget) ? ctx.plan.resumeTarget : undefined);
  const anchor = anchorId ? join(dir, `${anchorId}.jsonl`) : undefined;
  // 2. Files born after our start (a /clear before the record was readable, or -c / --resume <name>).
  const files = (await listJsonl(dir)).filter((f) => f.birth >= ctx.startedAt - START_SLACK_MS && f.file !== anchor);
  files.sort((a, b) => b.birth - a.birth);
  const out: SessionCandidate[] = files.map((f) => ({ file: f.file, confidence: 'candidate' }));
  if (anchor) out.push({ file: anchor, confidence: 'exact' });
  else if (ctx.plan.resume && out.length === 0) {
    // `-c` or `--resume <name>` on an existing file: the newest one that changes after our start.
    const newest = (await listJsonl(dir)).sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
    if (newest && newest.mtimeMs >= ctx.startedAt - START_SLACK_MS) out.push({ file: newest.file, confidence: 'candidate' });
  }
  return out;
}

export async function listClaudeSessions(ctx: AgentContext): Promise<SessionFileInfo[]> {
  return sessionInfosOf('claude', await listJsonl(getClaudeProjectDir(ctx)), (file) => basename(file, '.jsonl'));
}

export { listAllClaudeSessions };

export function looksLikeClaude(firstLines: readonly string[]): boolean {
  for (const line of firstLines) {
    const rec = parseJsonObject(line);
    if (!rec) continue;
    if (typeof rec.type === 'string' && CLAUDE_ONLY_TYPES.has(rec.type)) return true;
    if ('userType' in rec && typeof rec.sessionId === 'string') return true;
    const message = rec.message as { content?: unknown; parts?: unknown } | undefined;
    if (typeof rec.uuid === 'string' && typeof rec.sessionId === 'string' && message && 'content' in message && !('parts' in message)) return true;
  }
  return false;
}

export const claudeAdapter: TranscriptAdapter = {
  id: 'claude',
  label: 'Claude Code',
  createParser: createClaudeParser,
  detect: looksLikeClaude,
  planLaunch: planClaudeLaunch,
  sessionDirs: (ctx) => [getClaudeProjectDir(ctx)],
  locateLive: locateClaudeLive,
  listSessions: listClaudeSessions,
  ...claudeSessions,
  oneShot: claudeOneShot,
  ownRecap: claudeOwnRecap,
};
