// What a wrap loads, and only that (#29): the start-up path must not grow unnoticed. A preload lists
// every file in require.cache (dist/ chunks, packages, native addons) and Node's own modules
// (process.moduleLoadList) when asked (SIGUSR2) and at exit.
// `recapwrap true` and a wrap with options load the start-up chunks only; an idle agent wrap with the
// recap machinery running loads no session-memory code (better-sqlite3, src/memory, app/memory) before
// its first turn end, and never commander.
// Two loads of a plain command are timed, not on its start path: stty -opost (child_process) once the child
// has run STTY_DELAY_MS, its state file's writer once it has run COMMAND_STATE_DELAY_MS. A quick command is
// over sooner on a quiet machine; on a busy one (CI: 2 cores, one kept busy) `true` itself may still be
// running then, and those loads are right. So the preload also notes which of those two timers fired and
// what was loaded before the first did: that list is the start-up path, held to the exact set always.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMAND_STATE_DELAY_MS } from '../../src/app/wrap/run-wrap.js';
import { STTY_DELAY_MS } from '../../src/pty/passthrough.js';
import { CLI_BIN, assertBuilt, spawnInPty, type CliPty } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';

const DIST = join(REPO_DIR, 'dist');
// Files of the start-up path (chunks by their rolldown.config.mjs group name, without the hash).
// A command that is not an agent loads its state file's writer (`ls` lists it, #28) only once it has run
// COMMAND_STATE_DELAY_MS (run-wrap.ts).
// wrap-config: the config and options a wrap and the memory commands share (its own chunk, so that `search`
// and `sessions` load none of the wrap flow).
const STARTUP_FILES = ['chunks/rolldown-runtime', 'chunks/startup-base', 'chunks/wrap-config', 'chunks/wrap-flow', 'cli/fast-wrap.cjs'];
const COMMAND_STATE_FILE = 'chunks/command-state';
// Node's own module for stty -opost: run at a child's first line of output or once it has run STTY_DELAY_MS.
const CHILD_PROCESS = 'NativeModule child_process';
// Memory code (the session index): never on a wrap's start-up or idle path.
const MEMORY_MARKERS = [/better-sqlite3/, /[/\\]memory[/\\]/, /chunks[/\\](memory|store|open-store|live-update|api)-/];

// The preload: the loads as a JSON object (see Loads), written on SIGUSR2 and at exit. It wraps the global
// setTimeout to see the two timers by their delays (no other timer of the wrapper's start uses them).
// RW_END_CHILD_AT_STTY_TIMER=1 plays the race a busy machine makes likely: when the stty timer fires, the
// child is ended and the wrapper's thread held until it is gone (node-pty reaps it on its own thread), so
// the timer's work runs after the child's exit but before the wrapper has seen it.
const PRELOAD = `
const fs = require('node:fs');
const loads = () => [...Object.keys(require.cache), ...process.moduleLoadList];
const state = { before: undefined, fired: [], held: false };
const children = () => fs.readdirSync('/proc/self/task').flatMap((t) => {
  try { return fs.readFileSync('/proc/self/task/' + t + '/children', 'utf8').trim().split(/\\s+/).filter(Boolean); } catch { return []; }
});
const setTimer = globalThis.setTimeout;
globalThis.setTimeout = function (fn, ms, ...rest) {
  if (ms !== ${STTY_DELAY_MS} && ms !== ${COMMAND_STATE_DELAY_MS}) return setTimer.call(this, fn, ms, ...rest);
  return setTimer.call(this, function (...args) {
    state.before ??= loads();
    state.fired.push(ms);
    if (ms === ${STTY_DELAY_MS} && process.env.RW_END_CHILD_AT_STTY_TIMER === '1') {
      for (const pid of children()) process.kill(Number(pid), 'SIGTERM');
      const end = Date.now() + 20000;
      while (children().length > 0 && Date.now() < end);
      state.held = children().length === 0;
    }
    return fn.apply(this, args);
  }, ms, ...rest);
};
const dump = () => fs.writeFileSync(process.env.RW_LOADS_OUT, JSON.stringify({ ...state, all: loads() }));
process.on('SIGUSR2', dump);
process.on('exit', dump);
`;
/** What the preload wrote: every load, those before the first timed one, and which timers fired. */
interface Loads {
  all: string[];
  /** The loads when the first of the two timers fired (its own loads not yet made); undefined if none did. */
  before?: string[];
  fired: number[];
  /** RW_END_CHILD_AT_STTY_TIMER: the child was gone (reaped) before the stty timer's work ran. */
  held: boolean;
}

