/**
 * `sessions`, `search`, `show` and `index --pull` with `--host NAME` / `--all-hosts`: this machine's
 * answer (the usual command, as JSON) and each host's (its own recapwrap over ssh, or its pulled copy),
 * in parallel, each checked, merged and ranked; every item from a host carries `host`. A host that fails
 * costs one line on stderr; the exit code is what the answers say (results: 0, none: 1), never the host's.
 */
import { queryTerms, rankingTerms } from '../../memory/fts-query.js';
import { isAgentId } from '../../transcripts/agent-ids.js';
import { sanitizeLine, stringifyJsonSafely } from '../../util/sanitize.js';
import type { SearchHit, SessionCard, SessionFilter, SessionMemory, SessionRow } from '../memory/api.js';
import type { HostSpec } from './config.js';
import { setUpHosts, warningLines, type HostsSetup } from './hosts.js';
import { hostPath, openMirror, pullHost, readMirrorMeta, type MirrorMeta } from './mirror.js';
import { describeCutList, leftOutNote, mergeHits, mergeRows, MAX_ITEMS, type ListCount, type Tagged } from './merge.js';
import type { Parsed } from './remote-schema.js';
import { resumeArgv } from './ssh-argv.js';
import { formatCommandForTerminal } from '../../util/shell-quote.js';
import { askHost, hostLine } from './transport.js';
import { formatCount } from '../../util/plural.js';

interface Result {
  out: string; err: string; code: number;
  /** sessions/search --json of this machine: how many sessions matched in all (its JSON is the list alone). */
  total?: number;
}

/** The options of the memory commands this part reads (memory-run's MemoryCliOptions has them). */
export interface AcrossOptions {
  json?: boolean; here?: boolean; folder?: string; agent?: string; since?: string; limit?: string;
  host?: string[]; allHosts?: boolean; pull?: boolean; rebuild?: boolean;
  /** search: only sessions holding every word. */
  allWords?: boolean;
}
export interface AcrossDeps { env: NodeJS.ProcessEnv | Record<string, string | undefined>; cwd: string; now: number; columns: number; color: boolean }

/** What memory-run lends: this machine's own run, and its renderers (one look for every machine's rows). */
export interface AcrossHooks<D extends AcrossDeps> {
  /** This machine's answer to the same command with `--json` (and no host flags). */
  runLocal(options: AcrossOptions): Promise<Result>;
  rowLine(row: SessionRow, deps: D, nameWidth?: number): string;
  card(card: SessionCard, deps: D): string;
  renderSnippet(snippet: string, color: boolean): string;
  parseAge(text: string): number | undefined;
  /** `--limit` checked as this machine checks it (the default when not given), or its message. */
  parseLimit(text: string | undefined, fallback: number): { value: number } | { error: string };
}

type Row = Tagged<SessionRow & { cwdShown?: string }>;
type Hit = Tagged<SearchHit & { cwdShown?: string }>;
type Card = Tagged<SessionCard & { cwdShown?: string }>;

// The schemas (zod) load once the hosts' children run, not before: their start is the critical path.
let schemasLoading: Promise<typeof import('./remote-schema.js')> | undefined;
const schemas = () => (schemasLoading ??= import('./remote-schema.js'));

const fail = (message: string, code = 2): Result => ({ out: '', err: `recapwrap: ${message}\n`, code });

/** The words of the same command for a host's recapwrap (filters as given; --here as this folder). */
function remoteWords(verb: 'sessions' | 'search' | 'show', args: string[], o: AcrossOptions, cwd: string, limit: number): string[] {
  const words: string[] = [verb, '--json'];
  if (verb !== 'show') {
    if (o.agent) words.push('--agent', o.agent);
    if (o.since) words.push('--since', o.since);
    if (o.here) words.push('--folder', cwd);
    else if (o.folder) words.push('--folder', o.folder);
    words.push('--limit', String(limit));
  }
  if (verb === 'search' && o.allWords) words.push('--all-words');
  if (verb !== 'sessions') words.push('--', args[0] ?? '');
  return words;
}

