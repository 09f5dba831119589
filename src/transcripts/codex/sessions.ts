/**
 * Where Codex's sessions are and how one is resumed: the adapter's parts that parse nothing, apart
 * from its parsers (index.ts), so the session index's refresh and its cards load none of them
 * (transcripts/sessions.ts).
 */
import { basename } from 'node:path';
import type { AgentSessions, AgentContext, SessionFileInfo } from '../types.js';
import { isPlainId } from '../launch-args.js';
import { infosIn } from '../session-files.js';
import { allCodexDayDirs, codexIdFromFileName, getCodexSessionsDir } from './paths.js';

export const isRolloutName = (n: string) => n.startsWith('rollout-') && n.endsWith('.jsonl');

function codexSessionArgs(verb: 'resume' | 'fork', session: { id: string; file: string }): string[] {
  const id = isPlainId(session.id) ? session.id : codexIdFromFileName(basename(session.file)) ?? session.id;
  return isPlainId(id) ? [verb, id] : [verb, '--', id];
}

/** Every rollout of every day (the index reads each one's folder from its first line). */
export async function listAllCodexSessions(ctx: AgentContext): Promise<SessionFileInfo[]> {
  const dirs = allCodexDayDirs(getCodexSessionsDir(ctx.env, ctx.home));
  return infosIn('codex', dirs, isRolloutName, (file) => codexIdFromFileName(basename(file)) ?? basename(file, '.jsonl'), ctx.sessionFilesIn);
}

export const codexSessions: AgentSessions = {
  listAllSessions: listAllCodexSessions,
  resumeArgs: (session) => codexSessionArgs('resume', session),
  // `codex fork <id>`: a new thread whose session_meta names this one (`forked_from_id`).
  forkArgs: (session) => codexSessionArgs('fork', session),
  command: 'codex',
};
