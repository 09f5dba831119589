/**
 * One changed session file read whole into the row the index would store, or the reason it stores none:
 * the rules the scan applies to every file it reads whole, shared by the scan's own thread and its read
 * pool's worker threads (read-pool.ts), so both end a file the same way. No database here: the caller writes.
 */
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import type { SessionWrite } from '../../memory/types.js';
import type { RecapEngine } from '../../recap/engine.js';
import type { AgentId, Session, SessionFileInfo } from '../../transcripts/types.js';

/** What a file read needs to know of the scan (plain data: it is posted to the worker threads). */
export interface ReadContext {
  env: Env;
  home: string;
  cwd: string;
  /** Only sessions under these folders are indexed; [] = every folder. */
  folders: string[];
  options: Options;
}

/**
 * How a file read whole ends: its row; `unreadable` (nothing in it to index, or it could not be read or
 * parsed: `error` says why, for the debug log); `excluded` (its folder is outside the allowed ones).
 */
export type WholeRead = { kind: 'write'; write: SessionWrite } | { kind: 'unreadable'; error?: string } | { kind: 'excluded' };

/**
 * The file of a scan to read, as posted to a worker thread (what SessionFileInfo holds that a read uses).
 * `grownFrom`: the file grew from this byte, up to which its row's words hold every word (scan.ts): only
 * the texts after it are taken apart for words, and those words are added to the row's; `prevText` is the
 * row's condensed text (its lines' words are not added again).
 */
export type FileToRead = Pick<SessionFileInfo, 'file' | 'agent' | 'size' | 'mtimeMs'> & { grownFrom?: number; prevText?: string };

export function folderAllowed(cwd: string, folders: readonly string[]): boolean {
  return folders.length === 0 || folders.some((f) => cwd === f || cwd.startsWith(f.endsWith('/') ? f : f + '/'));
}

// What reading a changed file takes (parsers, the heuristic recap engine): loaded only when some file
// changed, so a refresh that finds nothing new (every read command's) loads none of it.
export async function loadReaders() {
  const [load, registry, engine, write] = await Promise.all([
    import('../../transcripts/load.js'),
    import('../../transcripts/registry.js'),
    import('../recaps/recap-engine.js'),
    import('./session-write.js'),
  ]);
  return { loadSessionFile: load.loadSessionFile, loadSessionTail: load.loadSessionTail, findAdapter: registry.findAdapter, createEngine: engine.createEngine, sessionWrite: write.sessionWrite, tailWrite: write.tailWrite, cardWindow: write.cardWindow, vocabularyFor: write.vocabularyFor, grownVocabularyFor: write.grownVocabularyFor };
}
export type Readers = Awaited<ReturnType<typeof loadReaders>>;

/** A file being loaded, and the vocabulary its loader fills. */
export interface Loading {
  file: string;
  loading: Promise<Session>;
  words: (said: string) => string;
  /** FileToRead's grownFrom (0: the words are all the file's). */
  grownFrom: number;
}

export interface WholeReader {
  /** The heuristic recap engine of an agent (one per agent, made on first use). */
  engineFor(agent: AgentId): RecapEngine;
  /** Starts loading a file (its failure is met when `finish` awaits it). */
  load(f: FileToRead): Loading;
  /** The row of a loaded file, or why none; a file that cannot be read or parsed ends `unreadable`. */
  finish(f: FileToRead, loaded: Loading): Promise<WholeRead>;
}

export function wholeReader(ctx: ReadContext, lib: Readers): WholeReader {
  const engines = new Map<AgentId, RecapEngine>();
  const engineFor = (agent: AgentId) => {
    let e = engines.get(agent);
    if (!e) engines.set(agent, (e = lib.createEngine({ options: { ...ctx.options, llm: false, generator: 'heuristic' }, agent, env: ctx.env })));
    return e;
  };
  return {
    engineFor,
    // Each file read with a vocabulary of its own: every word of every text it holds (vocabulary.ts).
    load(f) {
      const grownFrom = f.grownFrom ?? 0;
      const vocabulary = grownFrom > 0 ? lib.grownVocabularyFor(f.prevText ?? '') : lib.vocabularyFor();
      const loading = lib.loadSessionFile(f.file, { agent: f.agent, onText: vocabulary.onText, wholeFile: true, textsFrom: grownFrom });
      loading.catch(() => undefined); // its failure is met when finish awaits it
      return { file: f.file, loading, words: vocabulary.words, grownFrom };
    },
    async finish(f, loaded) {
      try {
        const session = await loaded.loading;
        if (!session.cwd) {
          const cwd = await lib.findAdapter(f.agent)?.folderOfFile?.(f.file, ctx).catch(() => undefined);
          if (cwd) session.cwd = cwd;
        }
        if (session.events.length === 0 && !session.title) return { kind: 'unreadable' };
        if (!folderAllowed(session.cwd ?? '', ctx.folders)) return { kind: 'excluded' };
        const write = lib.sessionWrite(session, engineFor(f.agent), f, loaded.words);
        if (loaded.grownFrom > 0) Object.assign(write, { wordsAppend: true, wordsFrom: loaded.grownFrom });
        return { kind: 'write', write };
      } catch (error) {
        return { kind: 'unreadable', error: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
