/**
 * The reader's one I/O edge (#41): a session file read whole into the document, or streamed a turn at a
 * time so the terminal shows the first screen before the rest of a 100 MB file is read. The agent's own
 * parser does the reading (a full read: ParserOptions.full and onEntry, every branch); assemble.ts makes
 * the blocks. A Claude Code sub-agent's file (`<session>/subagents/agent-*.jsonl`) is read inline at the
 * call that started it. Errors are one line (missing, unreadable, not a session file).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { openRegular } from '../transcripts/regular-file.js';
import { LineReader } from '../transcripts/line-reader.js';
import { parseJsonObject } from '../transcripts/shared-parse.js';
import { describeError, describeUndetected, readFirstLinesOf } from '../transcripts/load.js';
import { detectAgent, getAdapter } from '../transcripts/registry.js';
import type { AgentId, ParsedEntry, SessionSnapshot, ToolCallEvent, TranscriptParser } from '../transcripts/types.js';
import { DocumentAssembler, type AssembleOptions } from './assemble.js';
import { cleanLine } from './clean.js';
import type { Block, ReaderDocument, ReaderMeta } from './document.js';

const READ_CHUNK_BYTES = 1 << 18;
/** The first read is small: the first screen needs the first turns only. */
const FIRST_CHUNK_BYTES = 1 << 16;
/** Lines parsed before the header at most (Claude writes its model a few dozen lines in). */
const HEADER_LINES = 200;
/** Lines up to this long are read (a 10 MB tool output on one line is a record like any other). */
const READER_MAX_LINE_BYTES = 64 * 1024 * 1024;
/** A sub-agent file larger than this is not read inline. */
const SUBAGENT_MAX_BYTES = 32 * 1024 * 1024;
/** A whole-document transcript (older Gemini CLI) larger than this is refused. */
const WHOLE_DOCUMENT_MAX_BYTES = 256 * 1024 * 1024;

/** What the index knows of the session, shown on top (the card's recap, your note) and its prompt count. */
export interface IndexFacts {
  name?: string;
  recap?: string;
  note?: string;
  host?: string;
  /** Prompts the index counted: `N` of `› 3/N` while the file is still being read. */
  prompts?: number;
}

/** `words` (AssembleOptions): also, the stream's first `meta` is read from no line (file name and time only): no header is shown. */
export interface ReadOptions extends Pick<AssembleOptions, 'outputMaxChars' | 'textMaxChars' | 'lean' | 'previewOnly' | 'words'> {
  agent?: AgentId;
  index?: IndexFacts;
}

export interface SessionStream {
  /** What is known before the blocks: agent, id, folder, model, start, the file's last change; counts from the index when given. */
  meta: ReaderMeta;
  /** The counts in `meta` are the document's own (false while streaming unless the index gave them). */
  counted: boolean;
  blocks: AsyncGenerator<Block, void, undefined>;
  /** The meta with the document's own counts: complete once `blocks` is drained. */
  finalMeta(): ReaderMeta;
}

interface SubagentFile {
  file: string;
  label: string;
  description?: string;
}

// Claude Code's sub-agents of this session: `<project>/<sessionId>/subagents/agent-<id>.jsonl` with a
// `.meta.json` naming the call that started it (toolUseId), its type and description.
function listSubagents(file: string): { byCall: Map<string, SubagentFile>; byDescription: Map<string, SubagentFile> } {
  const byCall = new Map<string, SubagentFile>();
  const byDescription = new Map<string, SubagentFile>();
  const dir = join(dirname(file), basename(file, '.jsonl'), 'subagents');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { byCall, byDescription }; // No sub-agents (the usual case).
  }
  for (const name of names) {
    if (!name.endsWith('.meta.json')) continue;
    const jsonl = join(dir, name.replace(/\.meta\.json$/, '.jsonl'));
    try {
      const meta = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { toolUseId?: unknown; agentType?: unknown; description?: unknown };
      const description = typeof meta.description === 'string' ? meta.description : undefined;
      const type = typeof meta.agentType === 'string' ? meta.agentType : 'sub-agent';
      const sub: SubagentFile = { file: jsonl, label: description ? `${type}: ${description}` : type, description };
      if (typeof meta.toolUseId === 'string') byCall.set(meta.toolUseId, sub);
      if (description) byDescription.set(description, sub);
    } catch {
      // A meta file that is not JSON: that sub-agent is not shown inline.
    }
  }
  return { byCall, byDescription };
}

