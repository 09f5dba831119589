// The bundle's compiled code kept between runs (bin/compile-cache.js): written once, private, read back;
// an entry V8 cannot use is written again, and a folder or entry someone else could have written is not used.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_BIN, assertBuilt } from '../helpers/cli-pty.js';
import { REPO_DIR } from '../helpers/shared.js';

let root: string;
let env: NodeJS.ProcessEnv;
const cacheDir = () => join(root, 'cache', 'recapwrap', 'v8');
// An empty index: `sessions --json` prints [] and exits 1 (nothing listed); what it prints is compared.
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], { env, encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`exit ${r.status}: ${r.stderr}`);
  return `${r.status} ${r.stdout} ${r.stderr}`;
};

beforeEach(() => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'rw-compile-cache-'));
  mkdirSync(join(root, 'home'));
  env = { PATH: process.env.PATH, HOME: join(root, 'home'), XDG_CACHE_HOME: join(root, 'cache'), RECAPWRAP_STATE_DIR: join(root, 'state'), NO_COLOR: '1' };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the compile cache', () => {
  it('is written once, private, and used by the next run', () => {
    const first = run('sessions', '--json');
    const names = readdirSync(cacheDir());
    expect(names.length).toBeGreaterThan(3);
    expect(statSync(cacheDir()).mode & 0o777).toBe(0o700);
    for (const n of names) {
      expect(n).toMatch(/\.cjs-[0-9a-f]{16}-v\d+\.\d+\.\d+-\w+\.v8$/);
      expect(statSync(join(cacheDir(), n)).mode & 0o777, n).toBe(0o600);
    }
    const times = names.map((n) => statSync(join(cacheDir(), n)).mtimeMs);
    expect(run('sessions', '--json')).toBe(first);
    // Read back, not written again.
    expect(names.map((n) => statSync(join(cacheDir(), n)).mtimeMs)).toEqual(times);
  });

  it('writes again an entry V8 cannot use, and the command works the same', () => {
    const first = run('sessions', '--json');
    const names = readdirSync(cacheDir());
    for (const n of names) writeFileSync(join(cacheDir(), n), 'not code', { mode: 0o600 });
    expect(run('sessions', '--json')).toBe(first);
    for (const n of names) expect(statSync(join(cacheDir(), n)).size, n).toBeGreaterThan(100);
  });

  it('uses no folder others may write, and no entry others may write', () => {
    mkdirSync(cacheDir(), { recursive: true });
    chmodSync(cacheDir(), 0o777);
    const first = run('sessions', '--json');
    expect(readdirSync(cacheDir())).toEqual([]);
    chmodSync(cacheDir(), 0o700);
    run('sessions', '--json');
    const names = readdirSync(cacheDir());
    for (const n of names) {
      writeFileSync(join(cacheDir(), n), 'planted', { mode: 0o600 });
      chmodSync(join(cacheDir(), n), 0o666);
    }
    // A planted entry is neither run nor trusted: the command works, and the entry is written again by us.
    expect(run('sessions', '--json')).toBe(first);
    for (const n of names) expect(statSync(join(cacheDir(), n)).mode & 0o777, n).toBe(0o600);
  });

  it("runs each install's own code: a file of the same name and length in another install (or after an upgrade) is not taken for it", () => {
    // A second install beside this one, its main.cjs changed in one word of the help, to the same length.
    const other = join(root, 'other');
    mkdirSync(other);
    cpSync(join(REPO_DIR, 'bin'), join(other, 'bin'), { recursive: true });
    cpSync(join(REPO_DIR, 'dist'), join(other, 'dist'), { recursive: true });
    cpSync(join(REPO_DIR, 'package.json'), join(other, 'package.json'));
    symlinkSync(join(REPO_DIR, 'node_modules'), join(other, 'node_modules'));
    const main = join(other, 'dist', 'cli', 'main.cjs');
    const source = readFileSync(main, 'utf8');
    expect(source).toContain('bring the session index up to date');
    writeFileSync(main, source.replace('bring the session index up to date', 'BRING the session index up to date'));
    const help = (bin: string) => spawnSync(process.execPath, [bin, 'index', '--help'], { env, encoding: 'utf8' }).stdout;
    expect(help(CLI_BIN)).toContain('bring the session index');
    expect(help(join(other, 'bin', 'recapwrap.js'))).toContain('BRING the session index');
    expect(help(CLI_BIN)).toContain('bring the session index');
    // Upgraded in place: the same file rewritten, the same length again.
    writeFileSync(main, source.replace('bring the session index up to date', 'bring THE session index up to date'));
    expect(help(join(other, 'bin', 'recapwrap.js'))).toContain('bring THE session index');
  });

  it('is off with RECAPWRAP_COMPILE_CACHE=0', () => {
    env.RECAPWRAP_COMPILE_CACHE = '0';
    run('sessions', '--json');
    expect(() => readdirSync(cacheDir())).toThrow();
  });
});
