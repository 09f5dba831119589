/**
 * The work of the session-memory commands (memory.ts registers them): open the index, refresh it quickly,
 * then list, search, show, name or forget. Text from transcripts is sanitized; matched words are
 * highlighted on a terminal only; an empty listing exits 1.
 */
import { resolve } from 'node:path';
import { formatExpected, resolveConfig } from '../../config/load.js';
import { getHomeDir } from '../../config/paths.js';
import { looksLikeId, normalizeUserName } from '../../memory/names.js';
import { HIT_END, HIT_START } from '../../memory/types.js';
import { AGENT_IDS, isAgentId } from '../../transcripts/agent-ids.js';
import type { AgentId } from '../../transcripts/types.js';
import { formatSince, shortenDir } from '../../util/age.js';
import { formatCount } from '../../util/plural.js';
import { sanitizeLine, stringifyJsonSafely } from '../../util/sanitize.js';
import { shellQuote } from '../../util/shell-quote.js';
import { displayWidth, truncateToWidth } from '../../util/text-width.js';
import { parseCount } from '../count-option.js';
import type { SessionCard, SessionFilter, SessionMemory, SessionRow } from '../../app/memory/api.js';
import type { MemoryCliOptions, MemoryDeps, MemoryVerb } from './memory-options.js';
import type { RefreshOptions, RefreshStats } from '../../app/memory/scan.js';

export type { MemoryCliOptions, MemoryDeps, MemoryVerb } from './memory-options.js';

/** The verbs whose REF may be `HOST:REF`. */
const HOST_REF_VERBS: readonly MemoryVerb[] = ['show', 'forget', 'name', 'note'];

interface Result {
  out: string; err: string; code: number;
  /** sessions/search: how many sessions matched in all (--json prints the list alone; --all-hosts counts with it). */
  total?: number;
}
const fail = (message: string, code = 2): Result => ({ out: '', err: `recapwrap: ${message}\n`, code });

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `30m`, `12h`, `3d`, `2w` as milliseconds; undefined when not that shape. */
export function parseAge(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([smhdw])$/i.exec(text.trim());
  const ms = m ? Number(m[1]) * (UNITS[(m[2] as string).toLowerCase()] as number) : undefined;
  // No time at all (`0d`) holds no session: refused as a bad age, not answered with an empty list.
  return ms !== undefined && ms > 0 ? ms : undefined;
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
  const limit = parseCount('--limit', options.limit, defaultLimit);
  if ('error' in limit) return fail(limit.error);
  filter.limit = limit.value;
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
 * A snippet line cut to `width` cells, then highlighted: the cut never falls inside an escape sequence,
 * and a highlight the cut left open is closed (the marks take no cell).
 */
export function fitSnippet(lead: string, snippet: string, color: boolean, width: number): string {
  const marked = lead + sanitizeLine(snippet);
  const bare = marked.replaceAll(HIT_START, '').replaceAll(HIT_END, '');
  const cut = truncateToWidth(bare, width);
  if (cut === bare) return renderSnippet(marked, color);
  // The marks put back where they stood, as far as the cut kept (the ellipsis after them).
  const keep = cut.endsWith('…') ? cut.length - 1 : cut.length;
  let out = '';
  let kept = 0;
  let open = false;
  for (const ch of marked) {
    if (ch === HIT_START || ch === HIT_END) {
      if (kept < keep || (ch === HIT_END && open)) {
        out += ch;
        open = ch === HIT_START;
      }
      continue;
    }
    if (kept >= keep) break;
    out += ch;
    kept += ch.length;
  }
  if (open) out += HIT_END;
  return renderSnippet(out.trimEnd() + cut.slice(keep), color);
}

/**
 * A row's fields that are shown as the transcript gave them (folder, id, file, agent, status), sanitized
 * for a terminal; the other text fields are sanitized where they are printed. JSON output keeps the raw
 * values, with escapes and controls written as \u escapes by stringifyJsonSafely (valid JSON, safe to print).
 */
function forDisplay<T extends SessionRow>(r: T): T {
  return { ...r, id: sanitizeLine(r.id), cwd: sanitizeLine(r.cwd), transcript: sanitizeLine(r.transcript), status: sanitizeLine(r.status) };
}

/** A headline keeps at least this many cells: at a narrow width the folder goes first, then the agent and the age. */
const HEADLINE_MIN = 30;
const FOLDER_MAX = 30;
const FOLDER_MIN = 12;
const AGENT_WIDTH = 6;
const AGE_WIDTH = 4;

// Cells of a text: its length when plain ASCII (no Unicode tables loaded for a pipe), else measured.
const cells = (text: string) => (/^[\x20-\x7e]*$/.test(text) ? text.length : displayWidth(text));
const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - cells(text)));