function subagentBlocks(sub: SubagentFile, options: AssembleOptions): Block[] {
  try {
    if (statSync(sub.file).size > SUBAGENT_MAX_BYTES) return [];
    const text = readFileSync(sub.file, 'utf8');
    const assembler = new DocumentAssembler(options);
    const parser = getAdapter('claude').createParser({ full: true, sidechain: true, onEntry: (entry) => assembler.push(entry) });
    for (const line of text.split('\n')) parser.push(line);
    return assembler.finish();
  } catch {
    return []; // An unreadable sub-agent file: the call shows without it.
  }
}

function childrenFinder(agent: AgentId, file: string, options: AssembleOptions): AssembleOptions['childrenOf'] {
  if (agent !== 'claude') return undefined;
  const subs = listSubagents(file);
  if (subs.byCall.size === 0 && subs.byDescription.size === 0) return undefined;
  return (call: ToolCallEvent) => {
    const input = call.input as { description?: unknown } | undefined;
    const sub = (call.callId ? subs.byCall.get(call.callId) : undefined) ?? (typeof input?.description === 'string' ? subs.byDescription.get(input.description) : undefined);
    if (!sub) return undefined;
    return { blocks: subagentBlocks(sub, options), label: sub.label };
  };
}

function metaOf(agent: AgentId, file: string, snap: SessionSnapshot, models: string[], mtimeMs: number, index: IndexFacts | undefined): ReaderMeta {
  const meta: ReaderMeta = {
    agent,
    id: cleanLine(snap.id || basename(file).replace(/\.jsonl?$/, ''), 200),
    file,
    models: models.length > 0 ? models : snap.model ? [cleanLine(snap.model, 200)] : [],
    prompts: index?.prompts ?? 0,
    answers: 0,
    toolCalls: 0,
    branches: 0,
    skipped: snap.skipped,
  };
  if (snap.cwd) meta.cwd = cleanLine(snap.cwd, 1000);
  if (snap.title) meta.title = cleanLine(snap.title, 300);
  if (snap.gitBranch) meta.gitBranch = cleanLine(snap.gitBranch, 200);
  if (snap.startedAt !== undefined) meta.startedAt = snap.startedAt;
  meta.updatedAt = snap.updatedAt !== undefined ? Math.max(snap.updatedAt, 0) : mtimeMs;
  if (index?.name) meta.name = cleanLine(index.name, 200);
  if (index?.host) meta.host = cleanLine(index.host, 200);
  if (index?.recap) meta.recap = cleanLine(index.recap, 1000);
  if (index?.note) meta.note = cleanLine(index.note, 2000);
  return meta;
}

/**
 * Stream a session file as blocks. The file is opened and its agent known before this returns (errors
 * are thrown here, one line each); the blocks are read as the caller takes them.
 */
