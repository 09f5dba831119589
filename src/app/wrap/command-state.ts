/**
 * A wrapped command that is not an agent (`recapwrap bash`) has no transcript and no recap, but `ls` and
 * `board` still list it as a command: one state file, written once after the spawn and removed at exit.
 * No control socket, no updates; a folder that cannot be used just means it is not listed.
 */
import { StateWriter } from '../../display/state-file.js';
import type { Env } from '../../types.js';
import { debugLog } from '../../util/debug-log.js';
import { prepareStateFolders } from './state-folders.js';

export interface CommandStateInput {
  command: string;
  cwd: string;
  env: Env;
  startedAt: number;
}

export function startCommandState(input: CommandStateInput): { remove(): void } | undefined {
  // Quiet: the unsafe-folder warning ("running without recaps") is for agents, which lose their recaps.
  const folders = prepareStateFolders(input.env);
  if (!folders) return undefined;
  const started = new Date(input.startedAt).toISOString();
  const writer = new StateWriter(
    folders.stateDir,
    {
      pid: process.pid,
      agent: null,
      command: input.command,
      cwd: input.cwd,
      sessionFile: null,
      sessionId: null,
      tmuxPane: input.env.TMUX_PANE ?? null,
      state: 'working',
      stateSince: started,
      lastFocusAt: null,
      lastRecap: null,
      attention: null,
      socketPath: null,
      startedAt: started,
    },
    (error) => debugLog('state', 'command state file write failed', { error: error.message }),
  );
  return { remove: () => writer.remove() };
}
