// The end of a real agent CLI's run in the agent suite (test/agents): its tmux server and fake model
// gone, then its folder removed a moment later (agents may still write a last save or a log).
import { rmSync } from 'node:fs';
import type { AgentModelServer } from '../fakes/agent-model-server.js';
import type { TmuxServer } from './tmux.js';

export async function endAgentRun(run: { tmux?: TmuxServer; model?: AgentModelServer; dir?: string }): Promise<void> {
  run.tmux?.kill();
  await run.model?.close();
  if (!run.dir) return;
  await new Promise((r) => setTimeout(r, 1000));
  try {
    rmSync(run.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (error) {
    console.warn(`could not remove ${run.dir}: ${(error as Error).message}`);
  }
}