export async function streamSession(file: string, opts: ReadOptions = {}): Promise<SessionStream> {
  let opened: Awaited<ReturnType<typeof openRegular>>;
  try {
    opened = await openRegular(file);
  } catch (error) {
    throw describeError(file, error);
  }
  const handle: FileHandle = opened.handle;
  // The time of the stat that checked the file: the header's fallback.
  const mtimeMs = opened.mtimeMs;
  let agent = opts.agent;
  let firstLines: string[] = [];
  try {
    // Sniffed through the handle read below (one open per file: search reads a file per hit).
    firstLines = await readFirstLinesOf(handle, opened.size, 5);
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw describeError(file, error);
  }
  agent ??= detectAgent(firstLines);
  if (!agent) {
    await handle.close().catch(() => undefined);
    throw new Error(await describeUndetected(file));
  }
  const adapter = getAdapter(agent);
  const assembleOptions: AssembleOptions = { outputMaxChars: opts.outputMaxChars, textMaxChars: opts.textMaxChars, lean: opts.lean, previewOnly: opts.previewOnly, words: opts.words };
  assembleOptions.childrenOf = childrenFinder(agent, file, assembleOptions);
  const assembler = new DocumentAssembler(assembleOptions);
  let entries = 0;
  const parser: TranscriptParser = adapter.createParser({
    full: true,
    // Nothing dropped from the middle: the reader shows all of the file.
    limits: { maxEvents: Number.POSITIVE_INFINITY, maxWeight: Number.POSITIVE_INFINITY },
    onEntry: (entry: ParsedEntry) => {
      entries++;
      assembler.push(entry);
    },
  });
  const whole = adapter.parseWhole !== undefined && firstLines[0] !== undefined && parseJsonObject(firstLines[0]) === undefined;
  const reader = new LineReader(READER_MAX_LINE_BYTES);
  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let left = opened.size;
  let skippedLong = 0;

  // Lines read and not yet given to the parser: the blocks are made as the caller takes them, a line
  // at a time, so the first screen needs only the first turns of the file parsed.
  let pending: string[] = [];
  let at = 0;
  const readChunk = async (bytes: number): Promise<boolean> => {
    if (left <= 0) return false;
    const { bytesRead } = await handle.read(buffer, 0, Math.min(bytes, left), null);
    if (bytesRead === 0) return false;
    left -= bytesRead;
    pending = pending.slice(at).concat(reader.push(buffer.subarray(0, bytesRead)));
    at = 0;
    return true;
  };
  let snap: SessionSnapshot | undefined;
  let finished = false;
  let wholeSnap: SessionSnapshot | undefined;
  try {
    if (whole) {
      if (opened.size > WHOLE_DOCUMENT_MAX_BYTES) throw new Error(`${file} is one JSON document of ${Math.round(opened.size / 1048576)} MB, over the ${WHOLE_DOCUMENT_MAX_BYTES / 1048576} MB read whole`);
      const chunks: Buffer[] = [];
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, left), null);
        if (bytesRead === 0 || left <= 0) break;
        left -= bytesRead;
        chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
      }
      wholeSnap = adapter.parseWhole?.(Buffer.concat(chunks).toString('utf8'));
    } else {
      await readChunk(FIRST_CHUNK_BYTES);
      // The header's facts (id, folder, model) come from the first lines (not for `words`: search's turn
      // lookup shows no header, and stops as soon as a block holds the words).
      for (let seen = 0; !opts.words && at < pending.length && seen < HEADER_LINES; seen++) {
        parser.push(pending[at++] as string);
        if (seen % 8 === 7) {
          const s = parser.snapshot();
          if (s.cwd && s.model) break;
        }
      }
    }
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error instanceof Error && (error as NodeJS.ErrnoException).code === undefined ? error : describeError(file, error);
  }
  const first = wholeSnap ?? parser.snapshot();
  const meta = metaOf(agent, file, first, [], mtimeMs, opts.index);

  // A format's events read whole: made into blocks one after the other, handed out as they are ready.
  function* eventBlocks(events: SessionSnapshot['events']): Generator<Block, void, undefined> {
    for (const e of events) {
      assembler.pushEvents([e]);
      const ready = assembler.take();
      if (ready.length > 0) yield* ready;
    }
  }

  async function* blocks(): AsyncGenerator<Block, void, undefined> {
    try {
      if (wholeSnap) {
        yield* eventBlocks(wholeSnap.events);
      } else {
        yield* assembler.take();
        do {
          while (at < pending.length) {
            parser.push(pending[at++] as string);
            const ready = assembler.take();
            if (ready.length > 0) yield* ready;
          }
        } while (await readChunk(READ_CHUNK_BYTES));
        const last = reader.flush();
        if (last !== undefined) parser.push(last);
        skippedLong = reader.skippedLongLines;
        snap = parser.snapshot();
        // A format whose parser hands no entries (Gemini CLI: messages rewritten by id): its events, read whole.
        if (entries === 0) yield* eventBlocks(snap.events);
      }
      yield* assembler.finish();
      finished = true;
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  const finalMeta = (): ReaderMeta => {
    const s = wholeSnap ?? snap ?? first;
    const c = assembler.counts;
    const m = metaOf(agent, file, s, c.models, mtimeMs, opts.index);
    if (c.title && !m.title) m.title = c.title;
    return { ...m, prompts: finished || c.prompts > 0 ? c.prompts : m.prompts, answers: c.answers, toolCalls: c.toolCalls, branches: c.branches, currentBranch: c.currentBranch, skipped: s.skipped + skippedLong };
  };
  return { meta, counted: opts.index?.prompts !== undefined, blocks: blocks(), finalMeta };
}

/** The whole document of a session file (for --md, --html, --outline and tests). */
export async function buildDocument(file: string, opts: ReadOptions = {}): Promise<ReaderDocument> {
  const stream = await streamSession(file, opts);
  const blocks: Block[] = [];
  for await (const b of stream.blocks) blocks.push(b);
  return { meta: stream.finalMeta(), blocks };
}
