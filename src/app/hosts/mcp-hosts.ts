/**
 * The MCP tools' `host` argument: search_sessions, list_sessions and get_session asked of a host of the
 * config file (its own recapwrap over ssh, or its pulled copy), its answer checked like every host's.
 * A failure is an Error with one line naming the host (the tools turn it into a tool error).
 */
import type { Env } from '../../config/paths.js';
import { stripHitMarks } from '../../memory/types.js';
import { isAgentId } from '../../transcripts/agent-ids.js';
import type { SearchHit, SessionCard, SessionFilter, SessionMemory, SessionRow } from '../memory/api.js';
import { findCards, fromMirror, readHost, type AcrossDeps } from './memory-across.js';
import { setUpHosts } from './hosts.js';
import { hostRefOf, type HostRef } from './host-ref.js';
import type { MirrorMeta } from './mirror.js';
import { parseRemoteList, remoteHitSchema, remoteRowSchema } from './remote-schema.js';

export interface RemoteFilter { agent?: string; folder?: string; since?: number; limit: number }

export interface McpHosts {
  search(host: string, query: string, filter: RemoteFilter): Promise<(SearchHit & { host: string })[]>;
  list(host: string, filter: RemoteFilter): Promise<(SessionRow & { host: string })[]>;
  card(host: string, ref: string): Promise<SessionCard & { host: string }>;
  /** `HOST:REF` with HOST a host of the config file: the host and the REF there (host-ref.ts). */
  hostRef(ref: string): HostRef | undefined;
}

function filterWords(f: RemoteFilter, now: number): string[] {
  const w: string[] = ['--limit', String(f.limit)];
  if (f.agent) w.push('--agent', f.agent);
  if (f.folder) w.push('--folder', f.folder);
  if (f.since !== undefined) w.push('--since', `${Math.max(1, Math.ceil((now - f.since) / 60_000))}m`);
  return w;
}

export function createMcpHosts(env: Env, cwd: string): McpHosts {
  const setup = (host: string) => {
    const s = setUpHosts(env, cwd, { host: [host] });
    if ('error' in s) throw new Error(s.error.replace('`--host`', '`host`'));
    return s;
  };
  // As the CLI reads a host (memory-across.ts): its recapwrap over ssh, or its pulled copy (mirror mode,
  // or a host without recapwrap when a copy exists).
  async function ask<T>(host: string, words: string[], schema: Parameters<typeof parseRemoteList<T>>[1], fromCopy: (memory: SessionMemory, meta: MirrorMeta) => T[]): Promise<(T & { host: string })[]> {
    const s = setup(host);
    const spec = s.choice.hosts[0];
    if (!spec) throw new Error(`no host ${host}`);
    const read = await readHost<T>(spec, s, words, async (t) => parseRemoteList(t, schema), fromCopy);
    if (read.problem) throw new Error(`host ${host}: ${read.problem}`);
    return read.items.map((i) => ({ ...i, host }));
  }
  const local = (f: RemoteFilter): SessionFilter => ({ limit: f.limit, ...(f.agent && isAgentId(f.agent) ? { agent: f.agent } : {}), ...(f.folder ? { folder: f.folder } : {}), ...(f.since !== undefined ? { since: f.since } : {}) });
  return {
    hostRef: (ref) => hostRefOf(ref, env, cwd),
    search: async (host, query, f) =>
      (await ask(host, ['search', '--json', ...filterWords(f, Date.now()), '--', query], remoteHitSchema, (m, meta) =>
        m.search(query, local(f)).map((hit) => fromMirror({ ...hit, snippet: stripHitMarks(hit.snippet) }, host, env, meta)),
      )) as (SearchHit & { host: string })[],
    list: async (host, f) =>
      (await ask(host, ['sessions', '--json', ...filterWords(f, Date.now())], remoteRowSchema, (m, meta) => m.list(local(f)).map((row) => fromMirror(row, host, env, meta)))) as (SessionRow & { host: string })[],
    async card(host, ref) {
      const s = setup(host);
      const deps: AcrossDeps = { env, cwd, now: Date.now(), columns: Number.POSITIVE_INFINITY, color: false };
      const found = await findCards(ref, s, deps, { runLocal: async () => ({ out: '', err: '', code: 1 }) }, {});
      if ('code' in found) throw new Error(found.err.trim());
      // Several sessions there: the host's candidates, to name one by id.
      if (found.ambiguous) throw new Error(found.err.trim().replace(/^recapwrap: /gm, ''));
      const card = found.cards[0];
      if (!card || card.host === undefined) throw new Error(`${found.err.trim() ? `${found.err.trim()}; ` : ''}no session matches "${ref}" on host ${host}`.replace(/recapwrap: /g, ''));
      return card as SessionCard & { host: string };
    },
  };
}
