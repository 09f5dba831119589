/**
 * The Gemini CLI adapter. recapwrap pins the session id with Gemini's own `--session-id <uuid>` (0.41+),
 * unless the user chose a session; the file name ends in the id's first 8 characters, found in any
 * project's chats folder. Gemini keeps no fd open and writes no pid record, so `/clear` (a new id, a new
 * file) is followed by discovery: a chats file of this folder born after the one we follow is offered as a
 * candidate (the tracker's claims keep another wrapper's pinned file its own). Resuming (`--resume latest|N`)
 * appends to the old file: the file of this folder written since our start is the one.
 */
import { openRegular } from '../regular-file.js';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { readSmallFile } from '../regular-file.js';
import type { AgentContext, LaunchPlan, LiveLocateContext, SessionCandidate, SessionFileInfo, TranscriptAdapter } from '../types.js';
import { planSessionIdLaunch, type SessionIdFlags } from '../launch-args.js';
import { parseJsonObject } from '../shared-parse.js';
import { listSessionFiles, type SessionFileStat } from '../session-files.js';
import { createGeminiParser, parseGeminiWhole } from './parse.js';
import { geminiSessions, listAllGeminiSessions } from './sessions.js';
import { allGeminiChatsDirs, geminiChatsDirs, geminiShortIdFromFileName, geminiSlug, getGeminiDir, getGeminiTmpDir } from './paths.js';
import { geminiOneShot } from './one-shot.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RESUME_FLAGS = new Set(['--resume', '-r', '--session-file']);
const GEMINI_LAUNCH_FLAGS: SessionIdFlags = {
  // `gemini <subcommand> …` manages things and records no chat.
  subcommands: new Set(['mcp', 'extensions', 'extension', 'skills', 'skill', 'hooks', 'hook', 'gemma']),
  // Invocations that print and exit without a chat.
  noSession: new Set(['--help', '-h', '--version', '-v', '--list-sessions', '--delete-session', '--list-extensions', '-l', '--acp', '--experimental-acp']),
  // Flags after which Gemini does not start a fresh session of its own choosing.
  userSession: new Set(['--session-id', '--resume', '-r', '--session-file']),
  resume: RESUME_FLAGS,
  resumeTargets: RESUME_FLAGS,
  isId: (id) => UUID.test(id),
};
// Allow a 1 s clock skew between our start time and file times.
const START_SLACK_MS = 1000;

export function planGeminiLaunch(args: readonly string[], ctx: AgentContext & { newId: () => string; now: number }): LaunchPlan {
  return planSessionIdLaunch(args, ctx.newId, GEMINI_LAUNCH_FLAGS);
}

const chatFiles = (dir: string) => listSessionFiles(dir, (n) => geminiShortIdFromFileName(n) !== undefined);

/** The chat file of a pinned session id, in whichever project folder Gemini put it. */
async function pinnedFile(ctx: LiveLocateContext, id: string): Promise<SessionFileStat | undefined> {
  const short = id.slice(0, 8).toLowerCase();
  const dirs = [...(await geminiChatsDirs(ctx)), ...allGeminiChatsDirs(ctx.env, ctx.home)];
  for (const dir of new Set(dirs)) {
    const hits = (await chatFiles(dir)).filter((f) => geminiShortIdFromFileName(basename(f.file)) === short);
    // Newest first: a resumed pre-0.39 `.json` leaves its migrated `.jsonl` beside it.
    hits.sort((a, b) => b.mtimeMs - a.mtimeMs);
    if (hits[0]) return hits[0];
  }
  return undefined;
}

export async function locateGeminiLive(ctx: LiveLocateContext): Promise<SessionCandidate[]> {
  const out: SessionCandidate[] = [];
  const mine = ctx.plan.pinnedId ? await pinnedFile(ctx, ctx.plan.pinnedId) : undefined;
  const files: SessionFileStat[] = [];
  for (const dir of await geminiChatsDirs(ctx)) files.push(...(await chatFiles(dir)));
  if (ctx.plan.resume && ctx.plan.resumeTarget && UUID.test(ctx.plan.resumeTarget)) {
    const named = await pinnedFile(ctx, ctx.plan.resumeTarget);
    if (named) out.push({ file: named.file, confidence: 'exact' });
  }
  if (ctx.plan.resume) {
    // The resumed file gets a new metadata line at start: written since we started.
    const touched = files.filter((f) => f.mtimeMs >= ctx.startedAt - START_SLACK_MS).sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const f of touched) if (!out.some((c) => c.file === f.file)) out.push({ file: f.file, confidence: 'candidate' });
  }
  // Born after our start (and after the pinned file): a `/clear` of ours, newest first.
  const since = Math.max(ctx.startedAt - START_SLACK_MS, mine ? mine.birth + 1 : 0);
  const fresh = files.filter((f) => f.birth >= since && f.file !== mine?.file).sort((a, b) => b.birth - a.birth);
  for (const f of fresh) if (!out.some((c) => c.file === f.file)) out.push({ file: f.file, confidence: 'candidate' });
  if (mine) out.push({ file: mine.file, confidence: 'exact' });
  return out;
}

