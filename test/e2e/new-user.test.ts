// What a new user met on the command line (#37), through the built CLI: wrap options typed before a
// subcommand are refused rather than ignored, `help mcp install` is install's help, and an agent that is
// not installed is named, with how to install it and the demo that needs none.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';

const home = mkdtempSync(join(tmpdir(), 'rw-new-user-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  assertBuilt();
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
    encoding: 'utf8',
    input: '',
    env: { PATH: process.env.PATH, HOME: home, RECAPWRAP_STATE_DIR: join(home, 'state'), NO_COLOR: '1', ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('a new user on the command line', () => {
  it('wrap options before a subcommand are refused (exit 2), as a bad value before a command is', () => {
    const r = cli(['--pick-key', 'ctrl-g', 'sessions']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe('recapwrap: `--pick-key` is an option for wrapping an agent (`recapwrap [options] <agent>`); `sessions` does not take it there (`recapwrap help sessions` lists its own)\n');
    expect(cli(['--away', '5', '--no-llm', 'ls']).err).toMatch(/^recapwrap: `--away`, `--no-llm` are options for wrapping an agent/);
    expect(cli(['--pick-key', 'foo', '--', 'true']).code).toBe(2);
    // Options after the subcommand are its own, and env settings are no flags typed there.
    expect(cli(['ls'], { RECAPWRAP_AWAY: '5' }).code).toBe(0);
  });

  it('`help mcp install` prints install’s help; a subcommand that does not exist is named', () => {
    const r = cli(['help', 'mcp', 'install']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: recapwrap mcp install \[options\]/);
    expect(r.out).toContain('--dry-run');
    expect(cli(['help', 'mcp', 'instal'])).toMatchObject({ code: 2, err: 'recapwrap: no command `mcp instal` (`recapwrap help mcp` lists them)\n' });
  });

  it('an agent that is not installed is named, with its install command and the demo', () => {
    const r = cli(['claude'], { PATH: '/nonexistent' });
    expect(r.code).toBe(127);
    expect(r.err).toBe(
      'recapwrap: command not found: claude (Claude Code is not installed, or not on your PATH)\n' +
        '  install it: npm install -g @anthropic-ai/claude-code\n' +
        '  or try recapwrap with its own scripted agent (no key, no network): recapwrap demo\n',
    );
    expect(cli(['no-such-program-xyz'], { PATH: '/nonexistent' }).err).toBe('recapwrap: command not found: no-such-program-xyz\n');
  });
});
