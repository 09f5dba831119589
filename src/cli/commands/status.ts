/**
 * `recapwrap status [--pane ID] [--format plain|tmux] [--width N]`: the latest recap line of a live
 * wrapper, for status lines (`#(recapwrap status --format tmux --width 60)`). Reads the state files only:
 * fast, and prints nothing (exit 0) when there is no recap, so a status line stays clean. With --width
 * the recap is composed for that many cells (the next step kept), label included.
 */
import { writeSync } from 'node:fs';
import type { Command } from 'commander';
import { getStateDir } from '../../config/paths.js';
import { readLiveStates, type LiveState } from '../../display/state-file.js';
import { escapeTmuxText } from '../../display/tmux-escape.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { setExitCode } from '../exit-code.js';
import { parseWidth, WIDTH_RANGE_TEXT } from '../width-option.js';

export interface StatusOptions {
  pane?: string;
  format: string;
  /** Cells the printed line may take (as typed; checked here). */
  width?: string;
}

const LABEL = 'recap: ';

/** The live wrapper a status line means: the given pane, else $TMUX_PANE, else the newest in this folder. */
export function findLiveState(states: readonly LiveState[], pane: string | undefined, cwd: string): LiveState | undefined {
  if (pane) return states.find((s) => s.tmuxPane === pane);
  // A plain command (`recapwrap bash`, agent null) started later in the folder must not hide an agent's recap.
  return states.find((s) => s.cwd === cwd && s.agent !== null);
}

/**
 * `compose` fits a recap line into N cells (loaded by the caller only when --width is given: its width
 * tables cost a status line ~20 ms).
 */
export function runStatus(
  options: StatusOptions,
  env = process.env,
  cwd = process.cwd(),
  compose?: (line: string, cells: number) => string,
): { out: string; code: number } {
  if (options.format !== 'plain' && options.format !== 'tmux') {
    return { out: `recapwrap: Expected \`--format\` to be plain or tmux, got \`${options.format}\`\n`, code: 2 };
  }
  const given = parseWidth(options.width);
  if ('error' in given) return { out: `recapwrap: ${given.error}\n`, code: 2 };
  const width = given.value;
  const states = readLiveStates(getStateDir(env), { prune: true });
  const state = findLiveState(states, options.pane ?? env.TMUX_PANE, cwd);
  let line = state?.lastRecap?.line;
  if (!line) return { out: '', code: 0 };
  if (width !== undefined && compose) line = LABEL + compose(line, width - LABEL.length);
  return { out: (options.format === 'tmux' ? escapeTmuxText(line) : sanitizeLine(line)) + '\n', code: 0 };
}

/**
 * Fast path for status lines: `recapwrap status [--pane ID] [--format F]` without loading the full CLI
 * (tmux runs it every few seconds). Undefined means "let the full CLI handle argv" (help, bad flags).
 * Writes with writeSync: creating process.stdout loads the stream machinery, ~5 ms of a ~120 ms run.
 */
export function runStatusFast(argv: readonly string[]): number | undefined {
  const parsed = parseStatusArgs(argv);
  // --width needs the width tables: the full CLI loads them.
  if (!parsed || parsed.width !== undefined) return undefined;
  const { out, code } = runStatus(parsed);
  if (out) {
    try {
      writeSync(code === 0 ? 1 : 2, out);
    } catch {
      // A closed pipe or a gone terminal: a status line has nobody left to tell.
    }
  }
  return code;
}

/** `--pane ID`, `--format F`, `--width N` (or `--x=v`), each at most once; anything else: undefined. */
export function parseStatusArgs(argv: readonly string[]): StatusOptions | undefined {
  const values: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (name !== '--pane' && name !== '--format' && name !== '--width') return undefined;
    if (name in values) return undefined;
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      value = argv[++i];
      if (value === undefined || value.startsWith('-')) return undefined;
    }
    values[name] = value;
  }
  const parsed: StatusOptions = { pane: values['--pane'], format: values['--format'] ?? 'plain' };
  if (values['--width'] !== undefined) parsed.width = values['--width'];
  return parsed;
}

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('the latest recap line of a live wrapper, for status lines (prints nothing when there is none)')
    .option('--pane <id>', 'tmux pane id (default: $TMUX_PANE, else the newest wrapper in this folder)')
    .option('--format <format>', 'plain, or tmux (# escaped for status-right)', 'plain')
    .option('--width <cells>', `compose the line for this many cells, ${WIDTH_RANGE_TEXT}, keeping the next step (default: the whole line)`)
    .action(async function (this: Command, options: StatusOptions) {
      const compose = options.width === undefined ? undefined : (await import('../../recap/compose.js')).composeRecap;
      const { out, code } = runStatus(options, process.env, process.cwd(), compose && ((line, cells) => compose({ line }, cells)));
      (code === 0 ? process.stdout : process.stderr).write(out);
      setExitCode(this, code);
    });
}
