// The shell snippets route installed agent commands through recapwrap with their arguments intact,
// honour RECAPWRAP_AGENTS, never wrap an agent that is not installed, and complete every subcommand and
// option the CLI has (bash is run for real; zsh and fish are checked for the same words, and run for
// real where installed: .ci/run installs them).
import { execFileSync, spawnSync } from 'node:child_process';
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
    // A command's own commands are its first word, then each completes its own options.
    expect(complete(['recapwrap', 'mcp', ''])).toEqual(['install', 'uninstall']);
    expect(complete(['recapwrap', 'config', ''])).toEqual(expect.arrayContaining(['trust', 'untrust']));
    for (const c of userCommands(program)) {
      for (const s of userCommands(c)) {
        const options = s.options.map((o) => o.long as string);
        expect(complete(['recapwrap', c.name(), s.name(), '--']), `${c.name()} ${s.name()}`).toEqual([...options, '--help'].filter((o, k, all) => all.indexOf(o) === k).sort());
      }
    }
    expect(complete(['recapwrap', 'h'])).toEqual(['help']);
  });

  it('completes a command\'s own commands: their options and values, the parent\'s until one is named', () => {
    expect(complete(['recapwrap', 'mcp', 'install', '--'])).toEqual(['--agent', '--dry-run', '--help']);
    // Only the agents with MCP support (pi has none).
    expect(complete(['recapwrap', 'mcp', 'install', '--agent', ''])).toEqual(['claude', 'codex', 'gemini', 'qwen']);
    expect(complete(['recapwrap', '--away', '5', 'mcp', 'uninstall', '--dry-run', '--agent', 'c'])).toEqual(['claude', 'codex']);
    expect(complete(['recapwrap', 'mcp', '--'])).toEqual(['--help']);
    expect(complete(['recapwrap', 'config', '--'])).toEqual(['--help', '--json', '--markdown']);
    expect(complete(['recapwrap', 'config', '--json', 'un'])).toEqual(['untrust']);
    expect(complete(['recapwrap', 'config', 'trust', '--'])).toEqual(['--help']);
    // Its argument is a path: files and folders of this folder.
    const files = complete(['recapwrap', 'config', 'trust', 'pack']);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'package-lock.json']));
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

// zsh's and fish's own completion run on the generated script: fish's `complete -C` gives what Tab would
// offer; in zsh the script's word walk runs for real and `_arguments` (zsh's own, given the specs) prints
// the specs it was handed.
const shellOnPath = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() || undefined;
const ZSH = shellOnPath('zsh');
const FISH = shellOnPath('fish');
const missingShells = [ZSH ? '' : 'zsh', FISH ? '' : 'fish'].filter(Boolean);
if (missingShells.length) console.log(`skipping the ${missingShells.join(' and ')} completion runs: not installed (.ci/run installs them)`);

describe('zsh and fish complete a command\'s own commands for real', () => {
  const scripts = mkdtempSync(join(tmpdir(), 'rw-complete-shells-'));
  binDirs.push(scripts);
  const script = (shell: 'zsh' | 'fish') => {
    const file = join(scripts, `recapwrap.${shell}`);
    writeFileSync(file, renderCompletion(shell, describeProgram(createProgram())));
    return file;
  };

  it.skipIf(!FISH)('fish', () => {
    const file = script('fish');
    // Its home and XDG folders in the test's own (fish makes ~/.config/fish and ~/.local/share/fish even with --no-config).
    const env = { ...process.env, HOME: scripts, XDG_CONFIG_HOME: join(scripts, 'config'), XDG_DATA_HOME: join(scripts, 'data'), XDG_RUNTIME_DIR: join(scripts, 'run') };
    const offered = (line: string) => execFileSync(FISH as string, ['--no-config', '-c', `source ${file}; complete -C ${JSON.stringify(line)}`], { encoding: 'utf8', env }).split('\n').filter(Boolean).map((l) => l.split('\t')[0]).sort();
    expect(offered('recapwrap mcp ')).toEqual(['install', 'uninstall']);
    expect(offered('recapwrap mcp --')).toEqual(['--help']);
    expect(offered('recapwrap mcp install --')).toEqual(['--agent', '--dry-run', '--help']);
    expect(offered('recapwrap mcp install --agent ')).toEqual(['claude', 'codex', 'gemini', 'qwen']);
    expect(offered('recapwrap config --')).toEqual(['--help', '--json', '--markdown']);
    expect(offered('recapwrap recap --format ')).toEqual(['card', 'json', 'line']);
  });

  it.skipIf(!ZSH)('zsh', () => {
    const file = script('zsh');
    const specs = (...words: string[]) => execFileSync(ZSH as string, ['-f', '-c', `source ${file}; _arguments() { print -rl -- "$@"; }; _describe() { print -r -- "describe $2"; }; _files() { print files; }; words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; _recapwrap_completion`], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(specs('recapwrap', 'mcp', '')).toEqual(['--help[show help]', '1:value:(install uninstall)']);
    expect(specs('recapwrap', 'mcp', 'install', '--')).toEqual(['--agent[only this agent: claude, codex, gemini or qwen]:value:(claude codex gemini qwen)', '--dry-run[show what would change, change nothing]', '--help[show help]']);
    expect(specs('recapwrap', '--away', '5', 'mcp', '--help', 'uninstall', '--agent', '')).toEqual(specs('recapwrap', 'mcp', 'install', '--'));
    expect(specs('recapwrap', 'config', 'trust', '')).toEqual(['--help[show help]', '1:file:_files']);
    expect(specs('recapwrap', '')).toEqual(['describe commands', 'describe agents']);
  });
});
