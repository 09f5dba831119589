/**
 * The session index as the picker uses it, opened when the picker opens (never at start-up): a thin
 * view of app/memory/api.ts's SessionMemory, loaded with it.
 */
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../types.js';
import type { PickerMemory } from './picker-session.js';

export async function openPickerMemory(input: { env: Env; options: Options; cwd?: string }): Promise<PickerMemory | { error: string }> {
  const { openSessionMemory } = await import('../memory/api.js');
  const memory = await openSessionMemory(input);
  if ('error' in memory) return memory;
  return {
    list: (filter) => memory.list(filter),
    search: (query, filter) => memory.search(query, filter),
    card: (id) => memory.card(id),
    refresh: () => memory.refresh(),
    close: () => memory.close(),
  };
}