/** Which columns a row shows at this width: the name and the headline always. */
export function rowColumns(nameWidth: number, columns: number): { folder: number; agent: boolean; age: boolean } {
  const layout = { folder: FOLDER_MAX, agent: true, age: true };
  const used = () => nameWidth + (layout.agent ? 1 + AGENT_WIDTH : 0) + (layout.age ? 1 + AGE_WIDTH : 0) + (layout.folder ? 2 + layout.folder : 0) + 2;
  if (columns === Number.POSITIVE_INFINITY) return layout;
  if (columns - used() < HEADLINE_MIN) {
    layout.folder = Math.max(0, FOLDER_MAX - (HEADLINE_MIN - (columns - used())));
    if (layout.folder < FOLDER_MIN) layout.folder = 0;
  }
  if (columns - used() < HEADLINE_MIN) layout.agent = false;
  if (columns - used() < HEADLINE_MIN) layout.age = false;
  return layout;
}

// How to read a hit: at the prompt holding the words when one was found; else from its start (the words
// are in its name, note or summary, or the turn was not looked for); none when its transcript is gone.
function readLine(h: SessionRow & { turn?: number }): string {
  if (h.turn) return `\n    read ${sanitizeLine(h.name)} --turn ${h.turn}`;
  return h.transcriptExists ? `\n    read ${sanitizeLine(h.name)}` : '';
}

function rowLine(raw: SessionRow, deps: MemoryDeps, nameWidth = 28): string {
  const r = forDisplay(raw);
  const home = getHomeDir(deps.env);
  const layout = rowColumns(nameWidth, deps.columns);
  const gone = r.transcriptExists ? '' : ' (transcript gone)';
  let head = pad(sanitizeLine(r.name), nameWidth);
  if (layout.agent) head += ` ${r.agent.padEnd(AGENT_WIDTH)}`;
  if (layout.age) head += ` ${formatSince(r.updatedAt, deps.now).padStart(AGE_WIDTH)}`;
  if (layout.folder) head += `  ${pad(r.cwd ? shortenDir(r.cwd, home, layout.folder) : '-', layout.folder)}`;
  return truncateToWidth(`${head}  ${sanitizeLine(r.headline)}${gone}`, deps.columns);
}

// The name column: as wide as the longest name shown (names are at most ~40 cells).
const nameColumn = (rows: readonly SessionRow[]) => Math.min(44, Math.max(12, ...rows.map((r) => cells(sanitizeLine(r.name)))));

function rowJson(r: SessionRow, home: string): Record<string, unknown> {
  return { ...r, cwdShown: r.cwd ? shortenDir(r.cwd, home, 1000) : '' };
}

// An argument as typed at a shell: the home as ~ (unquoted, so the shell expands it) when the rest needs
// no quotes, else quoted by the one quoter (util/shell-quote.ts).
function shellWord(arg: string, home: string): string {
  const word = sanitizeLine(arg);
  const rest = home && word.startsWith(home + '/') ? word.slice(home.length) : undefined;
  return rest !== undefined && shellQuote(rest) === rest ? `~${rest}` : shellQuote(word);
}

