// What a newcomer types first, through the built CLI (#28 point 6): `recapwrap help [command]` works
// and lists every command, a typo of a subcommand that is not on PATH gets "did you mean", and the
// completion script is the one generated from the registered commands.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { describeProgram, renderCompletion, userCommands } from '../../src/cli/completion.js';
import { createProgram } from '../../src/cli/main.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';

function cli(args: string[]) {
  assertBuilt();
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], { encoding: 'utf8', input: '', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('help, typos and completion', () => {
  it('`recapwrap help` lists every command and exits 0; `help COMMAND` is that command\'s help', () => {
    const help = cli(['help']);
    expect(help.code).toBe(0);
    for (const c of userCommands(createProgram())) expect(help.out, c.name()).toMatch(new RegExp(`^  ${c.name()}\\b`, 'm'));
    expect(help.out).toMatch(/^ {2}help \[command\]/m);
    const doctor = cli(['help', 'doctor']);
    expect(doctor.code).toBe(0);
    expect(doctor.out).toMatch(/^Usage: recapwrap doctor/);
  });

  it('a typo of a subcommand gets "did you mean"; a word far from any does not', () => {
    expect(cli(['doctr'])).toMatchObject({ code: 127, err: 'recapwrap: command not found: doctr; did you mean `recapwrap doctor`?\n' });
    expect(cli(['--away', '5', 'resmue'])).toMatchObject({ code: 127, err: 'recapwrap: command not found: resmue; did you mean `recapwrap resume`?\n' });
    expect(cli(['no-such-program-xyz'])).toMatchObject({ code: 127, err: 'recapwrap: command not found: no-such-program-xyz\n' });
    expect(cli(['help', 'docter'])).toMatchObject({ code: 2, err: 'recapwrap: no command `docter`; did you mean `doctor`? (`recapwrap help` lists them)\n' });
  });

  it('`recapwrap completion SHELL` prints the script generated from the registered commands', () => {
    for (const shell of ['bash', 'zsh', 'fish'] as const) {
      const r = cli(['completion', shell]);
      expect(r.code, shell).toBe(0);
      expect(r.out, shell).toBe(renderCompletion(shell, describeProgram(createProgram())));
    }
    expect(cli(['completion', 'tcsh'])).toMatchObject({ code: 2, err: 'recapwrap: Expected the shell to be one of bash, zsh, fish, got `tcsh`\n' });
  });
});
