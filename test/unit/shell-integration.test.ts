// The shell snippets route installed agent commands through recapwrap with their arguments intact,
// honour RECAPWRAP_AGENTS, never wrap an agent that is not installed, and complete every subcommand and
// option the CLI has (bash is run for real; zsh and fish are checked for the same words).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { describeProgram, renderCompletion, userCommands } from '../../src/cli/completion.js';
import { createProgram } from '../../src/cli/main.js';
import { REPO_DIR } from '../helpers/shared.js';

const SNIPPET = join(REPO_DIR, 'shell', 'recapwrap.bash');
let dir: string;

function executable(path: string, body: string): void {
  writeFileSync(path, body);
  chmodSync(path, 0o755);
}

/** A PATH folder with a recording `recapwrap` and the given agents installed. */
function fakeBin(agents: string[]): string {
  dir = mkdtempSync(join(tmpdir(), 'rw-shell-'));
  // Records its argv, one per line, so the test sees exactly what the function passed.
  executable(join(dir, 'recapwrap'), `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "${dir}/argv"\n`);
  for (const a of agents) executable(join(dir, a), '#!/bin/sh\necho unwrapped\n');
  return dir;
}

// By absolute path: some tests give the shell a PATH without bash's folder.
const BASH = execFileSync('sh', ['-c', 'command -v bash'], { encoding: 'utf8' }).trim();
const bash = (script: string, env: Record<string, string>) => execFileSync(BASH, ['--norc', '-c', `source "${SNIPPET}"; ${script}`], { env: { ...process.env, ...env }, encoding: 'utf8' });

/**
 * A PATH folder whose `recapwrap` answers `completion bash` with the script generated from `program`
 * (what the built CLI prints), so the snippet's first-Tab loader runs for real.
 */
function completionBin(program = createProgram()): string {
  const bin = mkdtempSync(join(tmpdir(), 'rw-complete-'));
  writeFileSync(join(bin, 'script.bash'), renderCompletion('bash', describeProgram(program)));
  executable(join(bin, 'recapwrap'), `#!/bin/sh\n[ "$1 $2" = "completion bash" ] && exec cat "${bin}/script.bash"\nexit 2\n`);
  return bin;
}
const binDirs: string[] = [];
let defaultBin: string | undefined;

/** What bash completes for a command line (the last word is completed). */
function complete(words: string[], bin?: string): string[] {
  if (!bin) {
    defaultBin ??= completionBin();
    bin = defaultBin;
  }
  binDirs.push(bin);
  const array = words.map((w) => `'${w}'`).join(' ');
  const out = bash(`COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _recapwrap_complete; printf '%s\\n' "\${COMPREPLY[@]}"`, { PATH: `${bin}:${process.env.PATH}` });
  return out.split('\n').filter(Boolean).sort();
}

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});
afterAll(() => {
  for (const b of new Set(binDirs)) rmSync(b, { recursive: true, force: true });
});

