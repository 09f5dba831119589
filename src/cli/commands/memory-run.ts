/**
 * The work of the session-memory commands (memory.ts registers them): open the index, refresh it quickly,
 * then list, search, show, name or forget. Text from transcripts is sanitized; matched words are
 * highlighted on a terminal only; an empty listing exits 1.
 */
import { resolve } from 'node:path';
import { formatExpected, resolveConfig } from '../../config/load.js';
import { getHomeDir, type Env } from '../../config/paths.js';
import { HIT_END, HIT_START } from '../../memory/types.js';
import { AGENT_IDS, isAgentId } from '../../transcripts/agent-ids.js';
import type { AgentId } from '../../transcripts/types.js';
import { formatSince, shortenDir } from '../../util/age.js';
import { sanitizeLine, stringifyJsonSafely } from '../../util/sanitize.js';
import { truncateToWidth } from '../../util/text-width.js';
import type { SearchHit, SessionCard, SessionFilter, SessionMemory, SessionRow } from '../../app/memory/api.js';

export type MemoryVerb = 'index' | 'sessions' | 'search' | 'show' | 'name' | 'forget';

export interface MemoryCliOptions {
  rebuild?: boolean;
  json?: boolean;
  here?: boolean;
  folder?: string;
  agent?: string;
  since?: string;
  limit?: string;
  /** search: only sessions holding every word. */
  allWords?: boolean;
  // index --summarize (index-summarize.ts)
  summarize?: boolean;
  session?: string;
  generator?: string;
  model?: string;
  llm?: boolean;
}

export interface MemoryDeps {
  env: Env;
  cwd: string;
  now: number;
  /** Terminal width (Infinity when not a terminal). */
  columns: number;
  /** Highlight matches (stdout is a terminal and NO_COLOR is unset). */
  color: boolean;
  /** Writes progress to a terminal (stderr); absent when stderr is not one. */
  progress?: (text: string) => void;
  /** Lines said as work goes (stderr), e.g. index --summarize's plan before anything is sent. */
  log?: (text: string) => void;
}

interface Result { out: string; err: string; code: number }
const fail = (message: string, code = 2): Result => ({ out: '', err: `recapwrap: ${message}\n`, code });

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `30m`, `12h`, `3d`, `2w` as milliseconds; undefined when not that shape. */
export function parseAge(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([smhdw])$/i.exec(text.trim());
  return m ? Number(m[1]) * (UNITS[(m[2] as string).toLowerCase()] as number) : undefined;
}

function parseFilter(options: MemoryCliOptions, deps: MemoryDeps, defaultLimit: number): SessionFilter | Result {
  const filter: SessionFilter = {};
  if (options.agent !== undefined) {
    if (!isAgentId(options.agent)) return fail(formatExpected('`--agent`', `one of ${AGENT_IDS.join(', ')}`, `\`${options.agent}\``));
    filter.agent = options.agent as AgentId;
  }
  if (options.here && options.folder) return fail('use --here or --folder DIR, not both');
  if (options.here) filter.folder = deps.cwd;
  if (options.folder) filter.folder = resolve(deps.cwd, options.folder.replace(/^~(?=\/|$)/, getHomeDir(deps.env)));
  if (options.since !== undefined) {
    const ms = parseAge(options.since);
    if (ms === undefined) return fail(formatExpected('`--since`', 'an age such as 30m, 12h, 3d or 2w', `\`${options.since}\``));
    filter.since = deps.now - ms;
  }
  const limit = options.limit === undefined ? defaultLimit : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) return fail(formatExpected('`--limit`', 'a whole number from 1 up', `\`${options.limit}\``));
  filter.limit = limit;
  return filter;
}

const isResult = (x: unknown): x is Result => typeof x === 'object' && x !== null && 'code' in x && 'err' in x;

/** A snippet for output: sanitized, matches bold on a terminal, markers removed otherwise. */
export function renderSnippet(snippet: string, color: boolean): string {
  // Sanitized whole (the markers are private-use characters, which it keeps), then the markers replaced.
  const clean = sanitizeLine(snippet);
  return clean.replaceAll(HIT_START, color ? '\x1b[1;33m' : '').replaceAll(HIT_END, color ? '\x1b[22;39m' : '');
}

