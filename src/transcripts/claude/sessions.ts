/**
 * Where Claude Code's sessions are and how one is resumed: the adapter's parts that parse nothing, apart
 * from its parsers (index.ts), so the session index's refresh and its cards load none of them
 * (transcripts/sessions.ts).
 */
import { basename, join } from 'node:path';
import type { AgentSessions, AgentContext, SessionFileInfo } from '../types.js';
import { infosIn, listSubdirs } from '../session-files.js';
import { getClaudeDir, isUuid } from './paths.js';

/** Every project's sessions: every `<config>/projects/<slug>/<id>.jsonl`. */
export async function listAllClaudeSessions(ctx: AgentContext): Promise<SessionFileInfo[]> {
  const dirs = listSubdirs(join(getClaudeDir(ctx.env, ctx.home), 'projects'));
  return infosIn('claude', dirs, (n) => n.endsWith('.jsonl'), (file) => basename(file, '.jsonl'), ctx.sessionFilesIn);
}

export const claudeSessions: AgentSessions = {
  listAllSessions: listAllClaudeSessions,
  resumeArgs: (session) => ['--resume', isUuid(session.id) ? session.id : basename(session.file, '.jsonl')],
  // A new session id whose file holds a copy of this conversation (each copy names it in `forkedFrom`).
  forkArgs: (session) => ['--resume', isUuid(session.id) ? session.id : basename(session.file, '.jsonl'), '--fork-session'],
  command: 'claude',
};
