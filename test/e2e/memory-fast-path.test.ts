// `recapwrap index`, `sessions` and `search WORDS` in their plain forms run without commander or the full
// CLI's file (src/cli/fast-memory.ts: ~15 ms of CPU of each); any other form goes through the full CLI.
// A preload lists every file in require.cache at exit.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_BIN, assertBuilt } from '../helpers/cli-pty.js';

let dir: string;
beforeEach(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rw-memfast-'));
  writeFileSync(join(dir, 'list-loads.cjs'), "process.on('exit', () => require('node:fs').writeFileSync(process.env.RW_LOADS_OUT, Object.keys(require.cache).join('\\n')));\n");
  // One pi session, so sessions and search have something to answer.
  const sessions = join(dir, 'home', '.pi', 'agent', 'sessions', '--work--');
  mkdirSync(sessions, { recursive: true });
  const at = new Date(Date.now() - 3_600_000).toISOString();
  writeFileSync(join(sessions, `${at.replace(/[:.]/g, '-')}_fastpath.jsonl`), [
    { type: 'session', version: 3, id: 'fastpath', timestamp: at, cwd: join(dir, 'work') },
    { type: 'message', id: 'a', parentId: null, timestamp: at, message: { role: 'user', content: [{ type: 'text', text: 'fix the quokkafrost importer' }], timestamp: Date.parse(at) } },
    { type: 'message', id: 'b', parentId: 'a', timestamp: at, message: { role: 'assistant', content: [{ type: 'text', text: 'Fixed the importer.' }], stopReason: 'stop', timestamp: Date.parse(at) } },
  ].map((l) => JSON.stringify(l)).join('\n') + '\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]): { status: number | null; stdout: string; stderr: string; loads: string[] } {
  const out = join(dir, `loads-${args.join('-')}.txt`);
  const env = { PATH: process.env.PATH, HOME: join(dir, 'home'), RECAPWRAP_STATE_DIR: join(dir, 'state'), XDG_CONFIG_HOME: join(dir, 'config'), RECAPWRAP_LLM: 'false', NO_COLOR: '1', RW_LOADS_OUT: out };
  const r = spawnSync(process.execPath, ['-r', join(dir, 'list-loads.cjs'), CLI_BIN, ...args], { env, cwd: dir, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, loads: readFileSync(out, 'utf8').split('\n') };
}
const fullCli = (loads: string[]) => loads.some((f) => /node_modules[/\\]commander[/\\]/.test(f) || /cli[/\\]main\.cjs$/.test(f));

describe('memory commands fast path', () => {
  it('index, sessions and search run without commander; other forms through the full CLI, same answers', () => {
    const index = run(['index']);
    expect(index.stdout).toMatch(/^indexed 1 of 1 changed session file /);
    expect(index.status).toBe(0);
    expect(fullCli(index.loads), 'index').toBe(false);
    const search = run(['search', 'quokkafrost', '--json']);
    expect(search.status).toBe(0);
    expect(JSON.parse(search.stdout).map((h: { id: string }) => h.id)).toEqual(['fastpath']);
    expect(fullCli(search.loads), 'search').toBe(false);
    const sessions = run(['sessions', '--limit', '5']);
    expect(sessions.status).toBe(0);
    expect(fullCli(sessions.loads), 'sessions').toBe(false);
    // --agent is not a fast-path option: the full CLI answers, the same.
    const full = run(['sessions', '--limit', '5', '--agent', 'pi']);
    expect(fullCli(full.loads), 'sessions --agent').toBe(true);
    expect(full.stdout).toBe(sessions.stdout);
    const none = run(['search', 'nowhereword']);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('no session matches');
  });
});