function card(raw: SessionCard, deps: MemoryDeps): string {
  const c = forDisplay(raw);
  const home = getHomeDir(deps.env);
  const lines = [
    `${sanitizeLine(c.name)}  (${c.agent} ${c.id})`,
    `  ${sanitizeLine(c.title ?? c.headline)}`,
    `folder:     ${c.cwd ? shortenDir(c.cwd, home, 1000) : '-'}   project: ${sanitizeLine(c.project)}${c.gitBranch ? `   branch: ${sanitizeLine(c.gitBranch)}` : ''}`,
    `updated:    ${formatSince(c.updatedAt, deps.now)} ago (${c.updatedAt.slice(0, 16).replace('T', ' ')} UTC), started ${c.createdAt.slice(0, 16).replace('T', ' ')} UTC`,
    `activity:   ${formatCount(c.counts.prompts, 'prompt')}, ${formatCount(c.counts.turns, 'turn')}, ${formatCount(c.counts.toolCalls, 'tool call')}; ${c.status}${c.model ? `; model ${sanitizeLine(c.model)}` : ''}`,
    `recap:      ${sanitizeLine(c.line.replace(/^recap:\s*/, ''))}`,
  ];
  if (c.description) lines.push(`about:      ${sanitizeLine(c.description)}`);
  if (c.summary) lines.push(`summary:    ${sanitizeLine(c.summary)}`);
  if (c.done.length) lines.push('done:', ...c.done.slice(0, 8).map((d) => `  - ${sanitizeLine(d)}`));
  if (c.next.length) lines.push('next:', ...c.next.slice(0, 5).map((d) => `  - ${sanitizeLine(d)}`));
  const files = c.artifacts.filter((a) => a.kind === 'file').map((a) => sanitizeLine(a.locator));
  if (files.length) lines.push(`files:      ${files.slice(0, 12).join(', ')}${files.length > 12 ? `, … (${files.length})` : ''}`);
  if (c.tags.length) lines.push(`tags:       ${c.tags.map(sanitizeLine).join(', ')}`);
  lines.push(`generator:  ${c.generator.type}${c.generator.model ? ` (${sanitizeLine(c.generator.model)})` : ''}${c.noteAt ? ` (your note of ${c.noteAt.slice(0, 16).replace('T', ' ')} UTC)` : ''}`);
  lines.push(...lineageLines(c));
  // Lines made to be copied (an id, a path, a command) are printed whole: the terminal wraps them, a cut
  // would leave half an id (#43.5). The others are cut to the width.
  const whole = new Set([lines[0] as string]);
  const keep = (line: string) => (whole.add(line), line);
  lines.push(keep(`transcript: ${shortenDir(c.transcript, home, 1000)}${c.transcriptExists ? '' : '  (gone: the agent deleted it; this is what the index kept)'}`));
  if (c.transcriptExists) lines.push(keep(`read:       recapwrap read ${shellWord(c.name, home)}`));
  lines.push(keep(`resume:     recapwrap ${c.resumeCommand.map((a) => shellWord(a, home)).join(' ')}`));
  if (c.forkCommand) lines.push(keep(`fork:       recapwrap resume ${shellWord(c.name, home)} --fork   (${c.forkCommand.map((a) => shellWord(a, home)).join(' ')})`));
  return lines.map((l) => (whole.has(l) ? l : truncateToWidth(l, Math.max(deps.columns, 20)))).join('\n') + '\n';
}

/** The shortest prefix (8 characters or more) of each id that the index resolves to that session alone. */
export function uniqueIdPrefixes(ids: readonly string[], resolvesTo: (prefix: string) => string | undefined): string[] {
  return ids.map((id) => {
    for (let n = Math.min(8, id.length); n < id.length; n++) if (resolvesTo(id.slice(0, n)) === id) return id.slice(0, n);
    return id;
  });
}

function ambiguous(ref: string, candidates: readonly SessionRow[], deps: MemoryDeps, memory: SessionMemory): Result {
  if (candidates.length === 0) return { out: '', err: `recapwrap: no session matches ${JSON.stringify(sanitizeLine(ref))} (try \`recapwrap search\`)\n`, code: 1 };
  // Each row led by an id prefix that names it alone, so the next command can use it; columns aligned.
  const prefixes = uniqueIdPrefixes(candidates.map((c) => c.id), (p) => {
    const r = memory.resolve(p);
    return r.ok ? r.row.id : undefined;
  }).map(sanitizeLine);
  const idWidth = Math.max(...prefixes.map((p) => p.length));
  const width = nameColumn(candidates);
  const list = candidates.map((c, i) => truncateToWidth(`  ${(prefixes[i] as string).padEnd(idWidth)}  ${rowLine(c, { ...deps, columns: Number.POSITIVE_INFINITY }, width)}`, deps.columns)).join('\n');
  return { out: '', err: `recapwrap: ${JSON.stringify(sanitizeLine(ref))} matches ${candidates.length} sessions; use one of these id prefixes (or a longer name):\n${list}\n`, code: 2 };
}