/** A row of a host's copy as the host would give it: paths as on the host. */
export function fromMirror<T extends SessionRow>(row: T, host: string, env: AcrossDeps['env'], meta: MirrorMeta): T {
  return { ...row, transcript: hostPath(env, host, meta, row.transcript) };
}

/** `total`: how many the host holds in all, when known (a pulled copy counts them; a host's JSON does not say). */
export type HostRead<T> = { host: HostSpec; items: T[]; total?: number; problem?: string; note?: string };

/** A copy's read: its items, or its items and how many it holds in all (a list cut to the limit). */
type CopyRead<T> = T[] | { items: T[]; total: number };

async function withMirror<T>(host: HostSpec, setup: HostsSetup, read: (memory: SessionMemory, meta: MirrorMeta) => CopyRead<T>): Promise<HostRead<T>> {
  const meta = readMirrorMeta(setup.ctx.env, host.name);
  const memory = meta ? await openMirror(host.name, setup.ctx.env, setup.options) : { error: `no copy: pull one with \`${formatCommandForTerminal(['recapwrap', 'index', '--host', host.name, '--pull'])}\`` };
  if ('error' in memory || !meta) return { host, items: [], problem: 'error' in memory ? memory.error : 'no copy' };
  try {
    const got = read(memory, meta);
    return Array.isArray(got) ? { host, items: got } : { host, items: got.items, total: got.total };
  } finally {
    memory.close();
  }
}

/** One host's list: asked over ssh, or read from its copy (`mirror`, or when it has no recapwrap and a copy exists). */
export async function readHost<T>(
  host: HostSpec, setup: HostsSetup, words: string[],
  parse: (stdout: string) => Promise<Parsed<T>>,
  fromCopy: (memory: SessionMemory, meta: MirrorMeta) => CopyRead<T>,
  /** Exit codes of an answer to read (show: 2 is an ambiguous REF there, said in its JSON). */
  answered: readonly number[] = [0, 1],
): Promise<HostRead<T>> {
  if (host.mirror) return withMirror(host, setup, fromCopy);
  const answer = await askHost(host, words, setup.ctx);
  if (!answer.ok) {
    const meta = readMirrorMeta(setup.ctx.env, host.name);
    if (meta) {
      const read = await withMirror(host, setup, fromCopy);
      return { ...read, note: `${answer.problem}; read its copy pulled ${meta.pulledAt.slice(0, 16).replace('T', ' ')} UTC` };
    }
    return { host, items: [], problem: answer.problem };
  }
  if (!answered.includes(answer.code)) return { host, items: [], problem: `recapwrap there failed (exit ${answer.code}): ${sanitizeLine(answer.stderr.split('\n').find((l) => l.trim()) ?? '').slice(0, 160)}` };
  const parsed = await parse(answer.stdout);
  if (!parsed.ok) return { host, items: [], problem: parsed.error };
  const note = leftOutNote(parsed);
  return { host, items: parsed.items, ...(note ? { note } : {}) };
}

function hostNotes(reads: readonly HostRead<unknown>[]): string {
  return reads.map((r) => (r.problem ? hostLine(r.host.name, r.problem) : r.note ? hostLine(r.host.name, r.note) : '')).join('');
}

// A row as printed: `host:name`, the folder as the host shows it.
function shownRow<T extends Row>(r: T): T {
  return r.host === undefined ? r : { ...r, name: `${r.host}:${r.name}`, cwd: r.cwdShown ?? r.cwd };
}

function localRows<T>(r: Result): T[] | Result {
  if (r.code !== 0 && r.code !== 1) return r;
  try {
    const v = JSON.parse(r.out || '[]') as unknown;
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return r;
  }
}

const isResult = (x: unknown): x is Result => typeof x === 'object' && x !== null && !Array.isArray(x) && 'code' in x && 'err' in x;

