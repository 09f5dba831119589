/**
 * The live wrapper's writes to the index: its session's row at each turn end and at exit, from the
 * session it is handed (and the file's size). In the built CLI that session is parsed again, whole, by
 * the memory worker (worker.ts) at each turn end, off the wrapper's thread; run inline (from source) it is
 * the tracker's own. Loaded by a dynamic import
 * at the first turn end, so nothing of the index (nor SQLite) is on the wrapper's start-up path.
 */
import { stat } from 'node:fs/promises';
import type { Options } from '../../config/options-table.js';
import { getHomeDir, type Env } from '../../config/paths.js';
import type { Session } from '../../transcripts/types.js';
import { createEngine } from '../recap-engine.js';
import { openSessionMemory, toRow, type SessionMemory } from './api.js';
import { allowedFolders, folderAllowed } from './scan.js';
import { sessionWrite } from './session-write.js';
import { afterLiveWrite } from './summary-gate.js';

/** A writer waits at most this long for another's lock: an exit is never held up for long. */
const LIVE_BUSY_MS = 3000;

export interface LiveMemory {
  /** Store this state of the session (heuristic card, condensed text); then the summary gate. */
  write(session: Session, final: boolean): Promise<void>;
  close(): void;
}

/** The writer for one wrapper, or an error (memory off, unsafe state folder): then nothing is written. */
export async function openLiveMemory(input: { env: Env; options: Options; cwd: string }): Promise<LiveMemory | { error: string }> {
  const opened = await openSessionMemory({ env: input.env, options: input.options, cwd: input.cwd, busyMs: LIVE_BUSY_MS });
  if ('error' in opened) return opened;
  const memory: SessionMemory = opened;
  const folders = allowedFolders(input.options.memoryFolders, getHomeDir(input.env));
  return {
    async write(session, final) {
      if (!folderAllowed(session.cwd ?? input.cwd, folders)) return;
      let st;
      try {
        st = await stat(session.file);
      } catch {
        return; // no file yet: nothing the index could point to
      }
      const withCwd = session.cwd ? session : { ...session, cwd: input.cwd };
      const engine = createEngine({ options: { ...input.options, llm: false, generator: 'heuristic' }, agent: session.agent, env: input.env });
      memory.store.upsert(sessionWrite(withCwd, engine, { size: st.size, mtimeMs: st.mtimeMs }));
      const stored = memory.store.byTranscript(session.file);
      if (!stored) return; // forgotten by the user
      await afterLiveWrite({ memory, row: toRow(stored), session: withCwd, final, summaryPrompts: stored.summaryPrompts, summaryAsked: stored.summaryAsked.prompts, options: input.options, env: input.env });
    },
    close: () => memory.close(),
  };
}