/**
 * The session a command that writes (name, note) acts on: a transcript's path, or an exact REF (id, id
 * prefix, exact name, `@@name`), never a guess from part of a name: that one is named back, exit 1.
 */
async function resolveToWrite(memory: SessionMemory, ref: string, deps: MemoryDeps): Promise<{ ok: true; id: string } | { ok: false; result: Result }> {
  const byPath = (await import('./show-ref.js')).readShowRef(memory, ref, deps.cwd, getHomeDir(deps.env));
  if (byPath.kind === 'error') return { ok: false, result: fail(byPath.message, byPath.code) };
  if (byPath.kind === 'id' && byPath.depth === 0) return { ok: true, id: byPath.id };
  const found = memory.resolve(ref, { cwd: deps.cwd, exact: true });
  if (found.ok) return { ok: true, id: found.row.id };
  if (found.kind === 'none' && found.candidates.length > 0) return { ok: false, result: fail((await import('../../app/memory/loose-ref.js')).describeExactMiss(ref, found.candidates), 1) };
  return { ok: false, result: ambiguous(ref, found.candidates, deps, memory) };
}

// A time left is said once the read has run this long and done this share of its bytes (before, the pace
// of the first files, often the newest and smallest, says little).
const TIME_LEFT_MIN_MS = 3000;
const TIME_LEFT_MIN_SHARE = 0.02;

/**
 * What is left of a read at its pace so far: "about 40 s left" (in steps of 5 s), "about 3 min left";
 * undefined while it is too early to say (TIME_LEFT_MIN_MS, TIME_LEFT_MIN_SHARE) or when it is done.
 */
export function timeLeft(elapsedMs: number, done: number, total: number): string | undefined {
  if (!(done > 0 && done < total) || elapsedMs < TIME_LEFT_MIN_MS || done / total < TIME_LEFT_MIN_SHARE) return undefined;
  const seconds = (elapsedMs * (total - done)) / done / 1000;
  if (seconds < 60) return `about ${Math.max(5, Math.ceil(seconds / 5) * 5)} s left`;
  return `about ${Math.ceil(seconds / 60)} min left`;
}

/** The progress line of a read of many session files (a terminal only): a bar, the count, the time left. */
export function progressBar(write: (text: string) => void, now: () => number = Date.now): NonNullable<RefreshOptions['onProgress']> {
  let last = -1;
  let started: number | undefined;
  return (done, total, doneBytes, totalBytes) => {
    started ??= now();
    if (total === 0) return;
    const pct = Math.floor((done / total) * 100);
    if (pct === last && done !== total) return;
    last = pct;
    const width = 30;
    const filled = Math.round((done / total) * width);
    const left = timeLeft(now() - started, doneBytes, totalBytes);
    write(`\r\x1b[2Kindexing [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${left ? `, ${left}` : ''}`);
    if (done === total) write('\r\x1b[2K');
  };
}

/**
 * A read of many session files on a terminal: its bar (progressBar); once the files are read, while the
 * index merges what it wrote (seconds after a first index of a big home), a line saying so, which `end`
 * clears. Nothing at all when the bar was never drawn.
 */
export function progressLines(write: (text: string) => void, now: () => number = Date.now): Required<Pick<RefreshOptions, 'onProgress' | 'onMerge'>> & { end(): void } {
  let drawn = false;
  let merging = false;
  const bar = progressBar((text) => {
    drawn = true;
    write(text);
  }, now);
  return {
    onProgress: bar,
    onMerge() {
      if (!drawn) return;
      merging = true;
      write('\r\x1b[2Kindexing: merging the text indexes…');
    },
    end() {
      if (merging) write('\r\x1b[2K');
      merging = false;
    },
  };
}

// A command's quick refresh: quiet, unless many files are new (a first run on a big home): then the bar.
// A read (ifIdle) skips it while another process writes the index, and answers from its last commit.
async function quickRefresh(memory: SessionMemory, deps: MemoryDeps, ifIdle: boolean): Promise<RefreshStats> {
  if (!deps.progress) return memory.refresh({ ifIdle });
  const lines = progressLines(deps.progress);
  const bar = lines.onProgress;
  try {
    return await memory.refresh({ ifIdle, onProgress: (done, total, doneBytes, totalBytes) => total >= 200 && bar(done, total, doneBytes, totalBytes), onMerge: lines.onMerge });
  } finally {
    lines.end();
  }
}

