/**
 * `recapwrap recap`: one recap now. With `--pane ID` it asks that pane's live wrapper through its
 * control socket (`--show` also displays it there; bind it in tmux); with `--session FILE` or
 * `--agent ID [--cwd DIR]` it reads the session file (the newest of that agent for the folder).
 */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { formatExpected, resolveConfig } from '../../config/load.js';
import { getHomeDir, getRuntimeDir, getStateDir, type Env } from '../../config/paths.js';
import { withPastGenerator } from '../../config/past-generator.js';
import { requestControl, socketPathFor } from '../../display/control-socket.js';
import { readLiveStates } from '../../display/state-file.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { isAgentId, AGENT_IDS, formatAgentIds } from '../../transcripts/agent-ids.js';
import { setExitCode } from '../exit-code.js';
import { parseWidth, WIDTH_MAX_CELLS, WIDTH_RANGE_TEXT } from '../width-option.js';

export interface RecapCliOptions {
  pane?: string;
  show?: boolean;
  session?: string;
  agent?: string;
  cwd?: string;
  format?: string;
  generator?: string;
  model?: string;
  llm?: boolean;
  /** Cells to compose the recap for (line format): default the terminal's width, else 220. */
  width?: string;
}

const FORMATS = ['line', 'card', 'json'];
/** `--width` when stdout is not a terminal: the longest line a recap has. */
const RECAP_WIDTH_DEFAULT = 220;

