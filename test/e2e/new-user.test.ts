// What a new user met on the command line (#37), through the built CLI: wrap options typed before a
// subcommand are refused rather than ignored, `help mcp install` is install's help, and an agent that is
// not installed is named, with how to install it and the demo that needs none; the README's memory example
// is what a newcomer gets after `recapwrap demo`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI_BIN, spawnInPty } from '../helpers/cli-pty.js';
import { REPO_DIR } from '../helpers/shared.js';

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

  it("the README's memory example is what `recapwrap demo` then those commands give a newcomer", async () => {
    assertBuilt();
    const readme = readFileSync(join(REPO_DIR, 'README.md'), 'utf8');
    // `npm link` after `npm install` skips the clone's prepare (built already): npm 11 warns about it otherwise.
    expect(readme).toMatch(/^npm link --ignore-scripts +#/m);
    const start = readme.indexOf('A first try, right after `recapwrap demo`');
    expect(start).toBeGreaterThan(0);
    const block = readme.slice(readme.indexOf('```\n', start) + 4, readme.indexOf('\n```', readme.indexOf('```\n', start) + 4)).split('\n');
    const fresh = join(home, 'newcomer');
    const tmp = join(home, 'tmp');
    mkdirSync(fresh);
    mkdirSync(tmp);
    const env = { PATH: process.env.PATH, HOME: fresh, TMPDIR: tmp, RECAPWRAP_DEMO_STEP_MS: '100', TMUX: undefined, TMUX_PANE: undefined };
    const demo = spawnInPty(process.execPath, [CLI_BIN, 'demo', '--here'], { cwd: fresh, env });
    await demo.waitFor('Ctrl-D quits.', { timeoutMs: 15_000 });
    demo.write('fix the failing test\r');
    await demo.waitFor('Shall I run', { timeoutMs: 15_000 });
    demo.write('y\r');
    await demo.waitFor('All 12 tests pass now', { timeoutMs: 15_000 });
    demo.write('\x04');
    expect((await demo.exit).exitCode).toBe(0);
    // Ages, ids, dates and the throwaway folder's name differ from run to run; lines the README shows cut
    // at its terminal's width (…) are compared up to the cut.
    const norm = (line: string) =>
      line.replace(/recapwrap-demo-\w{6}/g, 'recapwrap-demo-X').replace(/\b\d+s\b/g, 'Ns').replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, 'ID').replace(/\d{4}-\d\d-\d\d(?:T\S*| \d\d:\d\d)?/g, 'DATE').replace(/--[\w-]*recapwrap-demo-X-myproj--/g, '--DEMO--').replace(/ +/g, ' ').replace(new RegExp(tmp, 'g'), '/tmp');
    const commands = block.flatMap((l, i) => (l.startsWith('$ recapwrap ') ? [i] : []));
    expect(commands.length).toBe(3);
    for (const [n, at] of commands.entries()) {
      const args = (block[at] as string).slice('$ recapwrap '.length).split(' ');
      const shown = block.slice(at + 1, commands[n + 1] ?? block.length);
      const r = spawnSync(process.execPath, [CLI_BIN, ...args], { env: { ...env, NO_COLOR: '1' }, encoding: 'utf8', cwd: fresh });
      expect(r.status, args.join(' ')).toBe(0);
      const got = r.stdout.trimEnd().split('\n').map(norm);
      expect(got.length, args.join(' ')).toBe(shown.length);
      for (const [i, line] of shown.entries()) {
        let want = norm(line).replace(/…$/, '');
        // A path cut inside the throwaway folder's name: compared up to the session folder.
        if (line.endsWith('…') && want.includes('/sessions/--')) want = want.slice(0, want.indexOf('/sessions/--') + '/sessions/--'.length);
        expect((got[i] as string).startsWith(want), `${args.join(' ')}: ${got[i]} / ${want}`).toBe(true);
      }
    }
  });
});
