import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkPrivateDir, ensurePrivateDir, readRegularFile, UnsafeFolderError, writeFileAtomic } from './safe-fs.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-safefs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const isRoot = process.getuid?.() === 0;

describe('ensurePrivateDir (#19 points 2 and 8)', () => {
  it('creates missing folders 0700, one level at a time', () => {
    const target = join(dir, 'a', 'b', 'recapwrap');
    ensurePrivateDir(target);
    expect(lstatSync(target).mode & 0o777).toBe(0o700);
    expect(lstatSync(join(dir, 'a')).mode & 0o777).toBe(0o700);
    ensurePrivateDir(target); // again: fine
  });

  it('fails fast under /proc instead of looping for ever like mkdir -p in Node', () => {
    const started = Date.now();
    expect(() => ensurePrivateDir('/proc/1/nope/recapwrap')).toThrow(UnsafeFolderError);
    try {
      ensurePrivateDir('/proc/1/nope/recapwrap');
    } catch (error) {
      expect((error as UnsafeFolderError).kind).toBe('unusable');
    }
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses a relative path', () => {
    expect(() => ensurePrivateDir('state/recapwrap')).toThrow(/not an absolute path/);
  });

  it('refuses a folder writable by others (0777, 1777) and a group-writable one', () => {
    for (const mode of [0o777, 0o1777, 0o770]) {
      const d = join(dir, `m${mode.toString(8)}`);
      mkdirSync(d);
      chmodSync(d, mode);
      expect(() => ensurePrivateDir(d)).toThrow(/writable by other users.*chmod 700/);
      try {
        ensurePrivateDir(d);
      } catch (error) {
        expect((error as UnsafeFolderError).kind).toBe('not-private');
      }
    }
  });

  it('refuses a symlinked folder even when it points at a private folder', () => {
    mkdirSync(join(dir, 'real'), { mode: 0o700 });
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    expect(() => ensurePrivateDir(join(dir, 'link'))).toThrow(/symbolic link/);
  });

  it.skipIf(!isRoot)('refuses a folder owned by another user', () => {
    const d = join(dir, 'theirs');
    mkdirSync(d, { mode: 0o700 });
    chownSync(d, 65534, 65534);
    expect(checkPrivateDir(d)).toMatch(/belongs to uid 65534/);
  });
});

describe('writeFileAtomic', () => {
  it('never writes through a link planted at its temp path or its target', () => {
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'precious');
    const target = join(dir, 'live-1.json');
    symlinkSync(victim, `${target}.${process.pid}.tmp`);
    writeFileAtomic(target, '{"ok":true}');
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(readFileSync(target, 'utf8')).toBe('{"ok":true}');
    expect(lstatSync(target).mode & 0o777).toBe(0o600);
    // A link at the target itself is replaced, not followed.
    rmSync(target);
    symlinkSync(victim, target);
    writeFileAtomic(target, 'new');
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(target).isSymbolicLink()).toBe(false);
    expect(existsSync(`${target}.${process.pid}.tmp`)).toBe(false);
  });
});

describe('readRegularFile', () => {
  it('reads a small file, refuses links, FIFOs, devices and big files without blocking', () => {
    writeFileSync(join(dir, 'f'), 'hello');
    expect(readRegularFile(join(dir, 'f'), 100)).toBe('hello');
    expect(() => readRegularFile(join(dir, 'f'), 3)).toThrow(/over 3 bytes/);
    symlinkSync(join(dir, 'f'), join(dir, 'l'));
    expect(() => readRegularFile(join(dir, 'l'), 100)).toThrow(/ELOOP/);
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    expect(() => readRegularFile(join(dir, 'fifo'), 100)).toThrow(/not a regular file/);
    expect(() => readRegularFile('/dev/zero', 100)).toThrow(/not a regular file/);
  });
});