const plainSnippet = (s: string) => renderSnippet(s, false);

/**
 * A row's fields that are shown as the transcript gave them (folder, id, file, agent, status), sanitized
 * for a terminal; the other text fields are sanitized where they are printed. JSON output keeps the raw
 * values, with escapes and controls written as \u escapes by stringifyJsonSafely (valid JSON, safe to print).
 */
function forDisplay<T extends SessionRow>(r: T): T {
  return { ...r, id: sanitizeLine(r.id), cwd: sanitizeLine(r.cwd), transcript: sanitizeLine(r.transcript), status: sanitizeLine(r.status) };
}

function rowLine(raw: SessionRow, deps: MemoryDeps, nameWidth = 28): string {
  const r = forDisplay(raw);
  const home = getHomeDir(deps.env);
  const folder = r.cwd ? shortenDir(r.cwd, home, 30) : '-';
  const gone = r.transcriptExists ? '' : ' (transcript gone)';
  const head = `${sanitizeLine(r.name).padEnd(nameWidth)} ${r.agent.padEnd(6)} ${formatSince(r.updatedAt, deps.now).padStart(3)}  ${folder.padEnd(30)}  ${sanitizeLine(r.headline)}${gone}`;
  return truncateToWidth(head, deps.columns);
}

// The name column: as wide as the longest name shown (names are at most ~40 cells).
const nameColumn = (rows: readonly SessionRow[]) => Math.min(44, Math.max(12, ...rows.map((r) => sanitizeLine(r.name).length)));

function rowJson(r: SessionRow, home: string): Record<string, unknown> {
  return { ...r, cwdShown: r.cwd ? shortenDir(r.cwd, home, 1000) : '' };
}

// An argument as typed at a shell: the home as ~ (unquoted, so the shell expands it), quoted when needed.
function shellWord(arg: string, home: string): string {
  const short = home && arg.startsWith(home + '/') ? '~' + arg.slice(home.length) : arg;
  if (/^[\w@%+=:,./~-]+$/.test(short)) return sanitizeLine(short);
  return `'${sanitizeLine(arg).replace(/'/g, "'\\''")}'`;
}

function card(raw: SessionCard, deps: MemoryDeps): string {
  const c = forDisplay(raw);
  const home = getHomeDir(deps.env);
  const lines = [
    `${sanitizeLine(c.name)}  (${c.agent} ${c.id})`,
    `  ${sanitizeLine(c.title ?? c.headline)}`,
    `folder:     ${c.cwd ? shortenDir(c.cwd, home, 1000) : '-'}   project: ${sanitizeLine(c.project)}${c.gitBranch ? `   branch: ${sanitizeLine(c.gitBranch)}` : ''}`,
    `updated:    ${formatSince(c.updatedAt, deps.now)} ago (${c.updatedAt.slice(0, 16).replace('T', ' ')} UTC), started ${c.createdAt.slice(0, 16).replace('T', ' ')} UTC`,
    `activity:   ${c.counts.prompts} prompts, ${c.counts.turns} turns, ${c.counts.toolCalls} tool calls; ${c.status}${c.model ? `; model ${sanitizeLine(c.model)}` : ''}`,
    `recap:      ${sanitizeLine(c.line.replace(/^recap:\s*/, ''))}`,
  ];
  if (c.description) lines.push(`about:      ${sanitizeLine(c.description)}`);
  if (c.summary) lines.push(`summary:    ${sanitizeLine(c.summary)}`);
  if (c.done.length) lines.push('done:', ...c.done.slice(0, 8).map((d) => `  - ${sanitizeLine(d)}`));
  if (c.next.length) lines.push('next:', ...c.next.slice(0, 5).map((d) => `  - ${sanitizeLine(d)}`));
  const files = c.artifacts.filter((a) => a.kind === 'file').map((a) => sanitizeLine(a.locator));
  if (files.length) lines.push(`files:      ${files.slice(0, 12).join(', ')}${files.length > 12 ? `, … (${files.length})` : ''}`);
  if (c.tags.length) lines.push(`tags:       ${c.tags.map(sanitizeLine).join(', ')}`);
  lines.push(`generator:  ${c.generator.type}${c.generator.model ? ` (${sanitizeLine(c.generator.model)})` : ''}`);
  lines.push(`transcript: ${shortenDir(c.transcript, home, 1000)}${c.transcriptExists ? '' : '  (gone: the agent deleted it; this is what the index kept)'}`);
  lines.push(`resume:     recapwrap ${c.resumeCommand.map((a) => shellWord(a, home)).join(' ')}`);
  return lines.map((l) => truncateToWidth(l, Math.max(deps.columns, 20))).join('\n') + '\n';
}

