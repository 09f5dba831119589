// resolveCommand finds a command the way execvp would, with the shell's exit codes for what it cannot run.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findOnPath, resolveCommand } from './command-lookup.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-lookup-'));
  for (const sub of ['a', 'b', 'c']) mkdirSync(join(dir, sub));
  writeFileSync(join(dir, 'b', 'tool'), '#!/bin/sh\n');
  chmodSync(join(dir, 'b', 'tool'), 0o755);
  writeFileSync(join(dir, 'a', 'plain'), 'not executable\n');
  chmodSync(join(dir, 'a', 'plain'), 0o644);
  mkdirSync(join(dir, 'a', 'folder'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const pathOf = (...subs: string[]) => subs.map((s) => join(dir, s)).join(':');

describe('resolveCommand', () => {
  it('finds a command in a later PATH folder, past folders without it and one that does not exist', () => {
    expect(resolveCommand('tool', { PATH: `${join(dir, 'missing')}:${pathOf('a', 'b')}` }, dir)).toEqual({ ok: true, path: join(dir, 'b', 'tool') });
  });

  it('says not found (127) when no folder has it', () => {
    expect(resolveCommand('nope', { PATH: pathOf('a', 'b', 'c') }, dir)).toMatchObject({ ok: false, exitCode: 127, message: 'command not found: nope' });
  });

  it('says permission denied (126) for a file that is not executable or a folder, unless a later folder has it', () => {
    expect(resolveCommand('plain', { PATH: pathOf('a', 'c') }, dir)).toMatchObject({ ok: false, exitCode: 126 });
    expect(resolveCommand('folder', { PATH: pathOf('a') }, dir)).toMatchObject({ ok: false, exitCode: 126 });
    writeFileSync(join(dir, 'c', 'plain'), '#!/bin/sh\n');
    chmodSync(join(dir, 'c', 'plain'), 0o755);
    expect(resolveCommand('plain', { PATH: pathOf('a', 'c') }, dir)).toEqual({ ok: true, path: join(dir, 'c', 'plain') });
  });

  it('takes a path with a slash as it is, relative to cwd', () => {
    expect(resolveCommand('./b/tool', { PATH: '' }, dir)).toEqual({ ok: true, path: './b/tool' });
    expect(resolveCommand('./b/none', { PATH: '' }, dir)).toMatchObject({ ok: false, exitCode: 127 });
    expect(resolveCommand('./a/plain', { PATH: '' }, dir)).toMatchObject({ ok: false, exitCode: 126 });
  });

  it('reads an empty PATH entry as cwd and a relative one from cwd, as execvp does', () => {
    expect(resolveCommand('tool', { PATH: `${join(dir, 'a')}::/nonexistent` }, join(dir, 'b'))).toEqual({ ok: true, path: join(dir, 'b', 'tool') });
    expect(resolveCommand('tool', { PATH: 'a:b' }, dir)).toEqual({ ok: true, path: join(dir, 'b', 'tool') });
    expect(resolveCommand('tool', { PATH: 'a:b' }, join(dir, 'c'))).toMatchObject({ ok: false, exitCode: 127 });
  });

  it('says permission denied (126) for an executable-mode file that is not a regular file (a FIFO)', () => {
    execFileSync('mkfifo', [join(dir, 'c', 'pipe')]);
    chmodSync(join(dir, 'c', 'pipe'), 0o755);
    expect(resolveCommand('pipe', { PATH: pathOf('c') }, dir)).toMatchObject({ ok: false, exitCode: 126 });
    expect(resolveCommand('./c/pipe', { PATH: '' }, dir)).toMatchObject({ ok: false, exitCode: 126 });
  });
});

describe('findOnPath', () => {
  it('gives the path resolveCommand would run, or undefined for a missing or unrunnable command', () => {
    expect(findOnPath('tool', { PATH: pathOf('a', 'b') }, dir)).toBe(join(dir, 'b', 'tool'));
    expect(findOnPath('plain', { PATH: pathOf('a', 'b') }, dir)).toBeUndefined();
    expect(findOnPath('folder', { PATH: pathOf('a', 'b') }, dir)).toBeUndefined();
    expect(findOnPath('nope', { PATH: pathOf('a', 'b') }, dir)).toBeUndefined();
  });
});
