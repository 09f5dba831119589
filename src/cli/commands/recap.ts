/**
 * `recapwrap recap`: one recap now. With `--pane ID` it asks that pane's live wrapper through its
 * control socket (`--show` also displays it there; bind it in tmux); with `--session FILE` or
 * `--agent ID [--cwd DIR]` it reads the session file (the newest of that agent for the folder).
 */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { resolveConfig } from '../../config/load.js';
import { getHomeDir, getRuntimeDir, getStateDir, type Env } from '../../config/paths.js';
import { requestControl, socketPathFor } from '../../display/control-socket.js';
import { readLiveStates } from '../../display/state-file.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { isAgentId, AGENT_IDS } from '../../transcripts/agent-ids.js';
import { setExitCode } from '../exit-code.js';

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
}

const FORMATS = ['line', 'card', 'json'];

export async function runRecap(options: RecapCliOptions, env: Env = process.env, columns = process.stdout.columns): Promise<{ out: string; err: string; code: number }> {
  const fail = (message: string, code = 1) => ({ out: '', err: `recapwrap: ${message}\n`, code });
  if (options.pane) {
    const state = readLiveStates(getStateDir(env), { prune: true }).find((s) => s.tmuxPane === options.pane);
    if (!state) return fail(`no live recapwrap in pane ${options.pane}`);
    const socket = state.socketPath ?? socketPathFor(getRuntimeDir(env), state.pid);
    try {
      const reply = await requestControl(socket, options.show ? 'show' : 'recap', 10_000);
      if (reply.ok !== true) return fail(sanitizeLine(String(reply.error ?? 'the wrapper refused')));
      return { out: typeof reply.line === 'string' ? sanitizeLine(reply.line) + '\n' : '', err: '', code: 0 };
    } catch (error) {
      return fail(`cannot reach the wrapper in pane ${options.pane}: ${(error as Error).message}`);
    }
  }
  if (options.agent !== undefined && !isAgentId(options.agent)) {
    return fail(`Expected the \`--agent\` option to be one of ${AGENT_IDS.join(', ')}, got \`${options.agent}\``, 2);
  }
  const format = options.format ?? 'line';
  if (!FORMATS.includes(format)) return fail(`Expected the \`--format\` option to be one of ${FORMATS.join(', ')}, got \`${format}\``, 2);
  const cwd = resolve(options.cwd ?? process.cwd());
  const flags: Record<string, unknown> = {};
  if (options.generator !== undefined) flags.generator = options.generator;
  if (options.model !== undefined) flags.model = options.model;
  if (options.llm === false) flags.llm = false;
  const config = resolveConfig({ env, cwd, flags });
  const flagProblem = config.problems.find((p) => p.source === 'flag');
  if (flagProblem) return fail(flagProblem.message, 2);
  const warnings = config.problems.map((p) => `recapwrap: warning: ${p.message}\n`).join('');

  const { loadSessionFile } = await import('../../transcripts/load.js');
  const { findAdapter } = await import('../../transcripts/registry.js');
  const { createEngine } = await import('../../app/recap-engine.js');
  const { formatRecap } = await import('../../recap/format.js');
  let file = options.session;
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
    session = await loadSessionFile(resolve(file), { agent: options.agent as never });
  } catch (error) {
    return fail((error as Error).message);
  }
  const engine = createEngine({ options: config.options, agent: session.agent, env });
  const explicit = config.options.generator !== 'auto';
  const outcome = await engine.recap(session, { strict: explicit });
  if (!outcome.recap) return { out: '', err: warnings + `recapwrap: ${outcome.error ?? 'no recap'}\n`, code: 1 };
  return { out: formatRecap(outcome.recap, format as 'line', columns ?? 100) + '\n', err: warnings, code: 0 };
}

export function registerRecap(program: Command): void {
  program
    .command('recap')
    .description('one recap now: of a live pane (--pane), a session file (--session), or the newest session of an agent (--agent)')
    .option('--pane <id>', "a live recapwrap's tmux pane (e.g. from #{pane_id})")
    .option('--show', 'with --pane: also show the recap in that pane', false)
    .option('--session <file>', 'a session file of any supported agent')
    .option('--agent <id>', 'pi, qwen, claude, codex or gemini')
    .option('--cwd <dir>', 'with --agent: the project folder (default: this one)')
    .option('--format <format>', 'line (one line), card (a short block) or json (the Recap shape)', 'line')
    .option('--generator <name>', 'auto, heuristic, agent, openai or anthropic (default: the config\'s, auto)')
    .option('--model <model>', 'model for the agent/openai/anthropic generators')
    .option('--no-llm', 'offline heuristic only: no model is asked')
    .action(async function (this: Command, options: RecapCliOptions) {
      const { out, err, code } = await runRecap(options);
      process.stdout.write(out);
      process.stderr.write(err);
      setExitCode(this, code);
    });
}