// How a host's session is resumed there (and forked, where the agent's CLI can fork), through ssh.
function resumeFor(findAdapter: typeof import('../../transcripts/registry.js').findAdapter, host: HostSpec, c: { agent: string; id: string; cwd: string; transcript: string; fromCopy?: boolean }): { resumeCommand: string[]; forkCommand?: string[] } {
  const adapter = isAgentId(c.agent) ? findAdapter(c.agent) : undefined;
  const session = { id: c.id, file: c.transcript };
  const command = adapter?.command ?? c.agent;
  const resumeCommand = resumeArgv(host, c.cwd, [command, ...(adapter?.resumeArgs(session) ?? [])], !c.fromCopy);
  const fork = adapter?.forkArgs?.(session);
  return fork ? { resumeCommand, forkCommand: resumeArgv(host, c.cwd, [command, ...fork], !c.fromCopy) } : { resumeCommand };
}

export async function runAcrossHosts<D extends AcrossDeps>(verb: string, args: string[], options: AcrossOptions, deps: D, hooks: AcrossHooks<D>): Promise<Result> {
  const setup = setUpHosts(deps.env, deps.cwd, options);
  if ('error' in setup) return fail(setup.error);
  const warn = warningLines(setup.warnings);
  const r = await runVerb(verb, args, options, deps, hooks, setup);
  return { ...r, err: warn + r.err };
}