// A read's refresh; a write that failed is said (stderr) and the read answers from the index as it is.
// ifIdle: skipped while another process holds the write lock (the read answers from the last commit).
async function refreshForRead(memory: SessionMemory, deps: MemoryDeps, notes: string[], ifIdle = true): Promise<void> {
  const stats = await quickRefresh(memory, deps, ifIdle);
  if (stats.error) notes.push(`recapwrap: warning: ${stats.error}; answering from the index as it was\n`);
  if (stats.elsewhere !== undefined) notes.push(`recapwrap: another recapwrap (pid ${stats.elsewhere}) is indexing your sessions; answering from the ${formatCount(memory.store.count(), 'session')} indexed so far\n`);
  // Said, or a session that came after the last commit would be "no session matches" with no word of why.
  if (stats.locked) notes.push('recapwrap: another process is writing the index; answering from its last commit (sessions since then are not in it yet)\n');
}

/** How often `index` looks again whether the other recapwrap it waits for has ended. */
const INDEX_WAIT_POLL_MS = 250;

// Another recapwrap reading the session files (a first `index` started in another pane): waited for, so
// the same files are not read twice at once; on a terminal, how far it got. What it left is read after.
async function waitForIndexElsewhere(memory: SessionMemory, deps: MemoryDeps): Promise<void> {
  let pid = memory.indexingElsewhere();
  if (pid === undefined) return;
  const say = deps.progress;
  if (!say) deps.log?.(`recapwrap: waiting for another recapwrap (pid ${pid}), which is indexing your sessions\n`);
  while (pid !== undefined) {
    say?.(`\r\x1b[2Kwaiting for another recapwrap (pid ${pid}), which is indexing your sessions: ${formatCount(memory.store.count(), 'session')} so far`);
    await new Promise((done) => setTimeout(done, INDEX_WAIT_POLL_MS));
    pid = memory.indexingElsewhere();
  }
  say?.('\r\x1b[2K');
}

async function open(deps: MemoryDeps): Promise<SessionMemory | Result> {
  const config = resolveConfig({ env: deps.env, cwd: deps.cwd });
  const { openSessionMemory } = await import('../../app/memory/api.js');
  const memory = await openSessionMemory({ env: deps.env, options: config.options, cwd: deps.cwd });
  if ('error' in memory) return fail(memory.error, 1);
  return memory;
}

export async function runMemoryCommand(verb: MemoryVerb, args: string[], options: MemoryCliOptions, deps: MemoryDeps): Promise<Result> {
  // HOST:REF (app/hosts/host-ref.ts): a session of a host of the config file, as with --host HOST.
  if (HOST_REF_VERBS.includes(verb) && args[0]?.includes(':')) {
    const { applyHostRef } = await import('../../app/hosts/host-ref.js');
    const applied = applyHostRef(args[0], options, deps.env, deps.cwd);
    if ('error' in applied) return options.json ? jsonOnFailure(fail(applied.error)) : fail(applied.error);
    args = [applied.ref, ...args.slice(1)];
    options = applied.flags;
  }
  // name / note HOST:REF: written there, by the host's own recapwrap (app/hosts/label-across.ts).
  if ((verb === 'name' || verb === 'note') && options.host?.length === 1 && !options.allHosts) {
    const { labelOnHost } = await import('../../app/hosts/label-across.js');
    const r = await labelOnHost(verb, options.host[0] as string, args, options, { env: deps.env, cwd: deps.cwd });
    return options.json ? jsonOnFailure(r) : r;
  }
  // forget --host NAME REF: there over ssh, and in the copy a pull made (app/hosts/forget-across.ts).
  if (verb === 'forget' && (options.allHosts || options.host?.length)) {
    const { forgetAcrossHosts } = await import('../../app/hosts/forget-across.js');
    const r = await forgetAcrossHosts(args[0], options, { env: deps.env, cwd: deps.cwd, json: options.json, yes: options.yes, folder: options.folder, confirm: deps.confirm });
    return options.json ? jsonOnFailure(r) : r;
  }
  // --host NAME / --all-hosts (#35): this machine's JSON answer merged with the hosts' (app/hosts).
  if (options.allHosts || options.host?.length || options.pull) {
    const { runAcrossHosts } = await import('../../app/hosts/memory-across.js');
    const runLocal = (o: MemoryCliOptions) => runMemoryCommand(verb, args, { ...o, host: undefined, allHosts: false, pull: false }, deps);
    const r = await runAcrossHosts(verb, args, options, deps, { runLocal, rowLine, card, renderSnippet, parseAge, parseLimit: (text, fallback) => parseCount('--limit', text, fallback) });
    return options.json ? jsonOnFailure(r) : r;
  }
  const r = await runOpened(verb, args, options, deps);
  return options.json ? jsonOnFailure(r) : r;
}