describe('shell/recapwrap.bash', () => {
  it('wraps each installed agent with its arguments intact', () => {
    const d = fakeBin(['claude']);
    bash(`claude --resume "two words" '$HOME'`, { PATH: `${d}:${process.env.PATH}` });
    expect(readFileSync(join(d, 'argv'), 'utf8')).toBe('claude\n--resume\ntwo words\n$HOME\n');
  });

  it('wraps only the agents named in RECAPWRAP_AGENTS', () => {
    const d = fakeBin(['pi', 'codex']);
    const out = bash('type -t pi || true; type -t codex || echo none', { PATH: `${d}:${process.env.PATH}`, RECAPWRAP_AGENTS: 'pi' });
    // codex is installed but not named: it stays the plain executable.
    expect(out.trim().split('\n')).toEqual(['function', 'file']);
  });

  it('never wraps an agent that is not installed (#18: `recapwrap: command not found: pi`)', () => {
    const d = fakeBin(['claude']);
    const out = bash('for a in pi claude codex qwen gemini; do printf "%s=%s\\n" "$a" "$(type -t $a || echo none)"; done', { PATH: d });
    expect(out.trim().split('\n')).toEqual(['pi=none', 'claude=function', 'codex=none', 'qwen=none', 'gemini=none']);
    // Sourced twice: the function from the first time does not count as an installed pi.
    const twice = execFileSync(BASH, ['--norc', '-c', `source "${SNIPPET}"; pi() { :; }; unset -f claude; source "${SNIPPET}"; type -t claude; type -P pi || echo no-pi`], { env: { PATH: d }, encoding: 'utf8' });
    expect(twice.trim().split('\n')).toEqual(['function', 'no-pi']);
  });

  it('completes subcommands, wrapper options and each subcommand\'s options', () => {
    expect(complete(['recapwrap', 're'])).toEqual(['read', 'recap', 'resume']);
    expect(complete(['recapwrap', '--aw'])).toEqual(['--away']);
    expect(complete(['recapwrap', 'recap', '--'])).toEqual(expect.arrayContaining(['--pane', '--show', '--no-llm', '--session', '--width']));
    expect(complete(['recapwrap', 'resume', '--'])).toEqual(expect.arrayContaining(['--cwd', '--limit']));
    expect(complete(['recapwrap', 'd'])).toEqual(['demo', 'doctor']);
    expect(complete(['recapwrap', 'b'])).toEqual(['board']);
    expect(complete(['recapwrap', 'n'])).toEqual(['name', 'next', 'note']);
    expect(complete(['recapwrap', 'c'])).toEqual(['claude', 'codex', 'completion', 'config']);
    expect(complete(['recapwrap', 'recap', '--format', ''])).toEqual(['card', 'json', 'line']);
    expect(complete(['recapwrap', 'status', '--format', ''])).toEqual(['plain', 'tmux']);
    expect(complete(['recapwrap', '--away', '5', '--gen'])).toEqual(['--generator']);
    expect(complete(['recapwrap', '--away', '5', 'cl'])).toEqual(['claude']);
  });

  it('knows every subcommand and option the CLI has', () => {
    const program = createProgram();
    const subcommands = userCommands(program).map((c) => c.name());
    expect(complete(['recapwrap', ''])).toEqual(expect.arrayContaining(subcommands));
    const rootOptions = program.options.map((o) => o.long as string).filter((o) => o !== '--version');
    expect(complete(['recapwrap', '--'])).toEqual(expect.arrayContaining([...rootOptions, '--version', '--help']));
    for (const c of userCommands(program)) {
      const options = c.options.map((o) => o.long as string);
      expect(complete(['recapwrap', c.name(), '--']), c.name()).toEqual(expect.arrayContaining(options));
    }
    expect(complete(['recapwrap', 'help', 'do'])).toEqual(['doctor']);
    // A command's own commands are its first word.
    expect(complete(['recapwrap', 'mcp', ''])).toEqual(['install', 'uninstall']);
    expect(complete(['recapwrap', 'config', ''])).toEqual(expect.arrayContaining(['trust', 'untrust']));
    expect(complete(['recapwrap', 'h'])).toEqual(['help']);
  });

  // #28 point 6: completion is generated from commander's registered commands, so a command added
  // anywhere (the session-memory commands, mcp) completes with no edit to the shell files.
  it('completes a command registered later, with its options and their values, with no edit to the snippet', () => {
    const program = createProgram();
    program.command('zz-later').description('a command added later').option('--folder <dir>', 'a folder').option('--agent <id>', 'an agent').option('--since <age>', 'how far back');
    const bin = completionBin(program);
    expect(complete(['recapwrap', 'zz'], bin)).toEqual(['zz-later']);
    expect(complete(['recapwrap', 'zz-later', '--'], bin)).toEqual(['--agent', '--folder', '--help', '--since']);
    expect(complete(['recapwrap', 'zz-later', '--agent', 'c'], bin)).toEqual(['claude', 'codex']);
  });

  it('without recapwrap on PATH, Tab completes nothing and says nothing', () => {
    const out = bash(`COMP_WORDS=(recapwrap ''); COMP_CWORD=1; _recapwrap_complete; echo "n=\${#COMPREPLY[@]}"`, { PATH: '/nonexistent' });
    expect(out).toBe('n=0\n');
  });
});

describe('shell/recapwrap.zsh and recapwrap.fish', () => {
  const program = createProgram();
  for (const shell of ['zsh', 'fish'] as const) {
    it(`${shell}: the generated completion names every subcommand and option; the snippet loads it and wraps only installed agents`, () => {
      const snippet = readFileSync(join(REPO_DIR, 'shell', `recapwrap.${shell}`), 'utf8');
      expect(snippet).toContain(`command recapwrap completion ${shell}`);
      const text = renderCompletion(shell, describeProgram(program)) + snippet;
      const optionWord = (long: string) => (shell === 'fish' ? new RegExp(`-l ${long.slice(2)}\\b`) : new RegExp(`['")]${long}\\[`));
      for (const c of userCommands(program)) {
        expect(text, `${shell}: subcommand ${c.name()}`).toMatch(shell === 'fish' ? new RegExp(`-a ${c.name()} `) : new RegExp(`'${c.name()}:`));
        for (const o of c.options) expect(text, `${shell}: ${c.name()} ${o.long}`).toMatch(optionWord(o.long as string));
      }
      for (const o of program.options) expect(text, `${shell}: ${o.long}`).toMatch(optionWord(o.long as string));
      expect(text).toMatch(shell === 'fish' ? /command -q \$__rw_agent/ : /\(\( \$\+commands\[\$__rw_agent\] \)\)/);
    });
  }
});