async function runVerb<D extends AcrossDeps>(verb: string, args: string[], options: AcrossOptions, deps: D, hooks: AcrossHooks<D>, setup: HostsSetup): Promise<Result> {
  const { choice } = setup;
  const local = { ...options, host: undefined, allHosts: false, json: true };
  if (verb === 'index') {
    if (!options.pull) return fail('index --host NAME needs --pull (a host with recapwrap indexes its own sessions; --pull copies them here)');
    if (options.rebuild) return fail('--rebuild does not go with --host (a pulled copy is indexed as it changes)');
    const hosts = choice.hosts;
    if (hosts.length === 0) return fail('--pull needs --host NAME or --all-hosts');
    const results = await Promise.all(hosts.map((h) => pullHost(h, setup.ctx, setup.options)));
    let out = '';
    let err = '';
    results.forEach((res, i) => {
      const name = (hosts[i] as HostSpec).name;
      if (!res.ok) err += hostLine(name, res.problem);
      else out += options.json ? '' : `host ${name}: pulled ${formatCount(res.pulled, 'new or changed file')}; indexed ${res.stats.indexed} of ${formatCount(res.stats.read, 'changed session file')}; ${formatCount(res.sessions, 'session')} in its copy\n`;
    });
    if (options.json) out = stringifyJsonSafely(results.map((res, i) => ({ host: (hosts[i] as HostSpec).name, ...(res.ok ? { pulled: res.pulled, ...res.stats, sessions: res.sessions } : { error: res.problem }) })), 2) + '\n';
    return { out, err, code: results.some((x) => x.ok) ? 0 : 1 };
  }
  if (verb === 'sessions' || verb === 'search') {
    if (options.here && options.folder) return fail('use --here or --folder DIR, not both');
    const limited = hooks.parseLimit(options.limit, verb === 'search' ? 10 : 20);
    if ('error' in limited) return fail(limited.error);
    const limit = limited.value;
    if (options.agent !== undefined && !isAgentId(options.agent)) return choice.local ? hooks.runLocal(local) : fail(`Expected \`--agent\` to be one of the agent ids, got \`${sanitizeLine(options.agent)}\``);
    if (options.since !== undefined && hooks.parseAge(options.since) === undefined) return choice.local ? hooks.runLocal(local) : fail(`Expected \`--since\` to be an age such as 30m, 12h, 3d or 2w, got \`${sanitizeLine(options.since)}\``);
    // A host is asked for one more than is shown: its JSON has no total, so the extra one tells a list cut
    // there from a whole one (within the items read from a host).
    const asked = Math.min(limit + 1, MAX_ITEMS);
    const words = remoteWords(verb, args, options, deps.cwd, asked);
    const since = options.since === undefined ? undefined : deps.now - (hooks.parseAge(options.since) as number);
    const filter = { limit, ...(options.agent ? { agent: options.agent as SessionRow['agent'] } : {}), ...(since !== undefined ? { since } : {}), ...(options.folder && !options.here ? { folder: options.folder } : options.here ? { folder: deps.cwd } : {}) };
    // The hosts' children start first: this machine's refresh then runs while they answer.
    const answers = Promise.all(
      choice.hosts.map((h) =>
        verb === 'sessions'
          ? readHost<Row>(h, setup, words, async (t) => (await schemas()).parseRemoteList(t, (await schemas()).remoteRowSchema), (m, meta) => listCopy(m, filter, (row) => fromMirror(row, h.name, deps.env, meta)))
          : readHost<Hit>(h, setup, words, async (t) => (await schemas()).parseRemoteList(t, (await schemas()).remoteHitSchema), (m, meta) => searchCopy(m, args[0] ?? '', filter, options.allWords, (hit) => fromMirror({ ...hit, snippet: hooks.renderSnippet(hit.snippet, false) }, h.name, deps.env, meta))),
      ),
    );
    void schemas();
    const localAnswer = choice.local ? await hooks.runLocal(local) : undefined;
    const reads = await answers;
    const lists: Row[][] = [];
    const counts: ListCount[] = [];
    if (localAnswer) {
      const rows = localRows<Row>(localAnswer);
      if (isResult(rows)) return rows;
      lists.push(rows);
      counts.push({ given: rows.length, total: localAnswer.total ?? rows.length });
    }
    // A host that gave fewer than it was asked for gave them all; one that gave as many may hold more.
    for (const read of reads) counts.push({ given: read.items.length, total: read.total ?? (read.items.length < asked ? read.items.length : undefined) });
    for (const read of reads) lists.push(read.items.map((i) => ({ ...i, host: read.host.name })) as Row[]);
    const err = (localAnswer && localAnswer.code === 0 ? localAnswer.err : (localAnswer?.err ?? '').replace(/^recapwrap: no session.*\n/m, '')) + hostNotes(reads);
    const merged = verb === 'sessions' ? mergeRows(lists, limit) : mergeHits(lists as Hit[][], limit);
    const code = merged.length ? 0 : 1;
    if (options.json) return { out: stringifyJsonSafely(merged, 2) + '\n', err, code };
    if (merged.length === 0) return { out: '', err: err + (verb === 'search' ? `recapwrap: no session matches ${JSON.stringify(sanitizeLine(args[0] ?? ''))} on ${machines(choice.local, choice.hosts)}\n` : `recapwrap: no sessions match on ${machines(choice.local, choice.hosts)}\n`), code };
    const shown = merged.map(shownRow);
    const width = Math.min(52, Math.max(12, ...shown.map((r) => sanitizeLine(r.name).length)));
    // As on this machine alone: no hit of any machine holds every word: said, with the words each holds.
    const query = args[0] ?? '';
    const closest = verb === 'search' && !(merged as Hit[]).some((h) => holdsEvery(query, h.matched ?? []));
    const lines = shown.map((r) => {
      const line = hooks.rowLine(r, deps, width);
      const held = closest ? `[${((r as Hit).matched ?? []).map(sanitizeLine).join(' ')}] ` : '';
      return verb === 'search' ? `${line}\n    ${held}${hooks.renderSnippet((r as Hit).snippet, deps.color && r.host === undefined)}` : line;
    });
    const label = closest ? `no session holds every word of ${JSON.stringify(sanitizeLine(query))}; closest matches (the words each holds in brackets):\n` : '';
    // A cut list says so, as this machine's alone does (stderr; never with --json).
    return { out: label + lines.join('\n') + '\n', err: err + describeCutList(merged.length, counts), code };
  }
  if (verb === 'show') {
    const found = await findCards(args[0] ?? '', setup, deps, hooks, local);
    if (isResult(found)) return found;
    const { cards, err, ambiguous } = found;
    if (cards.length === 0) return { out: '', err: err + (ambiguous ? '' : `recapwrap: no session matches ${JSON.stringify(sanitizeLine(args[0] ?? ''))} on ${machines(choice.local, choice.hosts)}\n`), code: ambiguous ? 2 : 1 };
    if (cards.length > 1 || ambiguous) return { out: '', err: err + severalMachines(args[0] ?? '', cards, (c) => hooks.rowLine(shownRow(c), { ...deps, columns: Number.POSITIVE_INFINITY })), code: 2 };
    const c = cards[0] as Card;
    if (options.json) return { out: stringifyJsonSafely(c, 2) + '\n', err, code: 0 };
    return { out: renderCard(c, deps, hooks), err, code: 0 };
  }
  return fail(`${verb} does not take --host or --all-hosts`);
}

