/**
 * `recapwrap read [REF]` (#41): the session REF names (a transcript path, an id, an id prefix, a name,
 * `@@name`; no REF: the live session of this recapwrap pane, or of `--pane ID`), rendered by the reader:
 * streamed through $PAGER on a terminal (default `less -R`), plain text when piped. Loaded only when
 * `read` runs. Errors are one line; exit codes as `show` (1 not found or unreadable, 2 bad input or an
 * ambiguous REF).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { formatExpected, resolveConfig } from '../../config/load.js';
import { getHomeDir, getStateDir, type Env } from '../../config/paths.js';
import { readLiveStates } from '../../display/state-file.js';
import { AGENT_IDS, isAgentId } from '../../transcripts/agent-ids.js';
import type { AgentId } from '../../transcripts/types.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { buildDocument, streamSession, type IndexFacts } from '../../reader/build.js';
import type { Block, ReaderView } from '../../reader/document.js';
import { findAnchor } from '../../reader/find-anchor.js';
import { renderOutline } from '../../reader/outline.js';
import { checkExportFlags } from './read-export-flags.js';
import { findLiveState } from './status.js';
import { parseWidth, WIDTH_MAX_CELLS, WIDTH_MIN_CELLS } from '../width-option.js';

export interface ReadCliOptions {
  focused?: boolean;
  full?: boolean;
  thinking?: boolean;
  turn?: string;
  at?: string;
  outline?: boolean;
  width?: string;
  pane?: string;
  agent?: string;
  color?: boolean;
  pager?: boolean;
  md?: boolean;
  html?: string;
  /** Read a host's session from the copy `index --host NAME --pull` made here. */
  host?: string;
}

export interface ReadDeps {
  env: Env;
  cwd: string;
  /** stdout is a terminal: the pager and colours. */
  tty: boolean;
  /** The terminal's width (when a terminal). */
  columns?: number;
  stdout: Writable;
  stderr: (text: string) => void;
}

const PIPED_WIDTH = 80;
const MIN_WIDTH = WIDTH_MIN_CELLS;
const MAX_WIDTH = WIDTH_MAX_CELLS;
const DEFAULT_PAGER = 'less -R';
/** Files up to this size are read whole before the first line is shown (fast enough, and the counts are known). */
const WHOLE_READ_MAX_BYTES = 8 * 1024 * 1024;

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0; // The read below says what is wrong with it.
  }
}

type Target = { file: string; index?: IndexFacts; agent?: AgentId } | { error: string; code: number };

const fail = (error: string, code: number): { error: string; code: number } => ({ error, code });

function looksLikePath(ref: string): boolean {
  return ref.includes('/') || /\.jsonl?$/.test(ref) || ref.startsWith('~');
}

// The session of this recapwrap pane ($TMUX_PANE), of --pane ID, else the live one of this folder.
function liveTarget(pane: string | undefined, deps: ReadDeps): Target {
  const states = readLiveStates(getStateDir(deps.env), { prune: true });
  const state = findLiveState(states, pane ?? deps.env.TMUX_PANE, deps.cwd);
  if (!state) {
    if (pane) return fail(`no live recapwrap session in pane ${sanitizeLine(pane)} (recapwrap ls lists them)`, 1);
    return fail('no REF given and no live recapwrap session here; name one: recapwrap read NAME|ID|FILE (recapwrap sessions lists them)', 2);
  }
  if (!state.sessionFile) return fail(`the live ${sanitizeLine(state.agent ?? state.command)} session${state.tmuxPane ? ` in pane ${sanitizeLine(state.tmuxPane)}` : ''} has no transcript yet (its agent writes it at the first prompt)`, 1);
  return { file: state.sessionFile, ...(state.agent && isAgentId(state.agent) ? { agent: state.agent } : {}) };
}

