/**
 * Input for the child: written at once with write(2) on the pty master (non-blocking), in order; what
 * does not fit waits (copied) for the child to read. node-pty's own write goes through the libuv
 * thread pool (fs.write), a hand-off to another thread and back for every keystroke. Falls back to it
 * when the master's fd is out of reach (util/private-internals/node-pty.ts readPtyMaster).
 */
import { writeSync } from 'node:fs';
import type { IPty } from 'node-pty';
import { readPtyMaster } from '../util/private-internals/node-pty.js';

/**
 * The pty's input buffer was full (a big paste the child reads slowly, or a stopped child): try the
 * rest again after 1 ms, twice as long each time nothing went in, up to 64 ms.
 */
const INPUT_RETRY_MIN_MS = 1;
const INPUT_RETRY_MAX_MS = 64;

export interface InputWriter {
  write(data: string | Buffer): void;
  /** Drop what is queued and write nothing more; call before the master's fd can be closed. */
  stop(): void;
}

export function createInputWriter(term: IPty): InputWriter {
  const master = readPtyMaster(term);
  if (!master) return { write: (data) => term.write(data as string), stop: () => undefined };
  const { fd } = master;
  const queue: Buffer[] = [];
  let retry: NodeJS.Timeout | undefined;
  let retryMs = INPUT_RETRY_MIN_MS;
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    queue.length = 0;
    if (retry) clearTimeout(retry);
    retry = undefined;
  };
  // Writes what it can and says how much; all of it when the child is gone (dropped).
  const writeSome = (chunk: Buffer): number => {
    // The socket owns the fd and closes it on destroy, a loop turn before its 'close' event.
    if (master.isClosed()) {
      stop();
      return chunk.length;
    }
    try {
      return writeSync(fd, chunk);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' || code === 'EINTR') return 0;
      stop(); // EIO and the like: the child is gone, and its input with it
      return chunk.length;
    }
  };
  const later = (progress: boolean): void => {
    retryMs = progress ? INPUT_RETRY_MIN_MS : Math.min(retryMs * 2, INPUT_RETRY_MAX_MS);
    retry = setTimeout(flush, retryMs);
  };
  const flush = (): void => {
    retry = undefined;
    let progress = false;
    while (queue.length > 0 && !stopped) {
      const chunk = queue[0] as Buffer;
      const written = writeSome(chunk);
      if (written > 0) progress = true;
      if (written < chunk.length) {
        queue[0] = chunk.subarray(written);
        return later(progress);
      }
      queue.shift();
    }
  };
  return {
    write(data) {
      if (stopped) return;
      const chunk = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      if (chunk.length === 0) return;
      if (queue.length === 0) {
        const written = writeSome(chunk);
        if (written >= chunk.length || stopped) return;
        queue.push(Buffer.from(chunk.subarray(written)));
        return later(true);
      }
      queue.push(Buffer.from(chunk));
    },
    stop,
  };
}
