/**
 * Follows one file as it grows: reads only appended bytes by offset and hands complete lines on.
 * Woken by fs.watch on the file's folder (sub-millisecond) with a periodic stat as a safety net, since
 * watchers can miss events (terminal.md §6: chokidar drops the last line an agent writes before idling).
 * Survives truncation, replacement (inode change: the old file is drained first), deletion and re-creation.
 * Reads only a regular file: a path that is (or becomes) a FIFO, device or socket is reported once through
 * onError and never opened, so nothing blocks or spins on it. Reads go in 256 KB chunks, each awaited, so
 * a file that grows by hundreds of MB is parsed a slice at a time, the event loop (the agent's output) free
 * in between.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { LineReader, MAX_LINE_BYTES } from './line-reader.js';
import { notRegularError, openRegular } from './regular-file.js';

export const TAIL_POLL_MS = 1000;
/**
 * Until the file's folder exists there is nothing to watch: look after 100 ms, then back off (doubling)
 * to TAIL_POLL_MS, so an agent's first lines come quickly and an agent that idles costs nothing.
 */
export const TAIL_UNWATCHED_POLL_MS = 100;
const READ_CHUNK_BYTES = 1 << 18;
/**
 * The last bytes read are kept and compared with the file before each read: a file truncated and
 * rewritten past our offset before we looked has the same inode and no smaller size, but other bytes there.
 */
const TAIL_FINGERPRINT_BYTES = 64;

export type TailResetReason = 'truncated' | 'replaced' | 'deleted';

export interface TailerOptions {
  /** Called with each batch of complete lines, in file order. */
  onLines: (lines: string[]) => void;
  /** The file was truncated, replaced or deleted: lines after this start from the new file's beginning. */
  onReset?: (reason: TailResetReason) => void;
  /** A read error other than "file not there yet" (logged by the owner; tailing goes on). */
  onError?: (error: Error) => void;
  /** Start reading at this byte offset (default 0: the whole file). */
  fromOffset?: number;
  pollMs?: number;
  maxLineBytes?: number;
}

export class FileTailer {
  private handle: FileHandle | undefined;
  private ino: number | undefined;
  private offset: number;
  private readonly reader: LineReader;
  private fingerprint: Buffer = Buffer.alloc(0);
  private watcher: FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;
  private unwatchedDelay = TAIL_UNWATCHED_POLL_MS;
  private reading: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private refused = false;

  constructor(
    readonly file: string,
    private readonly options: TailerOptions,
  ) {
    this.offset = options.fromOffset ?? 0;
    this.reader = new LineReader(options.maxLineBytes ?? MAX_LINE_BYTES);
  }

  /** Bytes consumed so far (complete lines and the held partial line). */
  get position(): number {
    return this.offset;
  }

  get skippedLongLines(): number {
    return this.reader.skippedLongLines;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.watchFolder();
    this.schedulePoll();
    this.wake();
  }

  // The safety-net poll; faster while there is no folder watch yet.
  private schedulePoll(): void {
    if (this.stopped) return;
    const every = this.options.pollMs ?? TAIL_POLL_MS;
    let delay = every;
    if (!this.watcher) {
      delay = Math.min(every, this.unwatchedDelay);
      this.unwatchedDelay = Math.min(every, this.unwatchedDelay * 2);
    }
    this.poll = setTimeout(() => {
      if (!this.watcher) this.watchFolder();
      // Nothing open and no file yet (an agent idle before its first message): a read would only find
      // that out again, through the thread pool and a thrown ENOENT. One stat here says as much.
      if (this.handle || existsSync(this.file)) this.wake();
      this.schedulePoll();
    }, delay);
    this.poll.unref();
  }

  /** Read whatever is new now; resolves when caught up (used by tests and by the owner on demand). */
  async sync(): Promise<void> {
    this.wake();
    while (this.reading) await this.reading;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.watcher?.close();
    this.watcher = undefined;
    if (this.poll) clearTimeout(this.poll);
    this.poll = undefined;
    while (this.reading) await this.reading;
    await this.closeHandle();
  }

