/**
 * The one warning line a command prints about its project file (#40 item 1): the file was ignored
 * (someone else's, writable by others, in a world-writable folder) or some of its keys were (a project
 * file sets display and timing only unless trusted). Said once per command, on stderr, by the command's
 * entry: the full CLI before a subcommand's action, the fast memory path, the wrapper before it starts
 * the agent (never once the agent owns the screen).
 */
import { resolveConfig, takeProjectNotice, type ResolvedConfig } from '../config/load.js';
import type { Env } from '../config/paths.js';
import { sanitizeLine } from '../util/sanitize.js';

/** The line for this config, the first time in this process; '' afterwards or when there is nothing to say. */
export function projectNoticeLine(config: Pick<ResolvedConfig, 'notice'>): string {
  const notice = takeProjectNotice(config);
  return notice ? `recapwrap: warning: ${sanitizeLine(notice)}\n` : '';
}

export function warnAboutProjectFile(env: Env, cwd: string, write: (text: string) => void = (text) => process.stderr.write(text)): void {
  const line = projectNoticeLine(resolveConfig({ env, cwd }));
  if (line) write(line);
}
