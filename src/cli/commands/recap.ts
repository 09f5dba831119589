/**
 * `recapwrap recap`: one recap now. With `--pane ID` it asks that pane's live wrapper through its
 * control socket (`--show` also displays it there; bind it in tmux); with `--session FILE` or
 * `--agent ID [--cwd DIR]` it reads the session file (the newest of that agent for the folder).
 */
import type { Command } from 'commander';
import { getHomeDir, getRuntimeDir, getStateDir } from '../../config/paths.js';
import { requestControl, socketPathFor } from '../../display/control-socket.js';
import { readLiveStates } from '../../display/state-file.js';
import { isAgentId, AGENT_IDS } from '../../transcripts/agent-ids.js';
import { setExitCode } from '../exit-code.js';

export interface RecapCliOptions {
  pane?: string;
  show?: boolean;
  session?: string;
  agent?: string;
  cwd?: string;
}

export async function runRecap(options: RecapCliOptions, env = process.env): Promise<{ out: string; err: string; code: number }> {
  if (options.pane) {
    const state = readLiveStates(getStateDir(env), { prune: true }).find((s) => s.tmuxPane === options.pane);
    if (!state) return { out: '', err: `recapwrap: no live recapwrap in pane ${options.pane}\n`, code: 1 };
    const socket = state.socketPath ?? socketPathFor(getRuntimeDir(env), state.pid);
    try {
      const reply = await requestControl(socket, options.show ? 'show' : 'recap', 10_000);
      if (reply.ok !== true) return { out: '', err: `recapwrap: ${String(reply.error ?? 'the wrapper refused')}\n`, code: 1 };
      return { out: typeof reply.line === 'string' ? reply.line + '\n' : '', err: '', code: 0 };
    } catch (error) {
      return { out: '', err: `recapwrap: cannot reach the wrapper in pane ${options.pane}: ${(error as Error).message}\n`, code: 1 };
    }
  }
  if (options.agent !== undefined && !isAgentId(options.agent)) {
    return { out: '', err: `recapwrap: Expected the \`--agent\` option to be one of ${AGENT_IDS.join(', ')}, got \`${options.agent}\`\n`, code: 2 };
  }
  const { loadSessionFile } = await import('../../transcripts/load.js');
  const { findAdapter } = await import('../../transcripts/registry.js');
  const { summarizeSession } = await import('../../app/recap-engine.js');
  let file = options.session;
  if (!file) {
    if (!options.agent) return { out: '', err: 'recapwrap: say which session: --session FILE, --agent ID [--cwd DIR], or --pane ID\n', code: 2 };
    const adapter = findAdapter(options.agent);
    if (!adapter) return { out: '', err: `recapwrap: no transcript support for ${options.agent} yet\n`, code: 1 };
    const cwd = options.cwd ?? process.cwd();
    const newest = (await adapter.listSessions({ cwd, env, home: getHomeDir(env) }))[0];
    if (!newest) return { out: '', err: `recapwrap: no ${options.agent} session for ${cwd}\n`, code: 1 };
    file = newest.file;
  }
  try {
    const session = await loadSessionFile(file, { agent: options.agent as never });
    return { out: summarizeSession(session) + '\n', err: '', code: 0 };
  } catch (error) {
    return { out: '', err: `recapwrap: ${(error as Error).message}\n`, code: 1 };
  }
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
    .action(async function (this: Command, options: RecapCliOptions) {
      const { out, err, code } = await runRecap(options);
      process.stdout.write(out);
      process.stderr.write(err);
      setExitCode(this, code);
    });
}
