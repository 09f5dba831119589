/**
 * The Qwen Code adapter. recapwrap pins the session id with qwen's own `--session-id <uuid>` (the file is
 * then `chats/<uuid>.jsonl`), unless the user chose a session themselves. Live, the agent's registry record
 * `sessions/<pid>.json` for a pid in our child's tree names the current session exactly, and follows
 * `/clear` (which starts a new id and file); files born after our start are offered as candidates otherwise.
 */
import { basename, join } from 'node:path';
import type { AgentContext, LaunchPlan, LiveLocateContext, SessionCandidate, SessionFileInfo, TranscriptAdapter } from '../types.js';
import { flagName, flagValue, planSessionIdLaunch, type SessionIdFlags } from '../launch-args.js';
import { readSmallFile } from '../regular-file.js';
import { parseJsonObject } from '../shared-parse.js';
import { listSessionFiles, sessionInfosOf } from '../session-files.js';
import { createQwenParser } from './parse.js';
import { listAllQwenSessions, qwenSessions } from './sessions.js';
import { getQwenChatsDir, getQwenLiveRecordPath, isQwenSessionId } from './paths.js';
import type { QwenLiveRecord, QwenRuntimeStatus } from './schema.js';
import { qwenOneShot } from './one-shot.js';
import { qwenOwnRecap } from './own-recap.js';

// Allow a 1 s clock skew between our start time and file times.
const START_SLACK_MS = 1000;

// `--chat-recording=false`, `--chat-recording false` or `--no-chat-recording`: qwen writes no file.
function disablesRecording(args: readonly string[], i: number): boolean {
  const arg = args[i] as string;
  if (arg === '--no-chat-recording') return true;
  if (flagName(arg) !== '--chat-recording') return false;
  return flagValue(args, i) === 'false';
}

const QWEN_LAUNCH_FLAGS: SessionIdFlags = {
  // `qwen <subcommand> …` manages things and records no chat.
  subcommands: new Set(['mcp', 'extensions', 'sessions']),
  // Invocations that print and exit without a session.
  noSession: new Set(['--help', '-h', '--version', '-v']),
  // Flags after which qwen does not start a fresh session of its own choosing.
  userSession: new Set(['--session-id', '--continue', '-c', '--resume', '-r', '--fork-session']),
  resume: new Set(['--continue', '-c', '--resume', '-r']),
  resumeTargets: new Set(['--resume', '-r']),
  disablesRecording,
  isId: isQwenSessionId,
};

export function planQwenLaunch(args: readonly string[], ctx: AgentContext & { newId: () => string; now: number }): LaunchPlan {
  return planSessionIdLaunch(args, ctx.newId, QWEN_LAUNCH_FLAGS);
}

const listFiles = (dir: string, suffix: string) => listSessionFiles(dir, (n) => n.endsWith(suffix));

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    const text = await readSmallFile(file);
    return text === undefined ? undefined : (parseJsonObject(text) as T | undefined);
  } catch {
    return undefined; // Missing (not a qwen of ours) or being rewritten: look again on the next change.
  }
}

// The session file named by qwen's live registry for the outermost pid of our tree that has a record.
async function fileFromLiveRegistry(ctx: LiveLocateContext): Promise<string | undefined> {
  for (const pid of ctx.pids) {
    const rec = await readJson<QwenLiveRecord>(getQwenLiveRecordPath(ctx, pid));
    if (rec && isQwenSessionId(rec.sessionId)) {
      const cwd = typeof rec.cwd === 'string' && rec.cwd ? rec.cwd : ctx.cwd;
      return join(getQwenChatsDir(ctx, cwd), `${rec.sessionId}.jsonl`);
    }
  }
  return undefined;
}