// A copy's rows as the filter asks, and how many it holds in all (counted only when the list is cut).
function listCopy(m: SessionMemory, filter: SessionFilter, tag: (row: SessionRow) => Row): CopyRead<Row> {
  const rows = m.list(filter);
  return { items: rows.map(tag), total: rows.length === filter.limit ? m.store.count(filter) : rows.length };
}

// A copy's hits, and how many sessions matched in all (as this machine's search counts them).
function searchCopy(m: SessionMemory, query: string, filter: SessionFilter, allWords: boolean | undefined, tag: (hit: SearchHit) => Hit): CopyRead<Hit> {
  const result = m.searchRanked(query, filter, { allWords });
  return 'error' in result ? [] : { items: result.hits.map(tag), total: result.total };
}

// Whether a hit's matched words are every word the search ranks by (function words only when the query has nothing else).
function holdsEvery(query: string, matched: readonly string[]): boolean {
  return rankingTerms(queryTerms(query)).every((t) => matched.includes(t.word));
}

/**
 * REF found on more than one machine (or a match here and an ambiguous one there): which, and how to
 * name one: `HOST:REF` (ids are the same on both machines of a mirror, so an id alone would not do).
 */
export function severalMachines(ref: string, cards: readonly Card[], line: (c: Card) => string): string {
  if (cards.length === 0) return '';
  const hosts = [...new Set(cards.map((c) => c.host).filter((h): h is string => h !== undefined))];
  const example = `${hosts[0] ?? 'HOST'}:${sanitizeLine(ref)}`;
  const head = cards.length > 1 ? `matches sessions on ${cards.length} machines` : 'also matches';
  return `recapwrap: ${JSON.stringify(sanitizeLine(ref))} ${head}; name one as HOST:REF (${example}; this machine's without a prefix):\n${cards.map((c) => `  ${line(c)}`).join('\n')}\n`;
}

function machines(local: boolean, hosts: readonly HostSpec[]): string {
  const names = [...(local ? ['this machine'] : []), ...hosts.map((h) => `host ${h.name}`)];
  return names.join(', ');
}

function renderCard<D extends AcrossDeps>(c: Card, deps: D, hooks: AcrossHooks<D>): string {
  if (c.host === undefined) return hooks.card(c, deps);
  const text = hooks.card({ ...c, cwd: c.cwdShown ?? c.cwd }, deps);
  const lines = text.split('\n');
  lines.splice(2, 0, `host:       ${sanitizeLine(c.host)}`);
  return lines
    // `read` reads this machine's files only (a host's session: pull it with `index --host NAME --pull`).
    .filter((l) => !l.startsWith('read:'))
    .map((l) => (l.startsWith('resume:') ? `resume:     ${formatCommandForTerminal(c.resumeCommand)}` : l))
    .map((l) => (l.startsWith('fork:') && c.forkCommand ? `fork:       ${formatCommandForTerminal(['recapwrap', 'resume', c.id, '--host', c.host as string, '--fork'])}   (${formatCommandForTerminal(c.forkCommand)})` : l))
    .join('\n');
}