/** The session id a chat file names near its start (metadata line, or the old document's first keys). */
async function sessionIdOf(file: string): Promise<string | undefined> {
  let fh;
  try {
    fh = (await openRegular(file)).handle;
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const id = /"sessionId"\s*:\s*"([^"]+)"/.exec(buf.subarray(0, bytesRead).toString('utf8'))?.[1];
    return id && UUID.test(id) ? id : undefined;
  } catch {
    return undefined;
  } finally {
    await fh?.close();
  }
}

/** Every project's chats (`<gemini>/tmp/<slug>/chats/`); ids here are the short ones of the file names. */
export { listAllGeminiSessions };

/** The project root of a chats file: the `.project_root` marker beside chats/, else the projects.json entry for its slug. */
export async function geminiFolderOfFile(file: string, ctx: AgentContext): Promise<string | undefined> {
  const projectDir = dirname(dirname(file));
  const marker = (await readSmallFile(join(projectDir, '.project_root'), 64 * 1024))?.trim();
  if (marker && isAbsolute(marker)) return marker;
  const slug = basename(projectDir);
  try {
    const reg = JSON.parse((await readSmallFile(join(getGeminiDir(ctx.env, ctx.home), 'projects.json'), 16 * 1024 * 1024)) ?? '') as { projects?: Record<string, unknown> };
    return Object.entries(reg.projects ?? {}).find(([, s]) => s === slug)?.[0];
  } catch {
    return undefined;
  }
}

export async function listGeminiSessions(ctx: AgentContext): Promise<SessionFileInfo[]> {
  const out: SessionFileInfo[] = [];
  for (const dir of await geminiChatsDirs(ctx)) {
    for (const f of await chatFiles(dir)) {
      if (f.size === 0 || out.some((o) => o.file === f.file)) continue;
      // The full id: `--resume <uuid>` takes it (the 8-character one in the name it does not).
      const id = (await sessionIdOf(f.file)) ?? (geminiShortIdFromFileName(basename(f.file)) as string);
      out.push({ agent: 'gemini', file: f.file, id, mtimeMs: f.mtimeMs, size: f.size });
    }
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

function detectGemini(firstLines: readonly string[]): boolean {
  const first = firstLines.find((l) => l.trim());
  if (first === undefined) return false;
  const rec = parseJsonObject(first);
  if (rec) {
    if (typeof rec.$rewindTo === 'string' || (rec.$set !== null && typeof rec.$set === 'object')) return true;
    return typeof rec.sessionId === 'string' && typeof rec.projectHash === 'string';
  }
  // The pre-0.39 document, pretty-printed: it opens with sessionId and projectHash.
  const head = firstLines.join('\n');
  return first.trim() === '{' && /"sessionId"\s*:/.test(head) && /"projectHash"\s*:/.test(head);
}

export const geminiAdapter: TranscriptAdapter = {
  id: 'gemini',
  label: 'Gemini CLI',
  createParser: createGeminiParser,
  parseWhole: parseGeminiWhole,
  detect: detectGemini,
  planLaunch: planGeminiLaunch,
  // The slug Gemini will register is known before it does (its `-N` collision suffix is not): watch that
  // folder and tmp/ itself; locateLive reads projects.json each time.
  sessionDirs: (ctx) => [join(getGeminiTmpDir(ctx.env, ctx.home), geminiSlug(ctx.cwd), 'chats'), getGeminiTmpDir(ctx.env, ctx.home)],
  locateLive: locateGeminiLive,
  listSessions: listGeminiSessions,
  ...geminiSessions,
  folderOfFile: geminiFolderOfFile,
  oneShot: geminiOneShot,
};
