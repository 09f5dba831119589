// Non-TTY mode through the built CLI: with stdin or stdout not a terminal, recapwrap runs the command
// directly with inherited stdio, and behaves exactly like the command without recapwrap.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';

let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rw-direct-'));
  for (const name of ['b.txt', 'a.txt', 'c d.txt']) writeFileSync(join(dir, name), name);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function recapwrap(args: string[], input?: string) {
  return spawnSync(process.execPath, [CLI_BIN, ...args], { input, encoding: 'latin1', cwd: dir, env: { ...process.env, RECAPWRAP: undefined } });
}

describe('recapwrap without a terminal', () => {
  it('echo hi | recapwrap cat', () => {
    const r = recapwrap(['cat'], 'hi\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('hi\n');
    expect(r.stderr).toBe('');
  });

  // `ls` is also a recapwrap subcommand (live sessions), so the wrapped ls is spelled `recapwrap -- ls`.
  it('recapwrap -- ls > out.txt writes exactly what ls writes', () => {
    const lsArgs = ['-la', '--time-style=+%s', '--', 'a.txt', 'b.txt', 'c d.txt'];
    const file = join(dir, 'out.txt');
    const fd = openSync(file, 'w');
    try {
      const r = spawnSync(process.execPath, [CLI_BIN, '--', 'ls', ...lsArgs], { stdio: ['ignore', fd, 'pipe'], cwd: dir });
      expect(r.status).toBe(0);
    } finally {
      closeSync(fd);
    }
    const expected = spawnSync('ls', lsArgs, { cwd: dir, encoding: 'latin1' }).stdout;
    expect(expected).toContain('c d.txt');
    expect(readFileSync(file, 'latin1')).toBe(expected);
  });

  it('passes binary bytes and large input through unchanged', () => {
    const bytes = Buffer.alloc(3 << 20);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
    const r = spawnSync(process.execPath, [CLI_BIN, 'cat'], { input: bytes, maxBuffer: 16 << 20 });
    expect(r.status).toBe(0);
    expect(Buffer.compare(r.stdout, bytes)).toBe(0);
  });

  it('exits with the command exit code, or 128+N for signal N', () => {
    expect(recapwrap(['sh', '-c', 'exit 3']).status).toBe(3);
    expect(recapwrap(['sh', '-c', 'kill -TERM $$']).status).toBe(143);
    expect(recapwrap(['sh', '-c', 'kill -KILL $$']).status).toBe(137);
  });

  it('does not parse the command own flags', () => {
    const r = recapwrap(['sh', '-c', 'printf "%s|" "$@"', 'sh', '--help', '-V', '--no-focus', '--']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('--help|-V|--no-focus|--|');
  });

  it('sets RECAPWRAP=1 and RECAPWRAP_PID for the command', () => {
    const r = recapwrap(['sh', '-c', 'echo "$RECAPWRAP $RECAPWRAP_PID"']);
    expect(r.stdout).toMatch(/^1 \d+\n$/);
  });

  it('recapwrap -- ls wraps ls instead of running the ls subcommand', () => {
    const r = recapwrap(['--', 'ls', 'a.txt']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('a.txt\n');
  });

  it('recapwrap nonexistent-cmd prints one clear line and exits 127', () => {
    const r = recapwrap(['rw-no-such-command-xyz', '--flag']);
    expect(r.status).toBe(127);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('recapwrap: command not found: rw-no-such-command-xyz\n');
  });

  it('a file that is not executable exits 126', () => {
    const r = recapwrap(['./a.txt']);
    expect(r.status).toBe(126);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('recapwrap with no command prints help and exits 2', () => {
    const r = recapwrap([]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Usage: recapwrap');
    expect(r.stderr).toContain('recapwrap -- ls');
  });

  it('--help documents the wrap options', () => {
    const r = recapwrap(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--no-focus');
    expect(r.stdout).toContain('--tmux-focus');
    expect(r.stdout).toContain('recapwrap -- ls');
  });
});
