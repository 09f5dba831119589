/**
 * Worker-thread host of the live wrapper's index writes: the wrapper posts "this session file changed"
 * and the worker reads it (a row of 4 MB or more from its mark: only what was appended since, as the
 * scan reads a big grown file; a smaller one whole), writes its row (heuristic card, condensed text) and
 * runs the summary gate, on another core, never on the agent's output path. Messages are handled one at a time, in order; each is
 * answered with `done` (the wrapper waits for the last one at exit).
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import type { AgentId } from '../../transcripts/types.js';
import { openLiveMemory, type LiveMemory } from './live-update.js';

export interface MemoryWorkerInit { env: Env; options: Options; cwd: string }
export interface MemoryWorkerRequest { id: number; file: string; agent: AgentId; final: boolean }
export interface MemoryWorkerReply { id: number; ok: boolean; error?: string }

/** The worker thread's nice value (Linux): on a busy machine the wrapper's own thread goes first. */
export const WORKER_NICE = 10;

// On Linux the nice value is per thread and pid 0 names the calling thread, so this lowers the worker
// alone, never the wrapper's thread that copies the agent's output (elsewhere it would lower the process).
if (process.platform === 'linux') {
  try {
    setPriority(0, WORKER_NICE);
  } catch {
    // not allowed: the writes run at the wrapper's priority
  }
}

const init = workerData as MemoryWorkerInit;
let memory: Promise<LiveMemory | { error: string }> | undefined;
let chain: Promise<void> = Promise.resolve();
const port = parentPort;
if (port) {
  port.on('message', (msg: MemoryWorkerRequest) => {
    chain = chain.then(async () => {
      let reply: MemoryWorkerReply;
      try {
        const m = await (memory ??= openLiveMemory(init));
        if ('error' in m) reply = { id: msg.id, ok: false, error: m.error };
        else {
          await m.writeFile(msg.file, msg.agent, msg.final);
          reply = { id: msg.id, ok: true };
        }
      } catch (error) {
        reply = { id: msg.id, ok: false, error: (error as Error).message };
      }
      port.postMessage(reply);
    });
  });
}
