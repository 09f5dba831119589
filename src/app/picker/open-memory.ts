/**
 * The session index as the picker uses it, opened when the picker opens (never at start-up): a thin
 * view of app/memory/api.ts's SessionMemory.
 */
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../types.js';
import type { PickerMemory } from './picker-session.js';

export async function openPickerMemory(input: { env: Env; options: Options }): Promise<PickerMemory | { error: string }> {
  void input;
  return { error: 'the session index is not available in this build' };
}