/**
 * With --json, stdout is JSON whatever happened: a failure that printed nothing there gets
 * `{"error": "…", "code": N}` (the message also stays on stderr for a person), the sessions a reference
 * matched as `candidates` when the message lists them.
 */
export function jsonOnFailure(r: Result): Result {
  if (r.code === 0 || r.out.trim() !== '') return r;
  const lines = r.err.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('recapwrap: warning: '));
  const first = lines.find((l) => l.startsWith('recapwrap: ')) ?? lines[0] ?? 'failed';
  const payload: Record<string, unknown> = { error: first.replace(/^recapwrap: /, '').replace(/[:;,]? ?(Candidates)?:?$/, ''), code: r.code };
  const listed = lines.filter((l) => l.startsWith('  '));
  if (listed.length) payload.candidates = listed.map((l) => l.trim());
  return { ...r, out: stringifyJsonSafely(payload, 2) + '\n' };
}

async function runOpened(verb: MemoryVerb, args: string[], options: MemoryCliOptions, deps: MemoryDeps): Promise<Result> {
  const opened = await open(deps);
  if (isResult(opened)) return opened;
  const memory = opened;
  const warn = memory.warning ? `recapwrap: warning: ${memory.warning}\n` : '';
  try {
    const notes: string[] = [];
    const r = await runVerb(memory, verb, args, options, deps, notes);
    return { ...r, err: warn + notes.join('') + r.err };
  } catch (error) {
    // The database failed under the command (locked past the wait, disk full): one line, exit 1.
    const failed = fail(`the session index failed: ${(error as Error).message}`, 1);
    return { ...failed, err: warn + failed.err };
  } finally {
    memory.close();
  }
}