// A host's session, from the copy of its session files pulled here (`index --host NAME --pull`), found
// through that copy's own index; its paths are this machine's copy.
async function hostTarget(ref: string, host: string, deps: ReadDeps): Promise<Target> {
  const { mirrorEnv, readMirrorMeta } = await import('../../app/hosts/mirror.js');
  if (!/^[\w.@-]{1,200}$/.test(host)) return fail(formatExpected('`--host`', 'the name of a host of the config file', `\`${sanitizeLine(host)}\``), 2);
  if (!readMirrorMeta(deps.env, host)) return fail(`no copy of ${host}'s sessions here: read reads files of this machine; pull them first: recapwrap index --host ${host} --pull`, 1);
  const found = await indexTarget(ref, { ...deps, env: mirrorEnv(deps.env, host) });
  if ('error' in found) return found;
  return { ...found, index: { ...found.index, host } };
}

// A name, id or prefix through the index (refreshed first, as `show` does).
async function indexTarget(ref: string, deps: ReadDeps): Promise<Target> {
  const config = resolveConfig({ env: deps.env, cwd: deps.cwd });
  const { openSessionMemory } = await import('../../app/memory/api.js');
  const memory = await openSessionMemory({ env: deps.env, options: config.options, cwd: deps.cwd });
  if ('error' in memory) return fail(memory.error, 1);
  try {
    await memory.refresh({ ifIdle: true });
    const found = memory.resolve(ref, { cwd: deps.cwd });
    if (!found.ok) {
      if (found.candidates.length === 0) return fail(`no session matches ${JSON.stringify(sanitizeLine(ref))} (try \`recapwrap search\`)`, 1);
      const list = found.candidates.map((c) => `  ${sanitizeLine(c.id.slice(0, 12))}  ${sanitizeLine(c.name)}  (${c.agent}, ${sanitizeLine(c.cwd)})`).join('\n');
      return fail(`${JSON.stringify(sanitizeLine(ref))} matches ${found.candidates.length} sessions; use an id prefix or a longer name:\n${list}`, 2);
    }
    const card = memory.card(found.row.id);
    if (!card) return fail(`no session matches ${JSON.stringify(sanitizeLine(ref))}`, 1);
    // A match on part of a name is the closest, not the one asked for: said before it is read.
    if (found.loose) deps.stderr(`recapwrap: ${(await import('../../app/memory/loose-ref.js')).describeLooseMatch(ref, card.name, 'reading')}\n`);
    if (!card.transcriptExists || !existsSync(card.transcript)) {
      return fail(`the transcript of ${sanitizeLine(card.name)} is gone (${sanitizeLine(card.transcript)}); what the index kept: recapwrap show ${sanitizeLine(card.name)}`, 1);
    }
    const strip = (line: string) => line.replace(/^recap:\s*/, '');
    const own = card.generator.type === 'user_edited';
    const index: IndexFacts = { name: card.name, prompts: card.counts.prompts };
    if (own) {
      index.note = strip(card.line);
      if (card.latest) index.recap = strip(card.latest.line);
    } else index.recap = strip(card.line);
    return { file: card.transcript, index, agent: card.agent };
  } finally {
    memory.close();
  }
}

async function resolveTarget(ref: string | undefined, options: ReadCliOptions, deps: ReadDeps): Promise<Target> {
  if ((ref === undefined || ref === '') && options.host !== undefined) return fail('with --host, name the session: recapwrap read REF --host NAME', 2);
  if (ref === undefined || ref === '') return liveTarget(options.pane, deps);
  if (options.pane) return fail('give a REF or --pane ID, not both', 2);
  if (options.host !== undefined) return hostTarget(ref, options.host, deps);
  if (looksLikePath(ref)) {
    const file = resolve(deps.cwd, ref.replace(/^~(?=\/|$)/, getHomeDir(deps.env)));
    if (existsSync(file) || ref.includes('/')) return { file };
  }
  // A file of that name here wins over the index (`read session.jsonl`).
  if (existsSync(resolve(deps.cwd, ref)) && statSync(resolve(deps.cwd, ref)).isFile()) return { file: resolve(deps.cwd, ref) };
  return indexTarget(ref, deps);
}

