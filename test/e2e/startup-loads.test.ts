// What a wrap loads, and only that (#29): the start-up path must not grow unnoticed. A preload lists
// every file in require.cache (dist/ chunks, packages, native addons) and Node's own modules
// (process.moduleLoadList) when asked (SIGUSR2) and at exit.
// `recapwrap true` and a wrap with options load the start-up chunks only; an idle agent wrap with the
// recap machinery running loads no session-memory code (better-sqlite3, src/memory, app/memory) before
// its first turn end, and never commander.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_BIN, assertBuilt, spawnInPty, type CliPty } from '../helpers/cli-pty.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';

const DIST = join(REPO_DIR, 'dist');
// Files of the start-up path (chunks by their rolldown.config.mjs group name, without the hash).
// A command that is not an agent loads its state file's writer (`ls` lists it, #28) only once it has run
// COMMAND_STATE_DELAY_MS (run-wrap.ts): `true` is over sooner.
const STARTUP_FILES = ['chunks/rolldown-runtime', 'chunks/startup-base', 'chunks/wrap-flow', 'cli/fast-wrap.cjs'];
// Node's own module for stty -opost: run at a child's first line of output (or a little later), not for `true`.
const CHILD_PROCESS = 'NativeModule child_process';
// Memory code (the session index): never on a wrap's start-up or idle path.
const MEMORY_MARKERS = [/better-sqlite3/, /[/\\]memory[/\\]/, /chunks[/\\](memory|store|open-store|live-update|api)-/];

let dir: string;
let run: CliPty | undefined;
beforeEach(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rw-loads-'));
  writeFileSync(
    join(dir, 'list-loads.cjs'),
    [
      "const fs = require('node:fs');",
      'const dump = () => fs.writeFileSync(process.env.RW_LOADS_OUT, [...Object.keys(require.cache), ...process.moduleLoadList].join("\\n"));',
      "process.on('SIGUSR2', dump);",
      "process.on('exit', dump);",
    ].join('\n'),
  );
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

function startWrap(args: string[], out: string): CliPty {
  const env = { HOME: dir, XDG_STATE_HOME: join(dir, 'state'), RECAPWRAP_STATE_DIR: join(dir, 'state'), PI_CODING_AGENT_DIR: join(dir, 'pi'), RECAPWRAP_DEBUG_LOG: join(dir, 'debug.log'), RW_LOADS_OUT: out, TMUX: '', TMUX_PANE: '' };
  run = spawnInPty(process.execPath, ['-r', join(dir, 'list-loads.cjs'), CLI_BIN, ...args], { env, cwd: dir });
  return run;
}

const distFiles = (list: string[]) => list.filter((f) => f.startsWith(DIST)).map((f) => relative(DIST, f).replace(/-[\w-]{8}\.cjs$/, ''));
const readList = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('what a wrap loads (#29)', () => {
  it('`recapwrap true` and `recapwrap --no-focus true` load the start-up chunks and node-pty, nothing else', async () => {
    for (const args of [['true'], ['--no-focus', 'true']]) {
      const out = join(dir, `loads-${args.length}.txt`);
      expect((await startWrap(args, out).exit).exitCode).toBe(0);
      const list = readList(out);
      expect(distFiles(list).sort(), args.join(' ')).toEqual(STARTUP_FILES);
      const packages = list.filter((f) => f.includes('node_modules')).map((f) => f.replace(/.*node_modules[/\\]/, '').split(/[/\\]/)[0]);
      expect([...new Set(packages)], args.join(' ')).toEqual(['node-pty']);
      expect(list, args.join(' ')).not.toContain(CHILD_PROCESS);
    }
  });

  it('a full-CLI command loads no string-width while its text is ASCII (#36: compiling its emoji pattern took ~19 ms)', async () => {
    const out = join(dir, 'loads-ls.txt');
    expect((await startWrap(['ls'], out).exit).exitCode).toBe(0);
    const list = readList(out);
    expect(list.some((f) => /cli[/\\]main\.cjs$/.test(f)), 'the full CLI ran').toBe(true);
    const withEmojiPattern = list.filter((f) => f.startsWith(DIST) && readFileSync(f, 'utf8').includes('/^\\p{RGI_Emoji}$/v'));
    expect(withEmojiPattern.map((f) => relative(DIST, f))).toEqual([]);
  });

  it('a command that prints a line runs stty -opost; one that runs on gets its state file writer', async () => {
    const out = join(dir, 'loads-echo.txt');
    expect((await startWrap(['sh', '-c', 'echo hi'], out).exit).exitCode).toBe(0);
    expect(readList(out)).toContain(CHILD_PROCESS);
    const sleeper = join(dir, 'loads-sleep.txt');
    const wrap = startWrap(['sleep', '60'], sleeper);
    await pollUntil(() => existsSync(join(dir, 'state')) && readdirSync(join(dir, 'state')).some((f) => f.startsWith('live-')), { timeoutMs: 15_000, description: 'the command state file' });
    process.kill(wrap.pid, 'SIGUSR2');
    const list = await pollUntil(() => (existsSync(sleeper) ? readList(sleeper) : undefined), { description: 'the list of loaded files' });
    expect(distFiles(list)).toContain('chunks/command-state');
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
    const list = await pollUntil(() => (existsSync(out) ? readList(out) : undefined), { description: 'the list of loaded files' });
    expect(list.some((f) => f.includes('live-parts')), 'the machinery is loaded').toBe(true);
    const memory = list.filter((f) => MEMORY_MARKERS.some((m) => m.test(f)));
    expect(memory.map((f) => basename(f)), 'memory code loaded before any turn end').toEqual([]);
    expect(list.filter((f) => /node_modules[/\\]commander[/\\]/.test(f))).toEqual([]);
    // No import() in the CommonJS build: it starts Node's ES module loader (util/node-require.ts).
    expect(list.filter((f) => f.includes('internal/modules/esm/resolve'))).toEqual([]);
  });
});
