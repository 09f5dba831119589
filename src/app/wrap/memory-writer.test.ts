import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { layOutSession } from '../../../test/helpers/agent-homes.js';
import { pollUntil } from '../../../test/helpers/poll.js';
import { TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import { defaultOptions } from '../../config/options-table.js';
import { loadSessionFile } from '../../transcripts/load.js';
import { indexFile } from '../memory/api.js';
import { startMemoryWriter } from './memory-writer.js';

const root = mkdtempSync(join(tmpdir(), 'rw-mem-writer-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// From source the writes run in this thread (no built worker), into a real index.
async function setUp(name: string) {
  const home = join(root, name);
  mkdirSync(home);
  const env = { HOME: home, RECAPWRAP_STATE_DIR: join(home, 'state') };
  const laid = await layOutSession(home, 'pi', join(TRANSCRIPTS_DIR, 'pi', 'interactive-2turns.jsonl'));
  const session = await loadSessionFile(laid.file, { agent: 'pi' });
  const writer = startMemoryWriter({ options: { ...defaultOptions(), llm: false }, env, cwd: home, log: () => undefined });
  writer.turnEnd(session);
  await pollUntil(() => existsSync(indexFile(env)));
  const db = new Database(indexFile(env));
  await pollUntil(() => db.prepare('SELECT 1 FROM sessions').get());
  // Mark the row: a last write at exit would put the headline back.
  db.prepare("UPDATE sessions SET headline = 'marked'").run();
  const headline = () => (db.prepare('SELECT headline FROM sessions').get() as { headline: string }).headline;
  return { writer, session, headline, close: () => db.close() };
}

describe('startMemoryWriter at exit', () => {
  it('no last write when the session did not change since the turn end and no model can be asked', async () => {
    const t = await setUp('same');
    await t.writer.exit(t.session);
    expect(t.headline()).toBe('marked');
    t.close();
  });

  it('a last write when the session changed since', async () => {
    const t = await setUp('changed');
    await t.writer.exit({ ...t.session, stamp: t.session.stamp + '+' });
    expect(t.headline()).not.toBe('marked');
    t.close();
  });
});
