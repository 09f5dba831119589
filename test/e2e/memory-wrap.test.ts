// The live wrapper writes its session into the index at the turn end, from a worker thread, by itself (the database is read
// directly, so no command's refresh could have written the row), and `sessions --json` shows it: the
// demo agent (a scripted pi) wrapped as pi in a real pty.
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, runCliInPty } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';

const DEMO_AGENT = join(REPO_DIR, 'bin', 'demo-agent.js');
const dir = mkdtempSync(join(tmpdir(), 'rw-memwrap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface DbRow { id: string; agent: string; transcript: string; prompts: number; name: string; headline: string }

describe('the live wrapper and the session index', () => {
  it('writes its session at the turn end; sessions --json lists it', async () => {
    const home = join(dir, 'home');
    const tmp = join(dir, 'tmp');
    const start = join(dir, 'start');
    const state = join(dir, 'state');
    for (const d of [home, tmp, start]) mkdirSync(d);
    const env = { HOME: home, TMPDIR: tmp, RECAPWRAP_STATE_DIR: state, RECAPWRAP_DEMO_STEP_MS: '50', RECAPWRAP_GENERATOR: 'heuristic', RECAPWRAP_DEBUG_LOG: join(dir, 'debug.log'), PI_CODING_AGENT_DIR: join(home, '.pi', 'agent'), PI_CODING_AGENT_SESSION_DIR: undefined, XDG_RUNTIME_DIR: undefined, TMUX: undefined, TMUX_PANE: undefined };
    const run = runCliInPty(['--agent', 'pi', DEMO_AGENT], { cwd: start, env });
    try {
      await run.waitFor('Ctrl-D quits');
      const db = join(state, 'index.db');
      expect(existsSync(db)).toBe(false); // nothing of the index at start-up
      run.write('fix the failing test\r');
      await run.waitFor('Shall I run');
      const row = await pollUntil(
        () => {
          if (!existsSync(db)) return undefined;
          const conn = new Database(db, { readonly: true, fileMustExist: true });
          try {
            return conn.prepare('SELECT id, agent, transcript, prompts, name, headline FROM sessions').get() as DbRow | undefined;
          } catch {
            return undefined; // being created by the wrapper
          } finally {
            conn.close();
          }
        },
        { timeoutMs: 20_000, description: 'the wrapper to write its session at the turn end' },
      );
      expect(row).toMatchObject({ agent: 'pi', prompts: 1 });
      expect(row.transcript.startsWith(join(home, '.pi', 'agent', 'sessions'))).toBe(true);
      const listed = spawnSync(process.execPath, [CLI_BIN, 'sessions', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' });
      expect(listed.status).toBe(0);
      const rows = JSON.parse(listed.stdout) as DbRow[];
      expect(rows.map((r) => r.transcript)).toEqual([row.transcript]);
      expect(rows[0]?.name).toMatch(/fix-failing-test/);
      // Off the output path: the built wrapper writes from a worker thread.
      expect(readFileSync(join(dir, 'debug.log'), 'utf8')).toContain('index writes in a worker thread');
    } finally {
      run.write('\x04');
      await run.exit;
    }
  }, 60_000);
});