function ambiguous(ref: string, candidates: readonly SessionRow[], deps: MemoryDeps): Result {
  if (candidates.length === 0) return { out: '', err: `recapwrap: no session matches ${JSON.stringify(sanitizeLine(ref))} (try \`recapwrap search\`)\n`, code: 1 };
  const list = candidates.map((c) => '  ' + rowLine(c, { ...deps, columns: Number.POSITIVE_INFINITY })).join('\n');
  return { out: '', err: `recapwrap: ${JSON.stringify(sanitizeLine(ref))} matches ${candidates.length} sessions; use an id or a longer name:\n${list}\n`, code: 2 };
}

function progressBar(write: (text: string) => void): (done: number, total: number) => void {
  let last = -1;
  return (done, total) => {
    if (total === 0) return;
    const pct = Math.floor((done / total) * 100);
    if (pct === last && done !== total) return;
    last = pct;
    const width = 30;
    const filled = Math.round((done / total) * width);
    write(`\r\x1b[2Kindexing [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
    if (done === total) write('\r\x1b[2K');
  };
}

// A read command's refresh: quiet, unless many files are new (a first run on a big home): then the bar.
function quickRefresh(deps: MemoryDeps): { onProgress?: (done: number, total: number) => void } {
  if (!deps.progress) return {};
  const bar = progressBar(deps.progress);
  return { onProgress: (done, total) => total >= 200 && bar(done, total) };
}

async function open(deps: MemoryDeps): Promise<SessionMemory | Result> {
  const config = resolveConfig({ env: deps.env, cwd: deps.cwd });
  const { openSessionMemory } = await import('../../app/memory/api.js');
  const memory = await openSessionMemory({ env: deps.env, options: config.options, cwd: deps.cwd });
  if ('error' in memory) return fail(memory.error, 1);
  return memory;
}

export async function runMemoryCommand(verb: MemoryVerb, args: string[], options: MemoryCliOptions, deps: MemoryDeps): Promise<Result> {
  const opened = await open(deps);
  if (isResult(opened)) return opened;
  const memory = opened;
  const warn = memory.warning ? `recapwrap: warning: ${memory.warning}\n` : '';
  try {
    const r = await runVerb(memory, verb, args, options, deps);
    return { ...r, err: warn + r.err };
  } finally {
    memory.close();
  }
}

async function runVerb(memory: SessionMemory, verb: MemoryVerb, args: string[], options: MemoryCliOptions, deps: MemoryDeps): Promise<Result> {
  const home = getHomeDir(deps.env);
  if (verb === 'index') {
    if (!options.summarize && (options.limit !== undefined || options.session !== undefined)) return fail('--limit and --session go with --summarize');
    // One session's summary (the live wrapper's, just written): no scan of every folder first.
    if (options.summarize && options.session !== undefined) return (await import('./index-summarize.js')).runIndexSummarize(memory, options, deps);
    const stats = await memory.refresh({ rebuild: options.rebuild, onProgress: deps.progress && !options.json ? progressBar(deps.progress) : undefined });
    const total = memory.store.count();
    if (options.summarize) return (await import('./index-summarize.js')).runIndexSummarize(memory, options, deps);
    if (options.json) return { out: stringifyJsonSafely({ ...stats, sessions: total }, 2) + '\n', err: '', code: 0 };
    return { out: `indexed ${stats.indexed} of ${stats.read} changed session files (${stats.files} found, ${stats.skipped} left out, ${stats.gone} gone) in ${stats.ms} ms; ${total} sessions in the index\n`, err: '', code: 0 };
  }
  if (verb === 'sessions' || verb === 'search') {
    const filter = parseFilter(options, deps, verb === 'search' ? 10 : 20);
    if (isResult(filter)) return filter;
    await memory.refresh(quickRefresh(deps));
    if (verb === 'sessions') {
      const rows = memory.list(filter);
      if (options.json) return { out: stringifyJsonSafely(rows.map((r) => rowJson(r, home)), 2) + '\n', err: '', code: rows.length ? 0 : 1 };
      if (rows.length === 0) return { out: '', err: 'recapwrap: no sessions in the index match\n', code: 1 };
      const width = nameColumn(rows);
      return { out: rows.map((r) => rowLine(r, deps, width)).join('\n') + '\n', err: '', code: 0 };
    }
    const query = args[0] ?? '';
    const result = memory.store.search(query, filter, { allWords: options.allWords });
    if ('error' in result) return fail(result.error);
    const { toRow } = await import('../../app/memory/api.js');
    const hits: SearchHit[] = result.hits.map((h) => ({ ...toRow(h), snippet: h.snippet, score: h.score, matched: h.matched }));
    if (options.json) return { out: stringifyJsonSafely(hits.map((h) => ({ ...rowJson(h, home), snippet: plainSnippet(h.snippet) })), 2) + '\n', err: '', code: hits.length ? 0 : 1 };
    if (hits.length === 0) return { out: '', err: `recapwrap: no session matches ${JSON.stringify(sanitizeLine(query))}\n`, code: 1 };
    const width = nameColumn(hits);
    // No session holds every word: say so, and which words each of these closest ones holds.
    const closest = !result.complete;
    const text = hits
      .map((h) => `${rowLine(h, deps, width)}\n    ${truncateToWidth((closest ? `[${h.matched.map(sanitizeLine).join(' ')}] ` : '') + renderSnippet(h.snippet, deps.color), Math.max(20, deps.columns - 4))}`)
      .join('\n');
    const label = closest ? `no session holds every word of ${JSON.stringify(sanitizeLine(query))}; closest matches (the words each holds in brackets):\n` : '';
    return { out: label + text + '\n', err: '', code: 0 };
  }
  if (verb === 'show' || verb === 'name' || (verb === 'forget' && args[0] !== undefined)) {
    if (verb === 'forget' && options.folder) return fail('give a session or --folder DIR, not both');
    await memory.refresh(quickRefresh(deps));
    const ref = args[0] as string;
    const found = memory.resolve(ref, { cwd: deps.cwd });
    if (!found.ok) return ambiguous(ref, found.candidates, deps);
    const id = found.row.id;
    if (verb === 'show') {
      const c = memory.card(id) as SessionCard;
      if (options.json) return { out: stringifyJsonSafely(rowJson(c, home), 2) + '\n', err: '', code: 0 };
      return { out: card(c, deps), err: '', code: 0 };
    }
    if (verb === 'name') {
      let name: string;
      try {
        name = memory.rename(id, args[1] as string);
      } catch (error) {
        return fail((error as Error).message, 1);
      }
      const row = memory.card(id) as SessionCard;
      if (options.json) return { out: stringifyJsonSafely(rowJson(row, home), 2) + '\n', err: '', code: 0 };
      return { out: `named ${row.agent} session ${sanitizeLine(row.id)}: ${sanitizeLine(name)}\n`, err: '', code: 0 };
    }
    const n = memory.forget([id]);
    if (options.json) return { out: stringifyJsonSafely({ forgotten: n, ids: [id] }, 2) + '\n', err: '', code: 0 };
    return { out: `forgot ${sanitizeLine(found.row.name)} (${found.row.agent} ${sanitizeLine(id)}); it is not indexed again while its transcript exists\n`, err: '', code: 0 };
  }
  // forget --folder DIR
  if (!options.folder) return fail('give a session to forget, or --folder DIR');
  const dir = resolve(deps.cwd, options.folder.replace(/^~(?=\/|$)/, home));
  await memory.refresh(quickRefresh(deps));
  const n = memory.forgetFolder(dir);
  if (options.json) return { out: stringifyJsonSafely({ forgotten: n, folder: dir }, 2) + '\n', err: '', code: n ? 0 : 1 };
  if (n === 0) return { out: '', err: `recapwrap: no sessions in the index for ${shortenDir(dir, home, 1000)}\n`, code: 1 };
  return { out: `forgot ${n} session${n === 1 ? '' : 's'} of ${shortenDir(dir, home, 1000)}\n`, err: '', code: 0 };
}
