/**
 * Where Gemini CLI's sessions are and how one is resumed: the adapter's parts that parse nothing, apart
 * from its parsers (index.ts), so the session index's refresh and its cards load none of them
 * (transcripts/sessions.ts).
 */
import { basename } from 'node:path';
import type { AgentSessions, AgentContext, SessionFileInfo } from '../types.js';
import { isPlainId } from '../launch-args.js';
import { infosIn } from '../session-files.js';
import { allGeminiChatsDirs, geminiShortIdFromFileName } from './paths.js';

export async function listAllGeminiSessions(ctx: AgentContext): Promise<SessionFileInfo[]> {
  return infosIn('gemini', allGeminiChatsDirs(ctx.env, ctx.home), (n) => geminiShortIdFromFileName(n) !== undefined, (file) => geminiShortIdFromFileName(basename(file)) as string, ctx.sessionFilesIn);
}

export const geminiSessions: AgentSessions = {
  listAllSessions: listAllGeminiSessions,
  // An id not of a plain shape goes as `--resume=ID`: one word, never read as a flag of its own.
  resumeArgs: (session) => (isPlainId(session.id) ? ['--resume', session.id] : [`--resume=${session.id}`]),
  command: 'gemini',
};
