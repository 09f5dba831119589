/**
 * Loads a whole session file into a Session (for `recapwrap recap`, `transcript`, `resume`): streams the
 * file through the adapter's parser in bounded chunks, so a 100 MB transcript is never in memory at once.
 * Unlike parsers, this is a CLI edge: a missing file or an unknown format is an Error with one clear line.
 * Only regular files are read (a FIFO or a device is refused at once, never waited on), and no further
 * than the size the file had when opened (a file still growing is read as it was then).
 */
import type { FileHandle } from 'node:fs/promises';
import { openRegular } from './regular-file.js';
import { parseJsonObject } from './shared-parse.js';
import { LineReader } from './line-reader.js';
import { formatAgentIds } from './agent-ids.js';
import { detectAgent, getAdapter } from './registry.js';
import type { AgentId, ParserOptions, Session } from './types.js';

const SNIFF_BYTES = 64 * 1024;
const READ_CHUNK_BYTES = 1 << 18;
/** A single-document transcript (older Gemini CLI) is read whole: past this it is refused, not read. */
export const MAX_WHOLE_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** A read error said in one line the user can act on (missing, permission, folder, not a regular file). */
export function describeError(file: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new Error(`No such file: ${file}`, { cause: error });
  if (code === 'EACCES' || code === 'EPERM') return new Error(`Cannot read ${file}: permission denied`, { cause: error });
  if (code === 'EISDIR') return new Error(`${file} is a folder, not a session file`, { cause: error });
  if (code === 'ENOTREG') return new Error(`${file} is not a regular file (a FIFO, device or socket); recapwrap reads only session files`, { cause: error });
  return new Error(`Cannot read ${file}: ${(error as Error).message}`, { cause: error });
}

/** The first lines of a file (from its first 64 KB), for content detection. */
export async function readFirstLines(file: string, maxLines = 5): Promise<string[]> {
  let handle;
  try {
    const opened = await openRegular(file);
    handle = opened.handle;
    return await readFirstLinesOf(handle, opened.size, maxLines);
  } catch (error) {
    throw describeError(file, error);
  } finally {
    await handle?.close();
  }
}

/** readFirstLines from a file already open (its size when opened): the reader's builder sniffs the handle it reads. */
export async function readFirstLinesOf(handle: FileHandle, size: number, maxLines = 5): Promise<string[]> {
  const buffer = Buffer.alloc(Math.min(SNIFF_BYTES, size));
  // At position 0: the handle's own position (where a later read without one starts) does not move.
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
  const reader = new LineReader(SNIFF_BYTES);
  const lines = reader.push(buffer.subarray(0, bytesRead));
  const tail = reader.flush();
  if (tail !== undefined && lines.length < maxLines) lines.push(tail);
  return lines.filter((l) => l.trim()).slice(0, maxLines);
}

async function startsWithJsonLine(file: string): Promise<boolean> {
  const first = (await readFirstLines(file, 1))[0];
  return first !== undefined && parseJsonObject(first) !== undefined;
}

export async function detectAgentFromFile(file: string): Promise<AgentId | undefined> {
  return detectAgent(await readFirstLines(file));
}

/**
 * Why no agent was recognised, said the way the user can act on it (#28 point 8): an empty file is
 * empty (no --agent helps), a first line too long to sniff says so; anything else asks for --agent.
 */
export async function describeUndetected(file: string): Promise<string> {
  let first: string[] = [];
  let size = 0;
  try {
    const opened = await openRegular(file);
    size = opened.size;
    await opened.handle.close();
    first = await readFirstLines(file, 1);
  } catch (error) {
    throw describeError(file, error);
  }
  if (first.length === 0 && size <= SNIFF_BYTES) return `${file} is empty: no session in it`;
  if (first.length === 0) return `Cannot tell which agent wrote ${file}: its first line is longer than the ${SNIFF_BYTES / 1024} KB read to recognise it; pass --agent (${formatAgentIds(',')})`;
  return `Cannot tell which agent wrote ${file}; pass --agent (${formatAgentIds(',')})`;
}

// The parser options a loader's caller asked for (the index's: every text, the file by all it holds).
function parserOptions(opts: { onText?: (text: string) => void; wholeFile?: boolean }): ParserOptions {
  const out: ParserOptions = {};
  if (opts.onText) out.onText = opts.onText;
  if (opts.wholeFile) out.wholeFile = true;
  return out;
}

/**
 * `textsFrom`: `onText` gets only the texts of the lines after that byte (the file read whole all the
 * same); a single JSON document (read whole at once) gives them all.
 */