// No upper bound said when there is none to say (a prompt number: the session's count is known once read).
function parseWhole(flag: string, text: string | undefined, min: number, max?: number): number | { error: string } | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || (max !== undefined && n > max)) return { error: formatExpected(`\`${flag}\``, `a whole number from ${min}${max === undefined ? '' : ` to ${max}`}`, `\`${text}\``) };
  return n;
}

/** Where the rendering goes: the pager's stdin on a terminal, else stdout; `closed` once the reader stopped reading. */
/** The pager's exit when the shell could not run it (not found, not executable). */
const PAGER_NOT_RUN = new Set([126, 127]);

function openSink(deps: ReadDeps, usePager: boolean): { out: Writable; closed: () => boolean; done: () => Promise<string | undefined> } {
  let closed = false;
  if (usePager) {
    const command = deps.env.PAGER?.trim() || DEFAULT_PAGER;
    // `less` without -R shows colours as text: give it R unless the user set LESS.
    const env = { ...deps.env, LESS: deps.env.LESS ?? 'R' };
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'inherit', 'inherit'], env });
    const exited = new Promise<number | null>((done) => {
      child.on('close', (code) => done(code));
      child.on('error', () => done(127));
    });
    child.stdin.on('error', () => {
      closed = true; // the pager quit (q) before everything was written
    });
    child.on('close', () => {
      closed = true;
    });
    return {
      out: child.stdin,
      closed: () => closed,
      // A pager that could not be run: said, so the text is not lost without a word.
      done: async () => {
        child.stdin.end();
        const code = await exited;
        return code !== null && PAGER_NOT_RUN.has(code) ? `the pager \`${sanitizeLine(command)}\` could not be run (exit ${code}); set $PAGER, or use --no-pager` : undefined;
      },
    };
  }
  deps.stdout.on('error', () => {
    closed = true; // `read | head`: the reader went away
  });
  return { out: deps.stdout, closed: () => closed, done: async () => undefined };
}

// Write with backpressure; false once the reader is gone.
async function write(out: Writable, text: string, closed: () => boolean): Promise<boolean> {
  if (closed()) return false;
  if (out.write(text)) return !closed();
  await new Promise<void>((done) => {
    const finish = () => {
      out.off('drain', finish);
      out.off('close', finish);
      out.off('error', finish);
      done();
    };
    out.on('drain', finish);
    out.on('close', finish);
    out.on('error', finish);
  });
  return !closed();
}

