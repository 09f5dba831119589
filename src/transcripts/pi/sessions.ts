/**
 * Where pi's sessions are and how one is resumed: the adapter's parts that parse nothing, apart
 * from its parsers (index.ts), so the session index's refresh and its cards load none of them
 * (transcripts/sessions.ts).
 */
import { basename, join } from 'node:path';
import type { AgentSessions, AgentContext, SessionFileInfo } from '../types.js';
import { infosIn, listSubdirs } from '../session-files.js';
import { getPiAgentDir, getPiSessionDir, PI_SESSION_DIR_ENV, piIdFromFileName } from './paths.js';

/** Every folder's sessions (`<agent dir>/sessions/--<cwd>--/`), plus the folder PI_CODING_AGENT_SESSION_DIR names. */
export async function listAllPiSessions(ctx: AgentContext): Promise<SessionFileInfo[]> {
  const dirs = listSubdirs(join(getPiAgentDir(ctx.env, ctx.home), 'sessions'));
  if (ctx.env[PI_SESSION_DIR_ENV]) dirs.push(getPiSessionDir(ctx));
  return infosIn('pi', [...new Set(dirs)], (n) => n.endsWith('.jsonl'), (file) => piIdFromFileName(basename(file)), ctx.sessionFilesIn);
}

export const piSessions: AgentSessions = {
  listAllSessions: listAllPiSessions,
  resumeArgs: (session) => ['--session', session.file],
  // pi's `--fork <path>`: a new session file whose header names this one as its parentSession.
  forkArgs: (session) => ['--fork', session.file],
  command: 'pi',
};
