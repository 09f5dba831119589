// #19 points 2 and 8: state and socket folders that are not ours, open to others, symlinked, or
// unusable (under /proc), and relative XDG folders. In every case the wrapped agent runs to its end with
// its own exit code and output; a not-private folder is refused with one clear line and no recap
// machinery; nothing is ever written through a planted link.
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInPty } from '../helpers/cli-pty.js';
import { REPO_DIR } from '../helpers/shared.js';

const FAKE_AGENT = join(REPO_DIR, 'test', 'fixtures', 'bin', 'fake-agent.mjs');
const SCRIPT = 'turn one;sleep 300;turn two;sleep 300;quit 3';
const isRoot = process.getuid?.() === 0;

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-fault-folders-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Case {
  home: string;
  log: string;
  cwd: string;
}

function freshCase(): Case {
  const home = join(dir, `case${++n}`);
  const cwd = join(home, 'work');
  mkdirSync(cwd, { recursive: true });
  return { home, cwd, log: join(home, 'debug.log') };
}

// Run the fake agent under the wrapper; `beforeStart` runs right after the spawn with the wrapper's pid
// (before node has even loaded the CLI), to plant links at the names it will write.
async function runWrapped(c: Case, env: Record<string, string | undefined>, beforeStart?: (pid: number) => void) {
  const w = runCliInPty(['--agent', 'pi', '--display', 'none', '--', FAKE_AGENT, '--script', SCRIPT], {
    cwd: c.cwd,
    env: { HOME: c.home, PI_CODING_AGENT_DIR: join(c.home, 'pi'), RECAPWRAP_DEBUG_LOG: c.log, TMUX: undefined, TMUX_PANE: undefined, XDG_STATE_HOME: undefined, XDG_RUNTIME_DIR: undefined, RECAPWRAP_STATE_DIR: undefined, ...env },
  });
  beforeStart?.(w.pid);
  const timer = setTimeout(() => w.kill('SIGKILL'), 30_000);
  const exit = await w.exit;
  clearTimeout(timer);
  const log = existsSync(c.log) ? readFileSync(c.log, 'utf8') : '';
  return { exit, output: w.output(), log, pid: w.pid };
}

function expectAgentRanToItsEnd(r: { exit: { exitCode: number }; output: string }) {
  expect(r.output).toContain('OK turn');
  expect(r.output).toContain('BYE');
  expect(r.exit).toEqual({ exitCode: 3 });
}

