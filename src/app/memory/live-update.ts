/**
 * The live wrapper's writes to the index: its session's row at each turn end and at exit. The memory
 * worker (worker.ts) hands over the session file: a row of 4 MB or more is brought up to date from its
 * mark (only the lines appended since are parsed, and a window before them for its card, as the scan
 * does for a big grown file), a smaller one is parsed whole; so a turn end of a 100 MB session costs
 * what its last turn wrote and that window, and the exit's write fits the exit wait. Run inline (from
 * source) the write takes the tracker's own session. Loaded by a dynamic import at the first turn end,
 * so nothing of the index (nor SQLite) is on the wrapper's start-up path.
 */
import { stat } from 'node:fs/promises';
import type { Options } from '../../config/options-table.js';
import { getHomeDir, type Env } from '../../config/paths.js';
import { loadSessionFile, loadSessionTail } from '../../transcripts/load.js';
import type { AgentId, Session } from '../../transcripts/types.js';
import { createEngine } from '../recaps/recap-engine.js';
import { openSessionMemory, toRow, type SessionMemory } from './api.js';
import { allowedFolders, folderAllowed, TAIL_READ_MIN_BYTES } from './scan.js';
import { cardWindow, sessionWrite, tailWrite, vocabularyFor } from './session-write.js';
import { afterLiveWrite } from './summary-gate.js';

/** A writer waits at most this long for another's lock: an exit is never held up for long. */
const LIVE_BUSY_MS = 3000;

export interface LiveMemory {
  /** Store this state of the session (heuristic card, condensed text); then the summary gate. */
  write(session: Session, final: boolean): Promise<void>;
  /** The session file changed: read it (from the row's mark when the row is big) and store it; then the gate. */
  writeFile(file: string, agent: AgentId, final: boolean): Promise<void>;
  close(): void;
}

/** The writer for one wrapper, or an error (memory off, unsafe state folder): then nothing is written. */
export async function openLiveMemory(input: { env: Env; options: Options; cwd: string }): Promise<LiveMemory | { error: string }> {
  const opened = await openSessionMemory({ env: input.env, options: input.options, cwd: input.cwd, busyMs: LIVE_BUSY_MS });
  if ('error' in opened) return opened;
  const memory: SessionMemory = opened;
  const folders = allowedFolders(input.options.memoryFolders, getHomeDir(input.env));
  const engineFor = (agent: AgentId) => createEngine({ options: { ...input.options, llm: false, generator: 'heuristic' }, agent, env: input.env });
  // The summary gate over the row as stored (none when the user forgot the session).
  const gate = async (file: string, session: Session, final: boolean) => {
    const stored = memory.store.byTranscript(file);
    if (!stored) return;
    await afterLiveWrite({ memory, row: toRow(stored), session, final, summaryPrompts: stored.summaryPrompts, summaryAsked: stored.summaryAsked.prompts, options: input.options, env: input.env });
  };
  const write = async (session: Session, final: boolean, mark?: { size: number; mtimeMs: number }, words?: (said: string) => string) => {
    if (!folderAllowed(session.cwd ?? input.cwd, folders)) return;
    let st = mark;
    if (!st) {
      try {
        st = await stat(session.file);
      } catch {
        return; // no file yet: nothing the index could point to
      }
    }
    const withCwd = session.cwd ? session : { ...session, cwd: input.cwd };
    memory.store.upsert(sessionWrite(withCwd, engineFor(session.agent), st, words));
    await gate(session.file, withCwd, final);
  };
  return {
    write: (session, final) => write(session, final),
    async writeFile(file, agent, final) {
      let before;
      try {
        before = await stat(file);
      } catch {
        return;
      }
      // A session the user forgot is never read again (upsert would drop it anyway, after a whole parse).
      if (memory.store.isForgotten(file)) return;
      const prev = memory.store.byTranscript(file);
      const fromMark = prev !== undefined && prev.transcriptExists && prev.mark.size >= TAIL_READ_MIN_BYTES && before.size >= prev.mark.size;
      // From the mark (a big row), else from the start: the mark is then the end of the last complete line read.
      const vocabulary = vocabularyFor();
      const tail = await loadSessionTail(file, { agent, from: fromMark ? prev.mark.size : 0, onText: vocabulary.onText, wholeFile: true });
      if (!tail) {
        // Not JSON lines (an older Gemini CLI's one document, small): parsed whole.
        const whole = vocabularyFor();
        const session = await loadSessionFile(file, { agent, onText: whole.onText, wholeFile: true });
        await write(session, final, undefined, whole.words);
        return;
      }
      const after = await stat(file).catch(() => before);
      // The file's time goes with the mark only when the mark is its end (else the scan reads on from it).
      const mark = { size: tail.end, mtimeMs: tail.end === after.size ? after.mtimeMs : 0 };
      if (!fromMark) {
        await write(tail.snapshot, final, mark, vocabulary.words);
        return;
      }
      if (!folderAllowed(prev.cwd, folders)) return;
      const session: Session = { ...tail.snapshot, id: prev.id, cwd: prev.cwd, file };
      if (tail.snapshot.events.length === 0) {
        // Nothing complete was appended (or nothing at all): the row stands; the gate still runs (exit).
        if (tail.end !== prev.mark.size) memory.store.setFile(file, tail.end, mark.mtimeMs, 'indexed');
      } else {
        const card = await cardWindow(loadSessionTail, file, agent, prev.mark.size, tail.end);
        memory.store.upsert(tailWrite(prev, tail.snapshot, engineFor(agent), mark, memory.store.condensedText(prev.id), vocabulary.words, card));
      }
      await gate(file, session, final);
    },
    close: () => memory.close(),
  };
}
