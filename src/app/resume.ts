/**
 * `recapwrap resume`: past sessions of a folder for every supported agent, newest first, each with its
 * recap (a cached model recap for exactly its state when there is one, else the heuristic), filtered by a
 * query; and the exact command line that resumes one under recapwrap.
 */
import type { Options } from '../config/options-table.js';
import { getHomeDir, getStateDir, type Env } from '../config/paths.js';
import { readLiveStates } from '../display/state-file.js';
import type { Recap } from '../recap/types.js';
import { loadSessionFile } from '../transcripts/load.js';
import { findAdapter, listAdapters } from '../transcripts/registry.js';
import type { AgentId, Session } from '../transcripts/types.js';
import { createEngine } from './recap-engine.js';

export interface PastSession {
  agent: AgentId;
  id: string;
  file: string;
  mtime: string;
  title?: string;
  firstPrompt?: string;
  recap: Recap;
  /** argv that resumes it: the agent's command and its own resume flags. */
  command: string[];
  /** A live recapwrap is running this session now (resuming it would run it twice). */
  live?: { pid: number; pane: string | null };
}

export interface ListInput {
  cwd: string;
  env: Env;
  options: Options;
  agent?: AgentId;
  query?: string;
  /** At most this many sessions are read (newest first). */
  limit?: number;
}

function firstPromptOf(session: Session): string | undefined {
  const e = session.events.find((ev) => ev.kind === 'user');
  return e && e.kind === 'user' ? e.text.split('\n')[0]?.slice(0, 200) : undefined;
}

export function matchesQuery(s: Pick<PastSession, 'title' | 'firstPrompt' | 'recap' | 'id'>, query: string | undefined): boolean {
  if (!query) return true;
  const q = query.toLowerCase();
  return [s.title, s.firstPrompt, s.recap.line, s.id].some((t) => t?.toLowerCase().includes(q));
}

export async function listPastSessions(input: ListInput): Promise<{ sessions: PastSession[]; warnings: string[] }> {
  const ctx = { cwd: input.cwd, env: input.env, home: getHomeDir(input.env) };
  const adapters = input.agent ? [findAdapter(input.agent)].filter((a) => a !== undefined) : listAdapters();
  const files = (await Promise.all(adapters.map((a) => a.listSessions(ctx).catch(() => [])))).flat();
  files.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const warnings: string[] = [];
  const out: PastSession[] = [];
  const liveByFile = new Map(readLiveStates(getStateDir(input.env), { prune: false }).flatMap((s) => (s.sessionFile ? [[s.sessionFile, s] as const] : [])));
  const limit = input.limit ?? 30;
  for (const f of files) {
    if (out.length >= limit) break;
    let session: Session;
    try {
      session = await loadSessionFile(f.file, { agent: f.agent });
    } catch (error) {
      warnings.push(`skipped ${f.file}: ${(error as Error).message}`);
      continue;
    }
    const engine = createEngine({ options: input.options, agent: f.agent, env: input.env });
    // Listing never calls a model: a cached model recap of exactly this state, else the heuristic.
    const recap = engine.cachedRecap(session) ?? engine.heuristic(session);
    const adapter = findAdapter(f.agent);
    const past: PastSession = {
      agent: f.agent,
      id: session.id || f.id,
      file: f.file,
      mtime: new Date(f.mtimeMs).toISOString(),
      title: session.title,
      firstPrompt: firstPromptOf(session),
      recap,
      command: [adapter?.command ?? f.agent, ...(adapter?.resumeArgs({ id: session.id || f.id, file: f.file }) ?? [])],
    };
    const live = liveByFile.get(f.file);
    if (live) past.live = { pid: live.pid, pane: live.tmuxPane };
    if (matchesQuery(past, input.query)) out.push(past);
  }
  return { sessions: out, warnings };
}
