/**
 * `recapwrap resume`: past sessions of a folder (or of every folder with `all`) for every supported agent,
 * newest first, each with its recap, filtered by a query; and the exact command line that resumes one under
 * recapwrap. Read from the session index (refreshed first; a query is a full-text search); when memory is
 * off or the index cannot be opened, from the agents' folders directly as before. Listing never calls a model.
 */
import type { Options } from '../../config/options-table.js';
import { getHomeDir, getStateDir, type Env } from '../../config/paths.js';
import { readLiveStates } from '../../display/state-file.js';
import type { Recap } from '../../recap/types.js';
import { loadSessionFile } from '../../transcripts/load.js';
import { findAdapter, listAdapters } from '../../transcripts/registry.js';
import type { AgentId, Session } from '../../transcripts/types.js';
import type { SessionCard, SessionRow } from '../memory/api.js';
import { createEngine } from '../recaps/recap-engine.js';

export interface PastSession {
  agent: AgentId;
  id: string;
  file: string;
  /** The session's project folder (where it resumes). */
  cwd: string;
  /** Its name in the session index (absent when read without the index). */
  name?: string;
  mtime: string;
  title?: string;
  firstPrompt?: string;
  recap: Recap;
  /** argv that resumes it: the agent's command and its own resume flags. */
  command: string[];
  /** argv that resumes it as a new branch (the agent's own fork), when the agent can. */
  forkCommand?: string[];
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
  /** Every folder, not only `cwd`. */
  all?: boolean;
}

function firstPromptOf(session: Session): string | undefined {
  // A slash command (`/clear`) is not what the session was about.
  const e = session.events.find((ev) => ev.kind === 'user' && !ev.command);
  return e && e.kind === 'user' ? e.text.split('\n')[0]?.slice(0, 200) : undefined;
}

export function matchesQuery(s: Pick<PastSession, 'title' | 'firstPrompt' | 'recap' | 'id'>, query: string | undefined): boolean {
  if (!query) return true;
  const q = query.toLowerCase();
  return [s.title, s.firstPrompt, s.recap.line, s.id].some((t) => t?.toLowerCase().includes(q));
}

function liveByFile(env: Env) {
  return new Map(readLiveStates(getStateDir(env), { prune: false }).flatMap((s) => (s.sessionFile ? [[s.sessionFile, s] as const] : [])));
}

// The stored card as the recap resume shows.
function recapOf(c: SessionCard): Recap {
  const generator: Recap['generator'] =
    c.generator.type === 'user_edited' ? { type: 'user_edited' } : c.generator.type === 'heuristic' || !c.generator.model ? { type: 'heuristic' } : { type: c.generator.type as Exclude<Recap['generator']['type'], 'heuristic' | 'user_edited'>, model: c.generator.model };
  return {
    line: c.line, headline: c.headline, done: c.done, next: c.next, artifacts: c.artifacts as Recap['artifacts'],
    status: c.status as Recap['status'], language: c.language, generator, session: { agent: c.agent, id: c.id, file: c.transcript },
    stamp: c.updatedAt, createdAt: c.updatedAt,
  };
}

/** From the session index; undefined when memory is off or the index cannot be opened (then the folders are read). */
async function listFromIndex(input: ListInput): Promise<{ sessions: PastSession[]; warnings: string[] } | undefined> {
  const { openSessionMemory } = await import('../memory/api.js');
  const { allowedFolders, folderAllowed } = await import('../memory/scan.js');
  // A folder the index leaves out (memoryFolders) is read directly, as before.
  if (!input.all && !folderAllowed(input.cwd, allowedFolders(input.options.memoryFolders, getHomeDir(input.env)))) return undefined;
  const memory = await openSessionMemory({ env: input.env, options: input.options, cwd: input.cwd });
  if ('error' in memory) return undefined;
  try {
    await memory.refresh({ ifIdle: true });
    const filter = { agent: input.agent, folder: input.all ? undefined : input.cwd, exactFolder: true, limit: input.limit ?? 30 };
    const words = input.query?.trim();
    const rows: SessionRow[] = words ? memory.search(words, filter) : memory.list(filter);
    const live = liveByFile(input.env);
    const sessions = rows.flatMap((r) => {
      const c = memory.card(r.id);
      if (!c || c.transcript !== r.transcript) return [];
      const past: PastSession = { agent: c.agent, id: c.id, file: c.transcript, cwd: c.cwd || input.cwd, name: c.name, mtime: c.updatedAt, recap: recapOf(c), command: c.resumeCommand };
      if (c.forkCommand) past.forkCommand = c.forkCommand;
      if (c.title) past.title = c.title;
      const l = live.get(c.transcript);
      if (l) past.live = { pid: l.pid, pane: l.tmuxPane };
      return [past];
    });
    return { sessions, warnings: memory.warning ? [memory.warning] : [] };
  } finally {
    memory.close();
  }
}

export async function listPastSessions(input: ListInput): Promise<{ sessions: PastSession[]; warnings: string[] }> {
  const fromIndex = await listFromIndex(input).catch(() => undefined);
  if (fromIndex) return fromIndex;
  if (input.all) return { sessions: [], warnings: ['--all needs the session index, and session memory is off or unavailable'] };
  return listFromFolders(input);
}

/** The agents' folders for this cwd, read directly (memory off). */
export async function listFromFolders(input: ListInput): Promise<{ sessions: PastSession[]; warnings: string[] }> {
  const ctx = { cwd: input.cwd, env: input.env, home: getHomeDir(input.env) };
  const adapters = input.agent ? [findAdapter(input.agent)].filter((a) => a !== undefined) : listAdapters();
  const files = (await Promise.all(adapters.map((a) => a.listSessions(ctx).catch(() => [])))).flat();
  files.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const warnings: string[] = [];
  const out: PastSession[] = [];
  const live = liveByFile(input.env);
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
      cwd: input.cwd,
      mtime: new Date(f.mtimeMs).toISOString(),
      title: session.title,
      firstPrompt: firstPromptOf(session),
      recap,
      command: [adapter?.command ?? f.agent, ...(adapter?.resumeArgs({ id: session.id || f.id, file: f.file }) ?? [])],
    };
    const fork = adapter?.forkArgs?.({ id: session.id || f.id, file: f.file });
    if (fork) past.forkCommand = [adapter?.command ?? f.agent, ...fork];
    const l = live.get(f.file);
    if (l) past.live = { pid: l.pid, pane: l.tmuxPane };
    if (matchesQuery(past, input.query)) out.push(past);
  }
  return { sessions: out, warnings };
}
