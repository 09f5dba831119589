/**
 * The wrap flow's launch plan (step 1 of run-wrap.ts, before the child starts): which agent it is, its
 * transcript adapter, the flags that pin its session file, and which display the options choose here.
 * Kept small: it runs on every start, ahead of the child.
 */
import type { Options } from '../../config/options-table.js';
import { getHomeDir } from '../../config/paths.js';
import { agentFromCommand } from '../../transcripts/agent-ids.js';
import { debugLog } from '../../util/debug-log.js';
import { nodeRequire } from '../../util/node-require.js';
import type { AgentId, LaunchPlan, TranscriptAdapter } from '../../transcripts/types.js';
import type { Env } from '../../types.js';

export interface RecapPlan {
  agent?: AgentId;
  /** Undefined for a command recapwrap has no transcript support for: it then runs transparently. */
  adapter?: TranscriptAdapter;
  launch: LaunchPlan;
}

export interface RecapPlanInput {
  command: string;
  args: readonly string[];
  /** --agent: which adapter to use when the command's name does not say. */
  agent?: AgentId;
  cwd: string;
  env: Env;
}

// Decide the agent and the pin flags before the child is spawned; adapters load only for agents.
export async function planRecap(input: RecapPlanInput): Promise<RecapPlan> {
  const agent = input.agent ?? agentFromCommand(input.command);
  const adapter = agent ? (await import('../../transcripts/registry.js')).findAdapter(agent) : undefined;
  if (!adapter) return { agent, launch: { args: [...input.args], resume: false } };
  // `--agent pi -- node script.js`: pin flags are the agent's own options, and another program (node, a
  // shell script) would choke on them. The session is then found the way it is for an unpinned agent.
  // recapwrap's own demo agent (bin/demo-agent.js) speaks pi's session flags, so it is pinned like pi.
  if (input.agent && agentFromCommand(input.command) !== input.agent && !isDemoAgent(input.command)) {
    debugLog('wrap', 'no session pin: the command is not the agent itself', { agent: input.agent, command: input.command });
    return { agent, adapter, launch: { args: [...input.args], resume: false } };
  }
  // node:crypto is a dozen internal modules: loaded only when an agent needs a session id.
  const { randomUUID } = nodeRequire<typeof import('node:crypto')>('node:crypto');
  const launch = adapter.planLaunch(input.args, { cwd: input.cwd, env: input.env, home: getHomeDir(input.env), newId: () => randomUUID(), now: Date.now() });
  return { agent, adapter, launch };
}

function isDemoAgent(command: string): boolean {
  return /(^|[/\\])demo-agent\.js$/.test(command);
}

/** Where recaps can appear. */
export type DisplayChoice = 'overlay' | 'tmux' | 'none';

/** Which display the options select here: auto is tmux inside tmux, else the overlay bar. */
export function chooseDisplay(options: Pick<Options, 'display'>, env: Env): DisplayChoice {
  if (options.display === 'auto') return env.TMUX && env.TMUX_PANE ? 'tmux' : 'overlay';
  if (options.display === 'tmux' && !(env.TMUX && env.TMUX_PANE)) return 'none';
  return options.display as DisplayChoice;
}