// Older or registry-less TUIs: the newest `<id>.runtime.json` written since our start by a pid of our tree.
async function fileFromRuntimeSidecar(ctx: LiveLocateContext, dir: string): Promise<string | undefined> {
  const pids = new Set(ctx.pids);
  const fresh = (await listFiles(dir, '.runtime.json')).filter((f) => f.mtimeMs >= ctx.startedAt - START_SLACK_MS);
  let best: { file: string; started: number } | undefined;
  for (const f of fresh) {
    const rec = await readJson<QwenRuntimeStatus>(f.file);
    if (!rec || typeof rec.pid !== 'number' || !pids.has(rec.pid) || !isQwenSessionId(rec.session_id)) continue;
    const started = typeof rec.started_at === 'number' ? rec.started_at : f.mtimeMs / 1000;
    if (!best || started > best.started) best = { file: join(dir, `${rec.session_id}.jsonl`), started };
  }
  return best?.file;
}

/*
 * Best first: the live registry's current session (exact, follows /clear), a runtime sidecar of our pid
 * (exact), then files born after the pinned or resumed one as candidates (a /clear seen without a
 * registry), then the pinned or resumed file itself (exact).
 */
export async function locateQwenLive(ctx: LiveLocateContext): Promise<SessionCandidate[]> {
  const { plan } = ctx;
  const dir = getQwenChatsDir(ctx);
  const out: SessionCandidate[] = [];
  const live = (await fileFromLiveRegistry(ctx)) ?? (await fileFromRuntimeSidecar(ctx, dir));
  if (live) out.push({ file: live, confidence: 'exact' });
  // With --fork-session the resumed id is only the source: qwen writes a new id.
  const forking = plan.args.includes('--fork-session');
  const anchorId = plan.pinnedId ?? (forking ? undefined : plan.resumeTarget);
  const anchor = anchorId && isQwenSessionId(anchorId) ? join(dir, `${anchorId}.jsonl`) : undefined;
  const files = await listFiles(dir, '.jsonl');
  const anchorEntry = anchor ? files.find((f) => f.file === anchor) : undefined;
  const discovered = files.filter((f) => {
    if (f.file === anchor || f.file === live) return false;
    if (anchorEntry) return f.birth >= anchorEntry.birth;
    // `--continue` (or a resume we could not name) appends to an older file: it changed since our start.
    return f.birth >= ctx.startedAt - START_SLACK_MS || (plan.resume && !anchor && f.mtimeMs >= ctx.startedAt - START_SLACK_MS);
  });
  discovered.sort((a, b) => b.birth - a.birth || b.mtimeMs - a.mtimeMs);
  for (const f of discovered) out.push({ file: f.file, confidence: 'candidate' });
  if (anchor && anchor !== live) out.push({ file: anchor, confidence: 'exact' });
  return out;
}

export async function listQwenSessions(ctx: AgentContext): Promise<SessionFileInfo[]> {
  return sessionInfosOf('qwen', await listFiles(getQwenChatsDir(ctx), '.jsonl'), (file) => basename(file, '.jsonl'));
}

export { listAllQwenSessions };

// A qwen ChatRecord: sessionId + uuid, and qwen's Gemini-style parts or its system payloads.
function looksLikeQwenRecord(rec: Record<string, unknown> | undefined): boolean {
  if (!rec || typeof rec.sessionId !== 'string' || typeof rec.uuid !== 'string' || !('parentUuid' in rec)) return false;
  const message = rec.message as { parts?: unknown } | undefined;
  return Array.isArray(message?.parts) || 'systemPayload' in rec || 'provenance' in rec || rec.type === 'tool_result';
}

export const qwenAdapter: TranscriptAdapter = {
  id: 'qwen',
  label: 'Qwen Code',
  createParser: createQwenParser,
  detect(firstLines) {
    const first = firstLines.find((l) => l.trim());
    return first !== undefined && looksLikeQwenRecord(parseJsonObject(first));
  },
  planLaunch: planQwenLaunch,
  sessionDirs: (ctx) => [getQwenChatsDir(ctx)],
  locateLive: locateQwenLive,
  listSessions: listQwenSessions,
  ...qwenSessions,
  oneShot: qwenOneShot,
  ownRecap: qwenOwnRecap,
};
