// The run's check that no test wrote into the real HOME (test/helpers/test-home.ts): it must see what the
// old leaks left (a state folder, this checkout's compile cache entries) and not the user's own recapwrap
// writing into folders it already had.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_DIR } from '../helpers/shared.js';
import { checkRealHome, findRealFolders, snapshotRealFolders, TEST_HOMES_ENV } from '../helpers/test-home.js';

const { entryName } = createRequire(import.meta.url)('../../bin/compile-cache.js') as { entryName(file: string): string | undefined };

describe("a test file's HOME", () => {
  it('is a temp folder of its own, not the user\'s, and what the test starts gets it, with no XDG folders', () => {
    const homes = process.env[TEST_HOMES_ENV] as string;
    expect(homes).toBeTruthy();
    expect(homedir().startsWith(`${homes}/`)).toBe(true);
    expect(homedir()).not.toBe(userInfo().homedir);
    const child = execFileSync('sh', ['-c', 'echo "$HOME|$XDG_CACHE_HOME|$XDG_STATE_HOME|$XDG_CONFIG_HOME|$RECAPWRAP_STATE_DIR"'], { encoding: 'utf8' }).trim();
    expect(child).toBe(`${homedir()}||||`);
  });
});

describe('the check of the real HOME at the end of a test run', () => {
  let home: string;
  afterEach(() => rmSync(home, { recursive: true, force: true }));
  const user = () => {
    home = mkdtempSync(join(tmpdir(), 'rw-test-home-'));
    return findRealFolders({ HOME: home }, home);
  };

  it('reports a recapwrap state folder that appeared during the run', () => {
    const real = user();
    const before = snapshotRealFolders(real);
    expect(checkRealHome(real, before)).toEqual([]);
    mkdirSync(join(home, '.local', 'state', 'recapwrap', 'sockets'), { recursive: true });
    writeFileSync(join(home, '.local', 'state', 'recapwrap', 'index.db'), '');
    expect(checkRealHome(real, before)).toEqual([`${join(home, '.local', 'state', 'recapwrap')}/ (index.db, sockets)`]);
  });

  it("reports new compile cache entries of this checkout, not the user's own recapwrap at work in its folders", () => {
    const ours = entryName(join(REPO_DIR, 'dist', 'cli', 'main.cjs'));
    if (!ours) throw new Error('Expected a built CLI in dist/ (run `npm run build` first), got no dist/cli/main.cjs');
    const real = user();
    const v8 = join(home, '.cache', 'recapwrap', 'v8');
    const state = join(home, '.local', 'state', 'recapwrap');
    mkdirSync(state, { recursive: true });
    const before = snapshotRealFolders(real);
    // The user's own install and sessions meanwhile (the cache folder made by it): not the run's.
    mkdirSync(v8, { recursive: true });
    writeFileSync(join(v8, 'main.cjs-0123456789abcdef-v20.0.0-x64.v8'), '');
    writeFileSync(join(state, 'live-123.json'), '{}');
    expect(checkRealHome(real, before)).toEqual([]);
    writeFileSync(join(v8, ours), '');
    expect(checkRealHome(real, before)).toEqual([`${v8}/: 1 compile cache entries of this checkout (${ours})`]);
  });

  it('looks where recapwrap would look: XDG folders, RECAPWRAP_STATE_DIR, and the passwd HOME a child without HOME falls back to', () => {
    const real = findRealFolders({ HOME: '/home/u', XDG_CACHE_HOME: '/x/cache', XDG_RUNTIME_DIR: '/run/user/1' }, '/home/pw');
    expect(real.folders.sort()).toEqual(['/home/pw/.config/recapwrap', '/home/pw/.local/state/recapwrap', '/home/u/.config/recapwrap', '/home/u/.local/state/recapwrap', '/run/user/1/recapwrap'].sort());
    expect(real.v8.sort()).toEqual(['/home/pw/.cache/recapwrap/v8', '/x/cache/recapwrap/v8']);
    expect(findRealFolders({ HOME: '/home/u', RECAPWRAP_STATE_DIR: '/s' }, '/home/u').folders).toContain('/s');
  });
});