describe('state folder faults', () => {
  for (const mode of [0o777, 0o1777]) {
    it(`a state folder with mode ${mode.toString(8)} and links planted at the state file's names: refused, nothing written through them`, async () => {
      const c = freshCase();
      const state = join(c.home, 'state');
      mkdirSync(state);
      chmodSync(state, mode);
      const victim = join(c.home, 'victim');
      writeFileSync(victim, 'precious');
      const r = await runWrapped(c, { RECAPWRAP_STATE_DIR: state }, (pid) => {
        for (const name of [`live-${pid}.json`, `live-${pid}.json.${pid}.tmp`]) symlinkSync(victim, join(state, name));
      });
      expectAgentRanToItsEnd(r);
      expect(readFileSync(victim, 'utf8')).toBe('precious');
      expect(r.output).toContain('recapwrap: not using the state folder');
      expect(r.output).toContain('writable by other users');
      expect(r.log).toContain('state folder unusable; running without recaps');
      expect(r.log).not.toContain('"msg":"attached"');
      expect(readdirSync(state).sort()).toEqual([`live-${r.pid}.json`, `live-${r.pid}.json.${r.pid}.tmp`].sort());
    }, 60_000);
  }

  it('a symlinked state folder: refused, the folder it points to stays empty', async () => {
    const c = freshCase();
    const real = join(c.home, 'real');
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(c.home, 'state'));
    const r = await runWrapped(c, { RECAPWRAP_STATE_DIR: join(c.home, 'state') });
    expectAgentRanToItsEnd(r);
    expect(r.output).toContain('symbolic link');
    expect(readdirSync(real)).toEqual([]);
  }, 60_000);

  it('a symlinked claims folder: refused, the folder it points to stays empty', async () => {
    const c = freshCase();
    const state = join(c.home, 'state');
    mkdirSync(state, { mode: 0o700 });
    const elsewhere = join(c.home, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, join(state, 'claims'));
    const r = await runWrapped(c, { RECAPWRAP_STATE_DIR: state });
    expectAgentRanToItsEnd(r);
    expect(r.output).toContain('claims is a symbolic link');
    expect(readdirSync(elsewhere)).toEqual([]);
  }, 60_000);

  it.skipIf(!isRoot)("a state folder that is someone else's: refused", async () => {
    const c = freshCase();
    const state = join(c.home, 'state');
    mkdirSync(state, { mode: 0o700 });
    chownSync(state, 65534, 65534);
    const r = await runWrapped(c, { RECAPWRAP_STATE_DIR: state });
    expectAgentRanToItsEnd(r);
    expect(r.output).toContain('belongs to uid 65534');
    expect(readdirSync(state)).toEqual([]);
  }, 60_000);

  it('a private state folder is used (the control case: the machinery attaches and cleans up)', async () => {
    const c = freshCase();
    const state = join(c.home, 'state');
    const r = await runWrapped(c, { RECAPWRAP_STATE_DIR: state });
    expectAgentRanToItsEnd(r);
    expect(r.output).not.toContain('recapwrap:');
    expect(r.log).toContain('"msg":"attached"');
    expect(readdirSync(state).filter((f) => f.startsWith('live-'))).toEqual([]);
  }, 60_000);
});

describe('XDG faults (#19 point 8)', () => {
  it('XDG_STATE_HOME under /proc: the agent runs to its end without recap state, with a debug-log line', async () => {
    const c = freshCase();
    const r = await runWrapped(c, { XDG_STATE_HOME: '/proc/1/nope' });
    expectAgentRanToItsEnd(r);
    expect(r.log).toContain('state folder unusable; running without recaps');
    expect(r.output).not.toContain('recapwrap:');
  }, 60_000);

  it('XDG_RUNTIME_DIR under /proc: the agent runs to its end; sockets go to the state folder', async () => {
    const c = freshCase();
    const r = await runWrapped(c, { XDG_RUNTIME_DIR: '/proc/1/nope', XDG_STATE_HOME: join(c.home, 'xs') });
    expectAgentRanToItsEnd(r);
    expect(r.log).toContain('runtime folder unusable; sockets go to the state folder');
    expect(r.log).toContain('"msg":"attached"');
    expect(existsSync(join(c.home, 'xs', 'recapwrap', 'sockets'))).toBe(true);
  }, 60_000);

  it('XDG_RUNTIME_DIR open to others: one clear line, sockets go to the state folder', async () => {
    const c = freshCase();
    const run = join(c.home, 'run');
    mkdirSync(join(run, 'recapwrap'), { recursive: true });
    chmodSync(join(run, 'recapwrap'), 0o777);
    const r = await runWrapped(c, { XDG_RUNTIME_DIR: run, XDG_STATE_HOME: join(c.home, 'xs') });
    expectAgentRanToItsEnd(r);
    expect(r.output).toContain('recapwrap: not using the socket folder');
    expect(readdirSync(join(run, 'recapwrap'))).toEqual([]);
  }, 60_000);

  it('relative XDG_STATE_HOME and XDG_RUNTIME_DIR are ignored: nothing is written into the project folder', async () => {
    const c = freshCase();
    const r = await runWrapped(c, { XDG_STATE_HOME: 'rel-state', XDG_RUNTIME_DIR: 'rel-run' });
    expectAgentRanToItsEnd(r);
    expect(existsSync(join(c.cwd, 'rel-state'))).toBe(false);
    expect(existsSync(join(c.cwd, 'rel-run'))).toBe(false);
    expect(existsSync(join(c.home, '.local', 'state', 'recapwrap', 'claims'))).toBe(true);
  }, 60_000);
});
