// The end of a real agent CLI's run in the agent suite (test/agents): its tmux server and fake model
// gone, then every process still running with a HOME in its folder (the agent, the wrapper, a summary
// the wrapper left detached) ended, then the folder removed: a process still writing there made it again
// after the removal (/tmp/rw-agent-claude-away-* were found left behind).
import { rmSync } from 'node:fs';
import type { AgentModelServer } from '../fakes/agent-model-server.js';
import { endProcessesWithEnv } from './processes.js';
import type { TmuxServer } from './tmux.js';

export async function endAgentRun(run: { tmux?: TmuxServer; model?: AgentModelServer; dir?: string }): Promise<void> {
  run.tmux?.kill();
  await run.model?.close();
  if (!run.dir) return;
  // Each test of the suite runs the agent with HOME inside its folder, so its processes carry that entry.
  const killed = await endProcessesWithEnv({ prefix: `HOME=${run.dir}/` }).catch((error: Error) => [`(${error.message})`]);
  if (killed.length > 0) console.warn(`ended what ${run.dir} still ran: ${killed.join('; ')}`);
  try {
    rmSync(run.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (error) {
    console.warn(`could not remove ${run.dir}: ${(error as Error).message}`);
  }
}