export async function runRecap(options: RecapCliOptions, env: Env = process.env, columns: number | undefined = process.stdout.isTTY ? process.stdout.columns : undefined): Promise<{ out: string; err: string; code: number }> {
  // Messages name folders and files (a cloned repo's folder may hold an escape sequence): one clean line.
  const fail = (message: string, code = 1) => ({ out: '', err: `recapwrap: ${sanitizeLine(message)}\n`, code });
  // Loaded here, not with the CLI: it brings the tmux display and text widths (~50 ms of every command's start).
  const { checkGeneratorSetup, checkRecapUsage, countSessionLines, describeUnusableSession, showPaneError } = await import('./recap-checks.js');
  const usage = checkRecapUsage(options);
  if (usage) return fail(usage, 2);
  if (options.agent !== undefined && !isAgentId(options.agent)) {
    return fail(formatExpected('`--agent`', `one of ${AGENT_IDS.join(', ')}`, `\`${options.agent}\``), 2);
  }
  const format = options.format ?? 'line';
  if (!FORMATS.includes(format)) return fail(formatExpected('`--format`', `one of ${FORMATS.join(', ')}`, `\`${format}\``), 2);
  const given = parseWidth(options.width);
  if ('error' in given) return fail(given.error, 2);
  // Not given: the terminal's own width, however narrow (it is where the line is shown).
  const width = given.value ?? (columns && columns > 0 ? Math.min(columns, WIDTH_MAX_CELLS) : RECAP_WIDTH_DEFAULT);
  let paneFile: { file: string; agent?: string } | undefined;
  if (options.pane) {
    const pane = options.pane;
    // --show comes from a tmux key binding: a failure is shown where the user looks, not only on stderr.
    const paneFail = async (message: string) => {
      if (options.show) await showPaneError(pane, message, env);
      return fail(message);
    };
    const state = readLiveStates(getStateDir(env), { prune: true }).find((s) => s.tmuxPane === pane);
    if (!state) return paneFail(`no live recapwrap in pane ${pane}`);
    if (state.agent === null) return paneFail(sanitizeLine(`pane ${pane} runs ${state.command} under recapwrap: a command, not an agent, so it has no recap`));
    if (format === 'line' || options.show) {
      const socket = state.socketPath ?? socketPathFor(getRuntimeDir(env), state.pid);
      let line: string | undefined;
      try {
        const reply = await requestControl(socket, options.show ? 'show' : 'recap', 10_000);
        if (reply.ok !== true) return paneFail(sanitizeLine(String(reply.error ?? 'the wrapper refused')));
        line = typeof reply.line === 'string' ? sanitizeLine(reply.line) : undefined;
      } catch (error) {
        return paneFail(`cannot reach the wrapper in pane ${pane}: ${(error as Error).message}`);
      }
      if (format === 'line') return { out: line ? line + '\n' : '', err: '', code: 0 };
    }
    // card and json need the whole Recap: made here from the session file that pane's wrapper follows.
    if (!state.sessionFile) return fail(`the recapwrap in pane ${pane} has not found its session file yet: nothing to recap`);
    paneFile = { file: state.sessionFile, agent: state.agent ?? undefined };
  }
  const cwd = resolve(options.cwd ?? process.cwd());
  const flags: Record<string, unknown> = {};
  if (options.generator !== undefined) flags.generator = options.generator;
  if (options.model !== undefined) flags.model = options.model;
  if (options.llm === false) flags.llm = false;
  const config = resolveConfig({ env, cwd, flags });
  const flagProblem = config.problems.find((p) => p.source === 'flag');
  if (flagProblem) return fail(flagProblem.message, 2);
  // A past session (a file, an agent's newest) is only sent to a model when asked: --generator or
  // pastGenerator. A live pane's session is already the live wrapper's: it keeps `generator`.
  const chosen = paneFile ? config.options : withPastGenerator(config.options, options.generator === undefined ? undefined : config.options.generator);
  const setup = checkGeneratorSetup(chosen, env);
  if (setup) return fail(setup);
  const warnings = config.problems.map((p) => `recapwrap: warning: ${p.message}\n`).join('');

  const { loadSessionFile } = await import('../../transcripts/load.js');
  const { findAdapter } = await import('../../transcripts/registry.js');
  const { createEngine } = await import('../../app/recaps/recap-engine.js');
  const { formatRecap } = await import('../../recap/format.js');
  let file = paneFile?.file ?? options.session;
  if (!file) {
    if (!options.agent) return fail('say which session: --session FILE, --agent ID [--cwd DIR], or --pane ID', 2);
    const adapter = findAdapter(options.agent);
    if (!adapter) return fail(`no transcript support for ${options.agent} yet`);
    const newest = (await adapter.listSessions({ cwd, env, home: getHomeDir(env) }))[0];
    if (!newest) return fail(`no ${options.agent} session for ${cwd}`);
    file = newest.file;
  }
  let session;
  try {
    session = await loadSessionFile(resolve(file), { agent: (paneFile?.agent ?? options.agent) as never });
  } catch (error) {
    return fail((error as Error).message);
  }
  if (session.events.length === 0) {
    // A file with no line of this agent's format is not a session that has "nothing asked yet".
    const problem = describeUnusableSession(file, session.agent, session.skipped, await countSessionLines(resolve(file)), options.agent !== undefined);
    if (problem) return fail(problem);
  }
  const engine = createEngine({ options: chosen, agent: session.agent, env });
  const explicit = chosen.generator !== 'auto';
  const outcome = await engine.recap(session, { strict: explicit, cells: width });
  if (!outcome.recap) return { out: '', err: warnings + `recapwrap: ${outcome.error ?? 'no recap'}\n`, code: 1 };
  return { out: formatRecap(outcome.recap, format as 'line', width) + '\n', err: warnings, code: 0 };
}

export function registerRecap(program: Command): void {
  program
    .command('recap')
    .description('one recap now: of a live pane (--pane), a session file (--session), or the newest session of an agent (--agent)')
    .option('--pane <id>', "a live recapwrap's tmux pane (e.g. from #{pane_id})")
    .option('--show', 'with --pane: also show the recap in that pane (errors too, for tmux key bindings)', false)
    .option('--session <file>', 'a session file of any supported agent')
    .option('--agent <id>', formatAgentIds())
    .option('--cwd <dir>', 'with --agent: the project folder (default: this one)')
    .option('--format <format>', 'line (one line), card (a short block) or json (the Recap shape)', 'line')
    .option('--generator <name>', "auto, heuristic, agent, openai or anthropic (default: pastGenerator, heuristic, for --session/--agent: nothing leaves the machine; generator for --pane)")
    .option('--model <model>', 'model for the agent/openai/anthropic generators (with --generator)')
    .option('--no-llm', 'offline heuristic only: no model is asked')
    .option('--width <cells>', `compose the recap for this many cells, ${WIDTH_RANGE_TEXT} (default: the terminal's width, else 220)`)
    .action(async function (this: Command, options: RecapCliOptions) {
      const { out, err, code } = await runRecap(options);
      process.stdout.write(out);
      process.stderr.write(err);
      setExitCode(this, code);
    });
}
