/**
 * The session index as the picker uses it, opened when the picker opens (never at start-up): a thin
 * view of app/memory/api.ts's SessionMemory, loaded with it.
 */
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../types.js';
import type { PickerMemory } from './picker-session.js';

/** A short wait for a busy index: the picker shows what is indexed rather than stall (a refresh that fails is logged). */
export const PICKER_BUSY_MS = 250;
/** The in-pane picker runs on the wrapper's thread: its refresh reads at most this many changed files. */
export const IN_PANE_REFRESH_FILES = 20;

/** inPane: the overlay picker on the wrapper's own thread (the tmux popup is its own process: a full refresh). */
export async function openPickerMemory(input: { env: Env; options: Options; cwd?: string; inPane?: boolean }): Promise<PickerMemory | { error: string }> {
  const { openSessionMemory } = await import('../memory/api.js');
  const memory = await openSessionMemory({ env: input.env, options: input.options, cwd: input.cwd, busyMs: PICKER_BUSY_MS });
  if ('error' in memory) return memory;
  return {
    list: (filter) => memory.list(filter),
    // As the words are typed: the last one, unfinished, matches as the start of a word too.
    search: (query, filter) => memory.search(query, filter, { prefixLast: true }),
    card: (id) => memory.card(id),
    resolve(ref) {
      const found = memory.resolve(ref, { cwd: input.cwd });
      return found.ok ? found.row : undefined;
    },
    lineage: (id, depth) => memory.lineage(id, depth),
    refresh: () => memory.refresh(input.inPane ? { maxFiles: IN_PANE_REFRESH_FILES, ifIdle: true } : { ifIdle: true }),
    close: () => memory.close(),
  };
}
