/**
 * Where Qwen Code's sessions are and how one is resumed: the adapter's parts that parse nothing, apart
 * from its parsers (index.ts), so the session index's refresh and its cards load none of them
 * (transcripts/sessions.ts).
 */
import { basename, join } from 'node:path';
import type { AgentSessions, AgentContext, SessionFileInfo } from '../types.js';
import { infosIn, listSubdirs } from '../session-files.js';
import { getQwenRuntimeDir, isQwenSessionId } from './paths.js';

/** Every project's chats: `<runtime dir>/projects/<slug>/chats/<id>.jsonl`. */
export async function listAllQwenSessions(ctx: AgentContext): Promise<SessionFileInfo[]> {
  const projects = listSubdirs(join(getQwenRuntimeDir(ctx), 'projects'));
  return infosIn('qwen', projects.map((p) => join(p, 'chats')), (n) => n.endsWith('.jsonl'), (file) => basename(file, '.jsonl'), ctx.sessionFilesIn);
}

export const qwenSessions: AgentSessions = {
  listAllSessions: listAllQwenSessions,
  resumeArgs: (session) => ['--resume', isQwenSessionId(session.id) ? session.id : basename(session.file, '.jsonl')],
  forkArgs: (session) => ['--resume', isQwenSessionId(session.id) ? session.id : basename(session.file, '.jsonl'), '--fork-session'],
  command: 'qwen',
};