export async function loadSessionFile(file: string, opts: { agent?: AgentId; onText?: (text: string) => void; wholeFile?: boolean; textsFrom?: number } = {}): Promise<Session> {
  // Refuse what is not a regular file before anything else (an --agent given skips the sniff below).
  try {
    await (await openRegular(file)).handle.close();
  } catch (error) {
    throw describeError(file, error);
  }
  const agent = opts.agent ?? (await detectAgentFromFile(file));
  if (!agent) throw new Error(await describeUndetected(file));
  const adapter = getAdapter(agent);
  const from = opts.textsFrom ?? 0;
  let texts = from <= 0;
  const onText = opts.onText;
  if (onText && !texts) opts = { ...opts, onText: (text) => texts && onText(text) };
  if (adapter.parseWhole && !(await startsWithJsonLine(file))) {
    texts = true;
    // A single JSON document (older Gemini CLI): these are small, rewritten whole by the agent.
    let content: string;
    let whole: FileHandle | undefined;
    try {
      const opened = await openRegular(file);
      whole = opened.handle;
      if (opened.size > MAX_WHOLE_DOCUMENT_BYTES) throw new Error(`it is one JSON document of ${Math.round(opened.size / 1048576)} MB, over the ${MAX_WHOLE_DOCUMENT_BYTES / 1048576} MB read whole`);
      const buffer = Buffer.alloc(opened.size);
      let at = 0;
      while (at < buffer.length) {
        const { bytesRead } = await whole.read(buffer, at, buffer.length - at, at);
        if (bytesRead === 0) break;
        at += bytesRead;
      }
      content = buffer.subarray(0, at).toString('utf8');
    } catch (error) {
      throw describeError(file, error);
    } finally {
      await whole?.close().catch(() => undefined);
    }
    return { ...adapter.parseWhole(content, parserOptions(opts)), file };
  }
  const parser = adapter.createParser(parserOptions(opts));
  const reader = new LineReader();
  // Two read buffers, reused in turn: the next read runs while this chunk is parsed (one at a time,
  // the loop sat idle for a sixth of a 100 MB load). Reused rather than fresh per read: a stream's new
  // chunk per read is memory outside the JS heap that waits for a GC, and it added ~70 MB to the peak
  // RSS of loading 100 MB. The reader copies the partial last line it keeps, so reuse is safe.
  const buffers = [Buffer.allocUnsafe(READ_CHUNK_BYTES), Buffer.allocUnsafe(READ_CHUNK_BYTES)] as const;
  let handle: FileHandle | undefined;
  let pending: Promise<{ bytesRead: number; buffer: Buffer }> | undefined;
  try {
    const opened = await openRegular(file);
    handle = opened.handle;
    const fh = opened.handle;
    // No further than the size at open: bounded even if the file grows without end while we read.
    let left = opened.size;
    // Bytes asked for so far, and parsed: no read crosses `textsFrom`, so the lines before it are parsed
    // (texts not given) before any after it.
    let asked = 0;
    let parsed = 0;
    const readInto = async (buffer: Buffer) => {
      let want = Math.min(buffer.length, left);
      if (asked < from) want = Math.min(want, from - asked);
      if (want === 0) return { bytesRead: 0, buffer };
      left -= want;
      asked += want;
      const got = await fh.read(buffer, 0, want, null);
      left += want - got.bytesRead; // a short read: what it did not get is still to read
      asked -= want - got.bytesRead;
      return got;
    };
    let second = false;
    pending = readInto(buffers[0]);
    for (;;) {
      const { bytesRead, buffer } = await pending;
      if (bytesRead === 0) break;
      second = !second;
      pending = readInto(second ? buffers[1] : buffers[0]); // position null: from where the last read ended, in file order
      for (const line of reader.push(buffer.subarray(0, bytesRead))) parser.push(line);
      parsed += bytesRead;
      if (parsed >= from) texts = true;
    }
  } catch (error) {
    throw describeError(file, error);
  } finally {
    pending?.catch(() => undefined); // a read still out when something threw: its end is of no interest
    await handle?.close();
  }
  const last = reader.flush();
  if (last !== undefined) parser.push(last);
  const snap = parser.snapshot();
  return { ...snap, skipped: snap.skipped + reader.skippedLongLines, file };
}

/**
 * What was appended to a JSON-lines session file since byte `from`: the complete lines after it parsed by
 * a fresh parser (the events of that part only; ids and folder may be missing), and the byte offset after
 * the last complete line (the next mark). Undefined when the file is not JSON lines, shrank, or cannot be
 * read: then it must be read whole. `midLine`: `from` may fall inside a line (a window before a mark), whose
 * rest is skipped, not parsed as a line of its own; `until`: read no further than that byte (a line end).
 */
export async function loadSessionTail(file: string, opts: { agent: AgentId; from: number; onText?: (text: string) => void; wholeFile?: boolean; midLine?: boolean; until?: number }): Promise<{ snapshot: Session; end: number } | undefined> {
  const adapter = getAdapter(opts.agent);
  let handle: FileHandle | undefined;
  try {
    const opened = await openRegular(file);
    handle = opened.handle;
    if (opened.size < opts.from) return undefined;
    if (adapter.parseWhole && !(await startsWithJsonLine(file))) return undefined;
    const parser = adapter.createParser(parserOptions(opts));
    const reader = new LineReader();
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    let at = opts.from;
    let end = opts.from;
    // `midLine`: from may fall inside a line; its rest, up to the first newline, is no line of its own.
    let dropping = false;
    if (opts.midLine && opts.from > 0) {
      const { bytesRead } = await handle.read(buffer, 0, 1, opts.from - 1);
      dropping = bytesRead === 1 && buffer[0] !== 0x0a;
    }
    const stop = Math.min(opened.size, opts.until ?? opened.size);
    while (at < stop) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, stop - at), at);
      if (bytesRead === 0) break;
      at += bytesRead;
      let chunk = buffer.subarray(0, bytesRead);
      if (dropping) {
        const newline = chunk.indexOf(0x0a);
        if (newline < 0) continue;
        chunk = chunk.subarray(newline + 1);
        dropping = false;
      }
      for (const line of reader.push(chunk)) parser.push(line);
      end = at - reader.pendingBytes;
    }
    const snap = parser.snapshot();
    return { snapshot: { ...snap, skipped: snap.skipped + reader.skippedLongLines, file }, end };
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