/** Run `read`; resolves to the exit code (output already written). */
export async function runRead(ref: string | undefined, options: ReadCliOptions, deps: ReadDeps): Promise<number> {
  const err = (text: string, code: number) => {
    deps.stderr(`recapwrap: ${text}\n`);
    return code;
  };
  if (options.focused && options.full) return err('use --focused or --full, not both', 2);
  if (options.turn !== undefined && options.at !== undefined) return err('use --turn N or --at WORDS, not both', 2);
  if (options.agent !== undefined && !isAgentId(options.agent)) return err(formatExpected('`--agent`', `one of ${AGENT_IDS.join(', ')}`, `\`${options.agent}\``), 2);
  const given = parseWidth(options.width);
  if ('error' in given) return err(given.error, 2);
  const width = given.value;
  const turn = parseWhole('--turn', options.turn, 1);
  if (typeof turn === 'object') return err(turn.error, 2);
  if (options.at !== undefined && !options.at.trim()) return err('`--at` needs words to look for', 2);
  const exportConflict = checkExportFlags(options);
  if (exportConflict) return err(exportConflict, 2);

  const target = await resolveTarget(ref, options, deps);
  if ('error' in target) return err(target.error, target.code);
  const agent = (options.agent as AgentId | undefined) ?? target.agent;
  const view: ReaderView = options.focused ? 'focused' : options.full ? 'full' : 'default';
  const cells = width ?? (deps.tty ? Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, deps.columns ?? PIPED_WIDTH)) : PIPED_WIDTH);
  const color = options.color ?? (deps.tty && !deps.env.NO_COLOR);
  const readOptions = { agent, index: target.index, ...(view === 'full' ? { outputMaxChars: 1024 * 1024 } : {}) };
  if (options.md || options.html !== undefined) {
    const { runReadExport } = await import('./read-export.js');
    return runReadExport(options, { file: target.file, readOptions, view, thinking: Boolean(options.thinking), turn, at: options.at }, { ...deps, home: getHomeDir(deps.env) });
  }

  let stream;
  try {
    // A file of a usual size is read whole first (its counts and `N` known); a big one is streamed.
    if (options.outline || options.at !== undefined || fileSize(target.file) <= WHOLE_READ_MAX_BYTES) {
      const doc = await buildDocument(target.file, { ...readOptions, lean: options.outline });
      if (options.outline) {
        const sink = openSink(deps, deps.tty && options.pager !== false);
        await write(sink.out, renderOutline(doc, { width: cells }), sink.closed);
        const failed = await sink.done();
        return failed ? err(failed, 1) : 0;
      }
      let at = 0;
      if (options.at !== undefined) {
        const hit = findAnchor(doc, options.at);
        if (!hit) return err(`no message of this session holds ${JSON.stringify(sanitizeLine(options.at))}`, 1);
        at = doc.blocks.findIndex((b) => b.anchor === hit.anchor);
      }
      stream = { meta: doc.meta, counted: true, blocks: (async function* () { yield* doc.blocks.slice(at); })(), finalMeta: () => doc.meta };
    } else stream = await streamSession(target.file, readOptions);
  } catch (error) {
    return err((error as Error).message.split('\n')[0] as string, 1);
  }

  if (turn !== undefined && stream.counted && turn > stream.meta.prompts) return err(`no prompt ${turn}: the session has ${stream.meta.prompts} prompt${stream.meta.prompts === 1 ? '' : 's'}`, 1);
  // Loaded here: the outline and the exports need neither it nor markdown-it.
  const { TerminalRenderer } = await import('../../reader/terminal.js');
  const renderer = new TerminalRenderer({ view, thinking: options.thinking, width: cells, color, cwd: stream.meta.cwd, home: getHomeDir(deps.env), ...(stream.counted ? { prompts: stream.meta.prompts } : {}) });
  const sink = openSink(deps, deps.tty && options.pager !== false);
  // Writes until the reader is gone (q in the pager, a closed pipe) or the session ends; the exit code.
  const pump = async (): Promise<number> => {
    if (!(await write(sink.out, `${renderer.header(stream.meta, stream.counted).join('\n')}\n`, sink.closed))) return 0;
    let started = turn === undefined;
    let seen = 0;
    let batch: string[] = [];
    const flush = async () => {
      const text = batch.length > 0 ? `${batch.join('\n')}\n` : '';
      batch = [];
      return text ? write(sink.out, text, sink.closed) : !sink.closed();
    };
    for await (const b of stream.blocks as AsyncIterable<Block>) {
      if (b.kind === 'prompt') seen = Math.max(seen, b.turn);
      if (!started) {
        if (b.kind === 'prompt' && !b.command && b.turn === turn) started = true;
        else continue;
      }
      batch.push(...renderer.block(b));
      // A turn at a time (or every 200 lines): the first screen is out before the rest is read.
      if (b.kind === 'prompt' || batch.length > 200) {
        if (!(await flush())) {
          await stream.blocks.return?.(undefined);
          return 0;
        }
      }
    }
    await flush();
    return started ? 0 : err(`no prompt ${turn as number}: the session has ${seen} prompt${seen === 1 ? '' : 's'}`, 1);
  };
  let code: number;
  try {
    code = await pump();
  } catch (error) {
    code = err((error as Error).message.split('\n')[0] as string, 1);
  }
  const failed = await sink.done();
  if (failed) code = err(failed, 1);
  return code;
}
