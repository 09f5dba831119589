import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { layOutSession } from '../../../test/helpers/agent-homes.js';
import { TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import { defaultOptions } from '../../config/options-table.js';
import { indexFile } from '../memory/api.js';
import { IN_PANE_REFRESH_FILES, openPickerMemory } from './open-memory.js';

const root = mkdtempSync(join(tmpdir(), 'rw-pick-mem-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// `count` pi sessions in one home, each its own id.
async function home(name: string, count: number) {
  const h = join(root, name);
  mkdirSync(h, { recursive: true });
  const lines = readFileSync(join(TRANSCRIPTS_DIR, 'pi', 'interactive-2turns.jsonl'), 'utf8').split('\n');
  const header = JSON.parse(lines[0] as string) as Record<string, unknown>;
  for (let i = 0; i < count; i++) {
    const source = join(h, `s${i}.jsonl`);
    writeFileSync(source, [JSON.stringify({ ...header, id: `0000000${i}-aaaa-bbbb-cccc-dddddddddddd`.slice(-36) }), ...lines.slice(1)].join('\n'));
    await layOutSession(h, 'pi', source);
  }
  return { HOME: h, RECAPWRAP_STATE_DIR: join(h, 'state') };
}

describe('openPickerMemory', () => {
  it('in the pane, a refresh reads a bounded number of changed files; the popup reads them all', async () => {
    const env = await home('bounded', IN_PANE_REFRESH_FILES + 3);
    const inPane = await openPickerMemory({ env, options: defaultOptions(), cwd: root, inPane: true });
    if ('error' in inPane) throw new Error(inPane.error);
    await inPane.refresh();
    expect(inPane.list({ limit: 100 })).toHaveLength(IN_PANE_REFRESH_FILES);
    inPane.close();
    const popup = await openPickerMemory({ env, options: defaultOptions(), cwd: root });
    if ('error' in popup) throw new Error(popup.error);
    await popup.refresh();
    expect(popup.list({ limit: 100 })).toHaveLength(IN_PANE_REFRESH_FILES + 3);
    popup.close();
  });

  it('an index locked by another writer: opening or refreshing gives up soon (what is indexed is still listed)', async () => {
    const env = await home('locked', 2);
    const first = await openPickerMemory({ env, options: defaultOptions(), cwd: root });
    if ('error' in first) throw new Error(first.error);
    await first.refresh();
    first.close();
    await home('locked', 3); // one more session to read
    const other = new Database(indexFile(env));
    other.exec('BEGIN IMMEDIATE');
    try {
      // Opening may itself be refused (the picker then says the index is unavailable); either way, soon.
      const memory = await openPickerMemory({ env, options: defaultOptions(), cwd: root, inPane: true });
      if ('error' in memory) return expect(memory.error).toMatch(/locked|busy/);
      await memory.refresh().catch(() => undefined);
      expect(memory.list({ limit: 100 }).length).toBeGreaterThanOrEqual(2);
      memory.close();
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  }, 4000);
});
