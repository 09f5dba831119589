// The built wrapper's memory worker (dist/cli/memory-worker.cjs, as the wrapper starts it) brings a big
// session's row up to date from its mark: at a turn end and at exit it parses only what the agent
// appended, so the exit's write of a big session is done well inside the wrapper's 4 s exit wait. The
// proof that it read from the mark: the file's header line is blanked after the first write, which a
// whole re-read would lose (the folder), while the appended turn is in the row. Real files, real SQLite.
import Database from 'better-sqlite3';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultOptions } from '../../src/config/options-table.js';
import { encodePiCwd } from '../../src/transcripts/pi/paths.js';
import { assertBuilt } from '../helpers/cli-pty.js';
import { REPO_DIR } from '../helpers/shared.js';

const WORKER = join(REPO_DIR, 'dist', 'cli', 'memory-worker.cjs');
/** The wrapper's exit wait for the last write (src/app/wrap/memory-writer.ts). */
const EXIT_WAIT_MS = 4000;
const dir = mkdtempSync(join(tmpdir(), 'rw-memtail-'));
beforeAll(() => assertBuilt());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const t = (i: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, 0) + i * 1000).toISOString();
const msg = (id: string, parent: string | null, role: string, text: string, i: number) =>
  JSON.stringify({ type: 'message', id, parentId: parent, timestamp: t(i), message: role === 'user' ? { role, content: [{ type: 'text', text }], timestamp: i } : { role, content: [{ type: 'text', text }], provider: 'x', model: 'm', stopReason: 'stop', timestamp: i } });

describe('the memory worker on a big session', () => {
  it('writes a turn end and the exit from the mark: only the appended turn is parsed, within the exit wait', async () => {
    const home = join(dir, 'home');
    const folder = '/work/big-live';
    const sessions = join(home, '.pi', 'agent', 'sessions', encodePiCwd(folder));
    mkdirSync(sessions, { recursive: true });
    const file = join(sessions, '2026-11-20T10-00-00-000Z_bigl.jsonl');
    const lines = [JSON.stringify({ type: 'session', version: 3, id: 'big-live', timestamp: t(0), cwd: folder }), msg('u0', null, 'user', 'port the parser to rust', 1)];
    let parent = 'u0';
    const filler = 'lorem ipsum '.repeat(400);
    for (let i = 0; lines.length < 6000; i++) {
      lines.push(msg(`a${i}`, parent, 'assistant', `step ${i}: ${filler}`, i + 2));
      parent = `a${i}`;
    }
    writeFileSync(file, lines.join('\n') + '\n');
    const state = join(dir, 'state');
    const worker = new Worker(WORKER, { workerData: { env: { HOME: home, RECAPWRAP_STATE_DIR: state }, options: { ...defaultOptions(), llm: false }, cwd: dir } });
    let next = 0;
    const write = (final: boolean) =>
      new Promise<{ ok: boolean; error?: string; ms: number }>((resolve) => {
        const id = next++;
        const started = performance.now();
        const onMessage = (reply: { id: number; ok: boolean; error?: string }) => {
          if (reply.id !== id) return;
          worker.off('message', onMessage);
          resolve({ ...reply, ms: performance.now() - started });
        };
        worker.on('message', onMessage);
        worker.postMessage({ id, file, agent: 'pi', final });
      });
    try {
      expect(await write(false)).toMatchObject({ ok: true });
      // The header blanked (same length): read whole again, the session would lose its folder and id.
      const text = readFileSync(file, 'utf8');
      const header = text.indexOf('\n');
      writeFileSync(file, ' '.repeat(header) + text.slice(header));
      appendFileSync(file, msg('u1', parent, 'user', 'now benchmark the quokka allocator', 99999) + '\n');
      const exit = await write(true);
      expect(exit).toMatchObject({ ok: true });
      expect(exit.ms).toBeLessThan(EXIT_WAIT_MS);
      const db = new Database(join(state, 'index.db'), { readonly: true });
      try {
        const row = db.prepare('SELECT s.id, s.cwd, s.prompts, b.text AS body FROM sessions s JOIN session_body b ON b.rowid = s.rowid').get() as { id: string; cwd: string; prompts: number; body: string };
        expect(row).toMatchObject({ id: 'big-live', cwd: folder, prompts: 2 });
        expect(row.body).toContain('quokka');
      } finally {
        db.close();
      }
    } finally {
      await worker.terminate();
    }
  });
});
