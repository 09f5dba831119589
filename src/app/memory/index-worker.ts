/**
 * Worker-thread entry of the scan's read pool (read-pool.ts): reads the session files the scan posts
 * (load, vocabulary, heuristic card: read-whole.ts) and posts back each one's row or why it has none. It
 * never opens the database: the scan's own thread writes every row. Each request is answered once, with
 * its id, one file after another in the order they came.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadReaders, wholeReader, type FileToRead, type ReadContext, type WholeRead, type WholeReader } from './read-whole.js';

export interface IndexWorkerRequest { id: number; file: FileToRead }
/**
 * `ready` (id -1): the parsers are loaded, send files. A file's outcome, or `failed`: this worker cannot
 * do the read (its modules did not load: id -1; the row could not be posted), no fault of the file; the
 * pool then reads its files on its own thread.
 */
export type IndexWorkerReply = { id: number } & (WholeRead | { kind: 'failed'; error: string } | { kind: 'ready' });

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

const ctx = workerData as ReadContext;
const port = parentPort;
if (port) {
  // Loaded before the first file is asked for: the pool sends none until `ready` (its own thread reads
  // meanwhile), so a file never waits on a worker's start.
  const reader: Promise<WholeReader> = loadReaders().then((lib) => wholeReader(ctx, lib));
  reader.then(
    () => port.postMessage({ id: -1, kind: 'ready' } satisfies IndexWorkerReply),
    (error: unknown) => port.postMessage({ id: -1, kind: 'failed', error: message(error) } satisfies IndexWorkerReply),
  );
  // Files are read one after another, in the order they came: the pool sends the next one before this one
  // is done (WORKER_DEPTH), so it waits here, not loaded, and is started the moment this one ends.
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (msg: IndexWorkerRequest) => {
    queue = queue.then(async () => {
      let reply: IndexWorkerReply;
      try {
        const r = await reader;
        reply = { id: msg.id, ...(await r.finish(msg.file, r.load(msg.file))) };
      } catch (error) {
        // finish answers every failure of a file itself: only the readers' own loading gets here.
        reply = { id: msg.id, kind: 'failed', error: message(error) };
      }
      try {
        port.postMessage(reply);
      } catch (error) {
        // The row could not be copied to the scan's thread: say so, or that file would never be answered.
        port.postMessage({ id: msg.id, kind: 'failed', error: message(error) } satisfies IndexWorkerReply);
      }
    });
  });
}