let dir: string;
let run: CliPty | undefined;
beforeEach(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rw-loads-'));
  writeFileSync(join(dir, 'list-loads.cjs'), PRELOAD);
});
afterEach(() => {
  try {
    run?.kill('SIGKILL');
  } catch {
    // Already gone.
  }
  run = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function startWrap(args: string[], out: string, extraEnv: Record<string, string> = {}): CliPty {
  const env = { HOME: dir, XDG_STATE_HOME: join(dir, 'state'), RECAPWRAP_STATE_DIR: join(dir, 'state'), PI_CODING_AGENT_DIR: join(dir, 'pi'), RECAPWRAP_DEBUG_LOG: join(dir, 'debug.log'), RW_LOADS_OUT: out, TMUX: '', TMUX_PANE: '', ...extraEnv };
  run = spawnInPty(process.execPath, ['-r', join(dir, 'list-loads.cjs'), CLI_BIN, ...args], { env, cwd: dir });
  return run;
}

const distFiles = (list: string[]) => list.filter((f) => f.startsWith(DIST)).map((f) => relative(DIST, f).replace(/-[\w-]{8}\.cjs$/, ''));
const readLoads = (file: string): Loads => JSON.parse(readFileSync(file, 'utf8')) as Loads;
const packagesOf = (list: string[]) => [...new Set(list.filter((f) => f.includes('node_modules')).map((f) => f.replace(/.*node_modules[/\\]/, '').split(/[/\\]/)[0]))];

describe('what a wrap loads (#29)', () => {
  it('`recapwrap true` and `recapwrap --no-focus true` load the start-up chunks and node-pty, nothing else', async () => {
    for (const args of [['true'], ['--no-focus', 'true']]) {
      const what = args.join(' ');
      const out = join(dir, `loads-${args.length}.txt`);
      expect((await startWrap(args, out).exit).exitCode).toBe(0);
      const { all, before = all, fired } = readLoads(out);
      // The start-up path, exactly: everything loaded before a timed load could start.
      expect(distFiles(before).sort(), what).toEqual(STARTUP_FILES);
      expect(packagesOf(before), what).toEqual(['node-pty']);
      expect(before, what).not.toContain(CHILD_PROCESS);
      // After it, only the timed loads, and each only if its timer fired (`true` ran that long).
      expect(packagesOf(all), what).toEqual(['node-pty']);
      expect(distFiles(all).filter((f) => !STARTUP_FILES.includes(f)), what).toEqual(fired.includes(COMMAND_STATE_DELAY_MS) ? [COMMAND_STATE_FILE] : []);
      if (!fired.includes(STTY_DELAY_MS)) expect(all, what).not.toContain(CHILD_PROCESS);
    }
  });

  it('a full-CLI command loads no string-width while its text is ASCII (#36: compiling its emoji pattern took ~19 ms)', async () => {
    const out = join(dir, 'loads-ls.txt');
    expect((await startWrap(['ls'], out).exit).exitCode).toBe(0);
    const list = readLoads(out).all;
    expect(list.some((f) => /cli[/\\]main\.cjs$/.test(f)), 'the full CLI ran').toBe(true);
    const withEmojiPattern = list.filter((f) => f.startsWith(DIST) && readFileSync(f, 'utf8').includes('/^\\p{RGI_Emoji}$/v'));
    expect(withEmojiPattern.map((f) => relative(DIST, f))).toEqual([]);
  });

  it.skipIf(!existsSync('/proc/self/task'))('a command that ended as the stty delay was up (its exit not yet seen) forks no stty', async () => {
    // On a busy machine the timer often runs in the same loop turn as the child's exit, before it.
    const out = join(dir, 'loads-ended.txt');
    expect((await startWrap(['sleep', '60'], out, { RW_END_CHILD_AT_STTY_TIMER: '1' }).exit).exitCode).toBe(128 + 15);
    const loads = readLoads(out);
    expect(loads.fired, 'the stty timer fired').toContain(STTY_DELAY_MS);
    expect(loads.held, 'the child was gone before its work ran').toBe(true);
    expect(loads.all).not.toContain(CHILD_PROCESS);
  });

  it('a command that prints a line runs stty -opost; one that runs on gets its state file writer', async () => {
    const out = join(dir, 'loads-echo.txt');
    expect((await startWrap(['sh', '-c', 'echo hi'], out).exit).exitCode).toBe(0);
    expect(readLoads(out).all).toContain(CHILD_PROCESS);
    const sleeper = join(dir, 'loads-sleep.txt');
    const wrap = startWrap(['sleep', '60'], sleeper);
    await pollUntil(() => existsSync(join(dir, 'state')) && readdirSync(join(dir, 'state')).some((f) => f.startsWith('live-')), { timeoutMs: 15_000, description: 'the command state file' });
    process.kill(wrap.pid, 'SIGUSR2');
    const list = await pollUntil(() => (existsSync(sleeper) ? readLoads(sleeper).all : undefined), { description: 'the list of loaded files' });
    expect(distFiles(list)).toContain(COMMAND_STATE_FILE);
  });

  it('an idle agent wrap with the recap machinery running loads no session-memory code and no commander', async () => {
    // A stand-in named pi, so the wrapper pins its session and follows the file (tracker and tailer run).
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'pi'), '#!/bin/sh\nexec sleep 60\n');
    chmodSync(join(bin, 'pi'), 0o755);
    const out = join(dir, 'loads-agent.txt');
    const wrap = startWrap(['--display', 'overlay', join(bin, 'pi')], out);
    await pollUntil(() => existsSync(join(dir, 'debug.log')) && readFileSync(join(dir, 'debug.log'), 'utf8').includes('"msg":"attached"'), { timeoutMs: 15_000, description: 'the recap machinery attached' });
    await pollUntil(() => readFileSync(join(dir, 'debug.log'), 'utf8').includes('following session file'), { timeoutMs: 15_000, description: 'the pinned session followed' });
    process.kill(wrap.pid, 'SIGUSR2');
    const list = await pollUntil(() => (existsSync(out) ? readLoads(out).all : undefined), { description: 'the list of loaded files' });
    expect(list.some((f) => f.includes('live-parts')), 'the machinery is loaded').toBe(true);
    const memory = list.filter((f) => MEMORY_MARKERS.some((m) => m.test(f)));
    expect(memory.map((f) => basename(f)), 'memory code loaded before any turn end').toEqual([]);
    expect(list.filter((f) => /node_modules[/\\]commander[/\\]/.test(f))).toEqual([]);
    // No import() in the CommonJS build: it starts Node's ES module loader (util/node-require.ts).
    expect(list.filter((f) => f.includes('internal/modules/esm/resolve'))).toEqual([]);
  });
});

