// resolveCommand finds a command the way execvp would, with the shell's exit codes for what it cannot run.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveCommand } from './command-lookup.js';

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
});