/** The cards REF names on every chosen machine (0, 1 or more), with the hosts' lines. */
export async function findCards<D extends AcrossDeps>(
  ref: string, setup: HostsSetup, deps: D, hooks: Pick<AcrossHooks<D>, 'runLocal'>, local: AcrossOptions,
): Promise<{ cards: Card[]; err: string; ambiguous: boolean } | Result> {
  const { choice } = setup;
  const words = ['show', '--json', '--', ref];
  // What a host says when REF names no session there (nothing) or several (its candidates, exit 2 as here).
  const ambiguousOn: string[] = [];
  const sayAmbiguous = (host: string, count: number, candidates: readonly string[]) =>
    ambiguousOn.push(hostLine(host, `${JSON.stringify(sanitizeLine(ref))} matches ${count} sessions there; use one of these as ${host}:ID (or a longer name):`) + candidates.map((c) => `  ${c}\n`).join(''));
  const asked = Promise.all(
    choice.hosts.map(async (h): Promise<HostRead<Card>> => {
      const read = await readHost<Card>(
        h, setup, words,
        async (t) => {
          if (t.trim() === '') return { ok: true, items: [], dropped: 0 };
          const { parseRemoteFailure, parseRemoteObject, remoteCardSchema } = await schemas();
          const failure = parseRemoteFailure(t);
          if (failure) {
            if (failure.code === 2) sayAmbiguous(h.name, failure.candidates.length, failure.candidates);
            // No match there is no problem of the host's; another failure (its index broken) is said.
            else if (!/^no session (matches|is named)/.test(failure.error)) return { ok: false, error: `recapwrap there said: ${failure.error}` };
            return { ok: true, items: [], dropped: 0 };
          }
          const p = parseRemoteObject(t, remoteCardSchema);
          return p.ok ? { ok: true, items: [p.item as unknown as Card], dropped: 0 } : p;
        },
        (m, meta) => {
          const r = m.resolve(ref, { cwd: deps.cwd });
          if (!r.ok && r.kind === 'ambiguous') sayAmbiguous(h.name, r.candidates.length, r.candidates.map((c) => `${sanitizeLine(c.id)}  ${sanitizeLine(c.name)}  ${c.agent}`));
          const card = r.ok ? m.card(r.row.id) : undefined;
          return card ? [{ ...fromMirror(card, h.name, deps.env, meta), fromCopy: true } as Card] : [];
        },
        [0, 1, 2],
      );
      const { findAdapter } = await import('../../transcripts/registry.js');
      // The commands as run here: through ssh (a copy's card had this machine's; a host's own has none to trust).
      return { ...read, items: read.items.map(({ fromCopy, forkCommand: _, ...c }: Card & { fromCopy?: boolean }) => ({ ...c, host: h.name, ...resumeFor(findAdapter, h, { ...c, fromCopy }) })) };
    }),
  );
  const localAnswer = choice.local ? await hooks.runLocal(local) : undefined;
  const reads = await asked;
  const cards: Card[] = [];
  let err = '';
  let ambiguous = false;
  if (localAnswer) {
    if (localAnswer.code === 0) cards.push(JSON.parse(localAnswer.out) as Card);
    else if (localAnswer.code === 2) {
      ambiguous = true;
      err += localAnswer.err;
    } else if (!/^recapwrap: no session matches/.test(localAnswer.err)) return localAnswer;
  }
  for (const read of reads) cards.push(...read.items);
  err += hostNotes(reads) + ambiguousOn.join('');
  return { cards, err, ambiguous: ambiguous || ambiguousOn.length > 0 };
}