async function runVerb(memory: SessionMemory, verb: MemoryVerb, args: string[], options: MemoryCliOptions, deps: MemoryDeps, notes: string[]): Promise<Result> {
  const home = getHomeDir(deps.env);
  if (verb === 'index') {
    if (!options.summarize && (options.limit !== undefined || options.session !== undefined)) return fail('--limit and --session go with --summarize');
    // One session's summary (the live wrapper's, just written): no scan of every folder first.
    if (options.summarize && options.session !== undefined) return (await import('./index-summarize.js')).runIndexSummarize(memory, options, deps);
    await waitForIndexElsewhere(memory, deps);
    const lines = deps.progress && !options.json ? progressLines(deps.progress) : undefined;
    let stats: RefreshStats;
    try {
      stats = await memory.refresh({ full: true, rebuild: options.rebuild, onProgress: lines?.onProgress, onMerge: lines?.onMerge });
    } finally {
      lines?.end();
    }
    const total = memory.store.count();
    // A write that failed (a full disk): said, exit 1; the sessions not written are read again next time.
    if (stats.error) return { out: options.json ? stringifyJsonSafely({ ...stats, sessions: total }, 2) + '\n' : '', err: `recapwrap: index stopped: ${stats.error}\n`, code: 1 };
    // A forget's text a reader kept in the log (forget said so) goes now, unless a reader still holds it.
    memory.store.checkpoint(0);
    if (options.summarize) return (await import('./index-summarize.js')).runIndexSummarize(memory, options, deps);
    if (options.json) return { out: stringifyJsonSafely({ ...stats, sessions: total }, 2) + '\n', err: '', code: 0 };
    // A rebuild reads every file again, changed or not; a forgotten file found is counted, never read.
    const read = options.rebuild ? `${formatCount(stats.read, 'session file')} read again` : formatCount(stats.read, 'changed session file');
    const forgotten = stats.forgotten ? `, ${stats.forgotten} forgotten` : '';
    return { out: `indexed ${stats.indexed} of ${read} (${stats.files} found, ${stats.skipped} left out${forgotten}, ${stats.gone} gone) in ${stats.ms} ms; ${total} session${total === 1 ? '' : 's'} in the index\n`, err: '', code: 0 };
  }
  if (verb === 'sessions' || verb === 'search') {
    const filter = parseFilter(options, deps, verb === 'search' ? 10 : 20);
    if (isResult(filter)) return filter;
    await refreshForRead(memory, deps, notes);
    if (verb === 'sessions') {
      const rows = memory.list(filter);
      const total = rows.length === filter.limit ? memory.store.count(filter) : rows.length;
      if (options.json) return { out: stringifyJsonSafely(rows.map((r) => rowJson(r, home)), 2) + '\n', err: '', code: rows.length ? 0 : 1, total };
      if (rows.length === 0) return { out: '', err: 'recapwrap: no sessions in the index match\n', code: 1 };
      const width = nameColumn(rows);
      // A cut list says so (stderr: the listing itself stays the sessions alone).
      const cut = total > rows.length ? `${rows.length} of ${total} sessions (--limit N for more)\n` : '';
      return { out: rows.map((r) => rowLine(r, deps, width)).join('\n') + '\n', err: cut, code: 0 };
    }
    const query = args[0] ?? '';
    const result = memory.searchRanked(query, filter, { allWords: options.allWords });
    if ('error' in result) return fail(result.error);
    // Which prompt of each hit holds the words (#41): read from the shown hits' transcripts, within a budget.
    const hits = await (await import('../../app/memory/hit-turns.js')).addHitTurns(result.hits, query, undefined, undefined, (h) => memory.store.condensedTextOf(h.transcript));
    // No hit: a typo's closest indexed word is offered ("did you mean"), in the JSON failure object too.
    const none = `no session matches ${JSON.stringify(sanitizeLine(query))}${result.suggestion ? `; did you mean ${JSON.stringify(sanitizeLine(result.suggestion))}?` : ''}`;
    if (options.json && hits.length === 0 && result.suggestion) return { out: stringifyJsonSafely({ error: none, code: 1, suggestion: result.suggestion }, 2) + '\n', err: `recapwrap: ${none}\n`, code: 1 };
    if (options.json) return { out: stringifyJsonSafely(hits.map((h) => ({ ...rowJson(h, home), snippet: plainSnippet(h.snippet), ...(h.turn ? { turn: h.turn } : {}) })), 2) + '\n', err: '', code: hits.length ? 0 : 1, total: result.total };
    if (hits.length === 0) return { out: '', err: `recapwrap: ${none}\n`, code: 1 };
    const width = nameColumn(hits);
    // No session holds every word: say so, and which words each of these closest ones holds.
    const closest = !result.complete;
    const text = hits
      .map((h) => `${rowLine(h, deps, width)}\n    ${fitSnippet(closest ? `[${h.matched.map(sanitizeLine).join(' ')}] ` : '', h.snippet, deps.color, Math.max(20, deps.columns - 4))}${readLine(h)}`)
      .join('\n');
    const label = closest ? `no session holds every word of ${JSON.stringify(sanitizeLine(query))}; closest matches (the words each holds in brackets):\n` : '';
    // A cut list says so, as `sessions` does (stderr; never with --json): the ranking counted every match.
    const cut = result.total > hits.length ? `${hits.length} of ${result.total} sessions (--limit N for more)\n` : '';
    return { out: label + text + '\n', err: cut, code: 0 };
  }
  if (verb === 'note') return runNote(memory, args, options, deps);
  if (verb === 'forget') return (await import('./forget-run.js')).runForget(memory, args[0], options, deps);
  if (verb === 'show' || verb === 'name') {
    if (verb === 'name') {
      // Bad input (exit 2) before the index is read: a name with no letter or digit, or one shaped like an id.
      const wanted = normalizeUserName(args[1] as string);
      if (!wanted) return fail(formatExpected('the name', 'letters or digits (my-login-fix)', JSON.stringify(args[1])));
      if (looksLikeId(wanted)) return fail(`the name ${sanitizeLine(wanted)} looks like a session id (a REF would be taken for one); choose a name with a word in it`);
    }
    await refreshForRead(memory, deps, notes, verb === 'show');
    if (verb === 'show') {
      // show also takes a transcript's path and REF~N (#43.7: show-ref.ts).
      const shown = (await import('./show-ref.js')).readShowRef(memory, args[0] as string, deps.cwd, home);
      if (shown.kind === 'error') return fail(shown.message, shown.code);
      const found = shown.kind === 'id' ? { ok: true as const, row: { id: shown.id } } : memory.resolve(shown.ref, { cwd: deps.cwd });
      if (!found.ok) return ambiguous(shown.kind === 'ref' ? shown.ref : (args[0] as string), found.candidates, deps, memory);
      const c = memory.card(found.row.id) as SessionCard;
      // A match on part of a name is the closest, not the one asked for: said, so no one takes it for that one.
      const guessed = 'loose' in found && shown.kind === 'ref' ? `recapwrap: ${(await import('../../app/memory/loose-ref.js')).describeLooseMatch(shown.ref, c.name, 'showing')}\n` : '';
      const parents = shown.depth > 0 ? memory.lineage(c.id, shown.depth) : undefined;
      if (options.json) return { out: stringifyJsonSafely({ ...rowJson(c, home), ...(parents ? { parents: parents.map((p) => rowJson(p, home)) } : {}) }, 2) + '\n', err: guessed, code: 0 };
      return { out: card(c, deps) + (parents ? parentCards(c, parents, shown.depth, deps) : ''), err: guessed, code: 0 };
    }
    const found = await resolveToWrite(memory, args[0] as string, deps);
    if (!found.ok) return found.result;
    const id = found.id;
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
  }
  return fail(`unknown command ${verb}`);
}