// `search` and `sessions` (the fast memory path) are run by scripts and pickers: what they load is held too.
// Through pipes, as a script or the memory bench runs them (a terminal needs its streams).
describe('what a plain search or sessions loads', () => {
  const runPiped = (args: string[]) => {
    const out = join(dir, `loads-${args[0]}.txt`);
    const env = { ...process.env, HOME: dir, XDG_STATE_HOME: join(dir, 'state'), RECAPWRAP_STATE_DIR: join(dir, 'state'), XDG_CONFIG_HOME: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache'), RECAPWRAP_LLM: 'false', RW_LOADS_OUT: out };
    const r = spawnSync(process.execPath, ['-r', join(dir, 'list-loads.cjs'), CLI_BIN, ...args], { env, cwd: dir, encoding: 'utf8' });
    expect(r.error).toBeUndefined();
    return readLoads(out).all;
  };

  it('loads no transcript parser, no worker_threads, no fs promise API, no bindings lookup and no output streams', () => {
    for (const args of [['sessions', '--limit', '20'], ['search', 'tag']]) {
      const what = args.join(' ');
      const list = runPiped(args);
      expect(list.some((f) => /chunks[/\\]api-/.test(f)), `${what}: the index was opened`).toBe(true);
      // The parsers' chunk (registry-*): the refresh lists folders and the cards build resume commands without it
      // (transcripts/sessions.ts); a search reads a transcript (and loads it) only for a hit that needs a turn.
      expect(distFiles(list), what).not.toContain('chunks/registry');
      expect(packagesOf(list).sort(), what).toEqual(['better-sqlite3']);
      for (const builtin of ['NativeModule worker_threads', 'NativeModule internal/fs/promises', 'NativeModule stream', 'NativeModule net']) expect(list, what).not.toContain(builtin);
    }
  });
});

