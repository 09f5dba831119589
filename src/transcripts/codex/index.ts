/**
 * The Codex CLI adapter. Codex has no flag to choose a session id, so recapwrap adds nothing to its
 * arguments. Live, the most exact source is the rollout file a process of ours holds open (Linux
 * /proc/<pid>/fd; with `--no-daemon` that is the TUI itself); otherwise rollout files created after our
 * start whose session_meta names this folder, as candidates. `codex resume <id>` appends to that id's file.
 * Its TUI also announces busy/idle in its output (OSC 7501): declared here as the adapter's outputSignal.
 */
import { readdir, readlink } from 'node:fs/promises';
import { basename } from 'node:path';
import type { AnnouncedState, OutputSignal } from '../../types.js';
import type { AgentContext, LaunchPlan, LiveLocateContext, SessionCandidate, SessionFileInfo, TranscriptAdapter } from '../types.js';
import { parseJsonObject } from '../shared-parse.js';
import { listSessionFiles, type SessionFileStat } from '../session-files.js';
import { createCodexParser, isLegacyCodexLine } from './parse.js';
import { codexSessions, isRolloutName, listAllCodexSessions } from './sessions.js';
import { codexDayDir, codexDayDirs, codexIdFromFileName, getCodexSessionsDir, readFirstLine } from './paths.js';
import { codexOneShot } from './one-shot.js';
import { codexOwnRecap } from './own-recap.js';

// `codex <subcommand>` that records no conversation.
const NO_SESSION_SUBCOMMANDS = new Set(['login', 'logout', 'mcp', 'mcp-server', 'app-server', 'completion', 'apply', 'a', 'sandbox', 'debug', 'help', 'features', 'cloud']);
const NO_SESSION_FLAGS = new Set(['--help', '-h', '--version', '-V']);
const START_SLACK_MS = 1000;
const DAY_MS = 86_400_000;

export function planCodexLaunch(args: readonly string[], _ctx: AgentContext & { newId: () => string; now: number }): LaunchPlan {
  const first = args[0];
  if (first !== undefined && NO_SESSION_SUBCOMMANDS.has(first)) return { args: [...args], resume: false };
  if (args.some((a) => NO_SESSION_FLAGS.has(a))) return { args: [...args], resume: false };
  // `codex resume [ID] [--last]`, `codex fork …`, `codex exec resume [ID|--last]`.
  const at = first === 'exec' && args[1] === 'resume' ? 1 : first === 'resume' || first === 'fork' ? 0 : -1;
  if (at >= 0) {
    const target = args[at + 1];
    return { args: [...args], resume: true, resumeTarget: target && !target.startsWith('-') ? target : undefined };
  }
  return { args: [...args], resume: false };
}

// `codex resume|fork <id>`. An id not of a plain shape: the rollout file name's UUID; failing that, after `--` (never read as a flag).
const rolloutsIn = (dir: string) => listSessionFiles(dir, isRolloutName);

/** The project folder a rollout belongs to (its session_meta), or undefined. */
export async function rolloutCwd(file: string): Promise<string | undefined> {
  const first = await readFirstLine(file);
  const rec = first ? parseJsonObject(first) : undefined;
  const payload = rec?.payload as { cwd?: unknown } | undefined;
  return rec?.type === 'session_meta' && typeof payload?.cwd === 'string' ? payload.cwd : undefined;
}

// Rollouts a process of ours holds open (Linux); [] elsewhere.
async function openRollouts(pids: readonly number[], sessions: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = await readdir(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = await readlink(`/proc/${pid}/fd/${fd}`);
        if (target.startsWith(sessions) && /rollout-[^/]*\.jsonl$/.test(target) && !found.includes(target)) found.push(target);
      } catch {}
    }
  }
  return found;
}

export function codexSessionDirs(ctx: AgentContext, now = Date.now()): string[] {
  const sessions = getCodexSessionsDir(ctx.env, ctx.home);
  // Today and tomorrow (a session running past midnight writes into the new day's folder only when it
  // starts a new rollout, e.g. after /new).
  return [codexDayDir(sessions, new Date(now)), codexDayDir(sessions, new Date(now + DAY_MS))];
}