// With a note: the recap the index wrote beside it; a fork: the session it came from; and the sessions forked from it.
// `show REF~N`: the cards of the sessions REF was forked from, nearest first, or why there are none.
function parentCards(c: SessionCard, parents: readonly SessionCard[], depth: number, deps: MemoryDeps): string {
  if (parents.length === 0) return `\n~${depth}: ${sanitizeLine(c.name)} was forked from no session the index holds (~N names the sessions a fork came from)\n`;
  return parents.map((p, i) => `\n~${i + 1}: forked from, ${i === 0 ? 'its parent' : `${i + 1} generations up`}\n${card(p, deps)}`).join('');
}

function lineageLines(c: SessionCard): string[] {
  const lines: string[] = [];
  if (c.latest) lines.push(`latest:     ${sanitizeLine(c.latest.line.replace(/^recap:\s*/, ''))} (${c.latest.generator.type})`);
  if (c.parent) lines.push(`forked from ${c.parentName ? `${sanitizeLine(c.parentName)} (${sanitizeLine(c.parent)})` : sanitizeLine(c.parent)}`);
  const children = c.children ?? [];
  if (children.length) lines.push(`forks:      ${children.map((k) => `${sanitizeLine(k.name)} (${k.agent})`).join(', ')}`);
  return lines;
}

// `note REF TEXT` / `note REF --clear`: your own recap of a session, kept over every rewrite.
async function runNote(memory: SessionMemory, args: string[], options: MemoryCliOptions, deps: MemoryDeps): Promise<Result> {
  const [ref = '', text = ''] = args;
  if (options.clear && text.trim()) return fail('give a note or --clear, not both');
  if (!options.clear && !text.trim()) return fail('give the note to keep (recapwrap note REF "what it did, what is next"), or --clear');
  await quickRefresh(memory, deps, true);
  const found = await resolveToWrite(memory, ref, deps);
  if (!found.ok) return found.result;
  try {
    memory.setNote(found.id, options.clear ? undefined : text);
  } catch (error) {
    return fail((error as Error).message, 1);
  }
  const c = memory.card(found.id) as SessionCard;
  if (options.json) return { out: stringifyJsonSafely(rowJson(c, getHomeDir(deps.env)), 2) + '\n', err: '', code: 0 };
  const what = `${sanitizeLine(c.name)} (${c.agent} ${sanitizeLine(c.id)})`;
  return { out: options.clear ? `removed your note of ${what}\n` : `noted ${what}: ${sanitizeLine(c.headline)}\n`, err: '', code: 0 };
}
