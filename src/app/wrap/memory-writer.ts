/**
 * The wrapper's side of the session index: at each turn end (a new stamp while idle or waiting) and at
 * exit, the session's row is written. In the built CLI a worker thread does it (dist/cli/memory-worker.cjs:
 * it reads the file, writes the row, runs the summary gate), started at the first turn end and ended when
 * idle, so the wrapper's output path and its idle memory carry none of it. Run from source (tests) the
 * write runs in this thread, imported on first use. Failures are logged: the agent never notices the index.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Options } from '../../config/options-table.js';
import type { Session } from '../../transcripts/types.js';
import type { Env } from '../../types.js';
import type { LiveMemory } from '../memory/live-update.js';
import type { MemoryWorkerInit, MemoryWorkerReply, MemoryWorkerRequest } from '../memory/worker.js';

export interface MemoryWriter {
  /** A turn ended on this state of the session. */
  turnEnd(session: Session): void;
  /** The wrapper is exiting: the last write (awaited, at most EXIT_WAIT_MS). */
  exit(session: Session | undefined): Promise<void>;
}

type Log = (message: string, data?: Record<string, unknown>) => void;
interface Input { options: Options; env: Env; cwd: string; log: Log }

// The worker's entry of the build (rolldown.config.mjs), found from dist/chunks/ or dist/cli/.
const WORKER_URL = new URL('../cli/memory-worker.cjs', import.meta.url);
/** An idle worker is ended after this long (its ~20 MB are not kept for a session that rests). */
const WORKER_IDLE_MS = 10_000;
/**
 * The exit waits at most this long for the last write. A model summary at exit is not waited for: it runs
 * in a detached `recapwrap index --summarize --session ID` (app/live-summary.ts).
 */
const EXIT_WAIT_MS = 4000;

interface Sink { write(session: Session, final: boolean): Promise<void>; close(): void }

function workerSink(input: Input): Sink | undefined {
  if (!existsSync(fileURLToPath(WORKER_URL))) return undefined;
  let worker: Worker | undefined;
  let idle: NodeJS.Timeout | undefined;
  let nextId = 0;
  const waiting = new Map<number, () => void>();
  const stop = () => {
    void worker?.terminate();
    worker = undefined;
    for (const done of waiting.values()) done();
    waiting.clear();
  };
  const start = (): Worker => {
    const init: MemoryWorkerInit = { env: { ...input.env }, options: input.options, cwd: input.cwd };
    const w = new Worker(WORKER_URL, { workerData: init });
    w.unref();
    input.log('index writes in a worker thread');
    w.on('message', (reply: MemoryWorkerReply) => {
      if (!reply.ok) input.log('not written', { reason: reply.error });
      waiting.get(reply.id)?.();
      waiting.delete(reply.id);
      if (waiting.size === 0) {
        clearTimeout(idle);
        idle = setTimeout(stop, WORKER_IDLE_MS);
        idle.unref();
      }
    });
    w.on('error', (error) => {
      input.log('worker failed', { error: error.message });
      stop();
    });
    return w;
  };
  return {
    write(session, final) {
      clearTimeout(idle);
      try {
        worker ??= start();
      } catch (error) {
        input.log('worker failed to start', { error: (error as Error).message });
        return Promise.resolve();
      }
      const id = nextId++;
      const request: MemoryWorkerRequest = { id, file: session.file, agent: session.agent, final };
      const done = new Promise<void>((resolve) => waiting.set(id, resolve));
      worker.postMessage(request);
      return done;
    },
    close: stop,
  };
}

function inlineSink(input: Input): Sink {
  let opened: Promise<LiveMemory | undefined> | undefined;
  const open = () =>
    (opened ??= import('../memory/live-update.js')
      .then((m) => m.openLiveMemory(input))
      .then((r) => {
        if ('error' in r) {
          input.log('not written', { reason: r.error });
          return undefined;
        }
        return r;
      })
      .catch((error: unknown) => {
        input.log('could not open the index', { error: (error as Error).message });
        return undefined;
      }));
  return {
    async write(session, final) {
      await new Promise((resolve) => setTimeout(resolve, 0)); // after the output that ended the turn
      try {
        await (await open())?.write(session, final);
      } catch (error) {
        input.log('write failed', { error: (error as Error).message });
      }
    },
    close() {
      void opened?.then((m) => m?.close());
    },
  };
}

// Whether the exit's summary gate could open (the worker decides; with no model it cannot).
const mayAskModel = (options: Options) => options.llm && options.generator !== 'heuristic';

export function startMemoryWriter(input: Input): MemoryWriter {
  let sink: Sink | undefined;
  let chain: Promise<void> = Promise.resolve();
  let lastStamp: string | undefined;
  const write = (session: Session, final: boolean) => {
    sink ??= workerSink(input) ?? inlineSink(input);
    const s = sink;
    chain = chain.then(() => s.write(session, final));
    return chain;
  };
  return {
    turnEnd(session) {
      if (!input.options.memory || session.stamp === lastStamp) return;
      lastStamp = session.stamp;
      void write(session, false);
    },
    async exit(session) {
      if (!input.options.memory) return;
      // The row already holds this state and no model summary can be asked at exit: no last write, only
      // the one under way (if any) is waited for.
      const unchanged = session !== undefined && session.stamp === lastStamp && !mayAskModel(input.options);
      if (session) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([unchanged ? chain : write(session, true), new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_WAIT_MS)))]);
        clearTimeout(timer);
      }
      sink?.close();
    },
  };
}
