/**
 * The wrapper's side of the session index: at each turn end (a new stamp while idle or waiting) and at
 * exit, hand the tracked session to app/memory/live-update.ts, imported on the first write only (never on
 * start-up), one write at a time, after the output that ended the turn was forwarded (a macrotask later).
 * Failures are logged and forgotten: the agent never notices the index.
 */
import type { Options } from '../../config/options-table.js';
import type { Session } from '../../transcripts/types.js';
import type { Env } from '../../types.js';
import type { LiveMemory } from '../memory/live-update.js';

export interface MemoryWriter {
  /** A turn ended on this state of the session. */
  turnEnd(session: Session): void;
  /** The wrapper is exiting: the last write (awaited, bounded by the store's busy timeout). */
  exit(session: Session | undefined): Promise<void>;
}

export function startMemoryWriter(input: { options: Options; env: Env; cwd: string; log: (message: string, data?: Record<string, unknown>) => void }): MemoryWriter {
  let opened: Promise<LiveMemory | undefined> | undefined;
  let chain: Promise<void> = Promise.resolve();
  let lastStamp: string | undefined;
  const open = () =>
    (opened ??= import('../memory/live-update.js')
      .then((m) => m.openLiveMemory(input))
      .then((r) => {
        if ('error' in r) {
          input.log('memory: not written', { reason: r.error });
          return undefined;
        }
        return r;
      })
      .catch((error: unknown) => {
        input.log('memory: could not open the index', { error: (error as Error).message });
        return undefined;
      }));
  const write = (session: Session, final: boolean) => {
    chain = chain.then(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      try {
        const memory = await open();
        await memory?.write(session, final);
        if (final) memory?.close();
      } catch (error) {
        input.log('memory: write failed', { error: (error as Error).message });
      }
    });
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
      if (session) await write(session, true);
      else if (opened) (await opened)?.close();
    },
  };
}