export async function locateCodexLive(ctx: LiveLocateContext): Promise<SessionCandidate[]> {
  const sessions = getCodexSessionsDir(ctx.env, ctx.home);
  const open = await openRollouts(ctx.pids, sessions);
  if (open.length === 1) return [{ file: open[0] as string, confidence: 'exact' }];
  const out: SessionCandidate[] = [];
  const dirs = [codexDayDir(sessions, new Date(ctx.startedAt - DAY_MS)), ...codexSessionDirs(ctx, ctx.startedAt)];
  const fresh: SessionFileStat[] = [];
  for (const dir of dirs) fresh.push(...(await rolloutsIn(dir)).filter((r) => r.birth >= ctx.startedAt - START_SLACK_MS));
  fresh.sort((a, b) => b.birth - a.birth);
  for (const r of fresh) if ((await rolloutCwd(r.file)) === ctx.cwd) out.push({ file: r.file, confidence: open.includes(r.file) ? 'exact' : 'candidate' });
  if (ctx.plan.resume && ctx.plan.resumeTarget) {
    const target = ctx.plan.resumeTarget.toLowerCase();
    for (const dir of await codexDayDirs(sessions, 400)) {
      const hit = (await rolloutsIn(dir)).find((r) => codexIdFromFileName(basename(r.file))?.toLowerCase() === target);
      if (hit) {
        out.push({ file: hit.file, confidence: 'exact' });
        break;
      }
    }
  }
  return out;
}

export { listAllCodexSessions };

export async function listCodexSessions(ctx: AgentContext): Promise<SessionFileInfo[]> {
  const sessions = getCodexSessionsDir(ctx.env, ctx.home);
  const out: SessionFileInfo[] = [];
  for (const dir of await codexDayDirs(sessions, 120)) {
    for (const r of await rolloutsIn(dir)) {
      if (r.size === 0 || (await rolloutCwd(r.file)) !== ctx.cwd) continue;
      out.push({ agent: 'codex', file: r.file, id: codexIdFromFileName(basename(r.file)) ?? basename(r.file, '.jsonl'), mtimeMs: r.mtimeMs, size: r.size });
    }
    if (out.length >= 100) break;
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/** Codex announces busy/idle in its output: `ESC ] 7501;state=working|idle|done|clear` (clear withdraws it). */
const OSC_7501_STATE = '\x1b]7501;state=';

/** Pure: the state after the OSC 7501 prefix; null for `clear`; undefined for anything else. */
export function parseCodexBusyState(text: string): AnnouncedState | null | undefined {
  const value = /^(working|idle|done|clear)/.exec(text)?.[1];
  if (value === undefined) return undefined;
  return value === 'clear' ? null : (value as AnnouncedState);
}

export const codexOutputSignal: OutputSignal = { marker: OSC_7501_STATE, parse: parseCodexBusyState };

export const codexAdapter: TranscriptAdapter = {
  id: 'codex',
  label: 'Codex',
  createParser: createCodexParser,
  detect(firstLines) {
    const rec = parseJsonObject(firstLines.find((l) => l.trim()) ?? '');
    if (rec === undefined) return false;
    if (typeof rec.type === 'string' && 'payload' in rec) return rec.type === 'session_meta' || rec.type === 'response_item' || rec.type === 'event_msg' || rec.type === 'turn_context';
    // A legacy rollout (Sept 2025): `{id, timestamp, instructions, git}`, then `{"record_type":"state"}`.
    const second = parseJsonObject(firstLines.filter((l) => l.trim())[1] ?? '');
    return isLegacyCodexLine(rec) && (rec.type === undefined ? second !== undefined && isLegacyCodexLine(second) : true);
  },
  planLaunch: planCodexLaunch,
  sessionDirs: (ctx) => codexSessionDirs(ctx),
  locateLive: locateCodexLive,
  outputSignal: codexOutputSignal,
  listSessions: listCodexSessions,
  ...codexSessions,
  oneShot: codexOneShot,
  ownRecap: codexOwnRecap,
};