  // Watch the folder, not the file: a watch on the file itself is lost when the file is replaced.
  private watchFolder(): void {
    if (this.stopped) return;
    const name = basename(this.file);
    const folder = dirname(this.file);
    if (!existsSync(folder)) return; // not there yet: the poll looks again (a failed watch() throws, dearer)
    try {
      this.watcher = watch(folder, { persistent: false }, (_event, filename) => {
        if (filename === null || filename === name) this.wake();
      });
      this.watcher.on('error', () => {
        this.watcher?.close();
        this.watcher = undefined;
      });
    } catch {
      // Folder not there yet: the poll retries.
      this.watcher = undefined;
    }
  }

  // Coalesce wake-ups: one read at a time, and one more if something happened meanwhile.
  private wake(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = this.readLoop().finally(() => {
      this.reading = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async readLoop(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.readNew();
      } while (this.again && !this.stopped);
    } catch (error) {
      this.options.onError?.(error as Error);
    }
  }

  private async readNew(): Promise<void> {
    let pathStat;
    try {
      pathStat = await stat(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      if (this.handle) {
        // Deleted: deliver what the old file still had, then wait for a new one.
        await this.drain();
        await this.closeHandle();
        this.restart('deleted');
      }
      return;
    }
    if (!pathStat.isFile()) {
      // Not (or no longer) a regular file: finish what the old file had, then read nothing from this one.
      if (this.handle) {
        await this.drain();
        await this.closeHandle();
        this.restart('replaced');
      }
      this.refuse(notRegularError(this.file));
      return;
    }
    if (this.handle && this.ino !== undefined && pathStat.ino !== this.ino) {
      // Replaced (rename over it): finish the old file, then start the new one from its beginning.
      await this.drain();
      await this.closeHandle();
      this.restart('replaced');
    }
    if (!this.handle) {
      try {
        const opened = await openRegular(this.file);
        this.handle = opened.handle;
        this.ino = opened.ino;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return;
        if (code === 'ENOTREG' || code === 'EISDIR') return this.refuse(error as Error);
        throw error;
      }
    }
    this.refused = false;
    const size = (await this.handle.stat()).size;
    if (size < this.offset || !(await this.sameFingerprint(this.handle))) {
      this.restart('truncated');
    }
    await this.drain();
  }

  // True when the bytes just before our offset are still the ones we read last (the file was only appended to).
  private async sameFingerprint(handle: FileHandle): Promise<boolean> {
    const want = this.fingerprint;
    if (want.length === 0 || this.offset < want.length) return true;
    const got = Buffer.alloc(want.length);
    const { bytesRead } = await handle.read(got, 0, want.length, this.offset - want.length);
    return bytesRead === want.length && got.equals(want);
  }

  // Say once that the path is not a file we read (again after it was one in between).
  private refuse(error: Error): void {
    if (this.refused) return;
    this.refused = true;
    this.options.onError?.(error);
  }

  private restart(reason: TailResetReason): void {
    this.fingerprint = Buffer.alloc(0);
    this.offset = 0;
    this.reader.reset();
    this.options.onReset?.(reason);
  }

  // Read from the offset to the current end of the open file, in bounded chunks.
  // Bounded by the size the file has now: what is appended meanwhile wakes us again (watch, poll).
  private async drain(): Promise<void> {
    const handle = this.handle;
    if (!handle) return;
    const end = (await handle.stat()).size;
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    while (this.offset < end) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, end - this.offset), this.offset);
      if (bytesRead === 0) return;
      this.offset += bytesRead;
      const read = buffer.subarray(0, bytesRead);
      this.fingerprint = Buffer.from(
        bytesRead >= TAIL_FINGERPRINT_BYTES ? read.subarray(bytesRead - TAIL_FINGERPRINT_BYTES) : Buffer.concat([this.fingerprint, read]).subarray(-TAIL_FINGERPRINT_BYTES),
      );
      const lines = this.reader.push(read);
      if (lines.length > 0) this.options.onLines(lines);
    }
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    this.ino = undefined;
    if (handle) await handle.close().catch(() => undefined);
  }
}
