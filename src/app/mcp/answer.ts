/**
 * query_session's model answer: only when the user allowed a model for past sessions. Placeholder until
 * the generator settings for past sessions land: no model is asked.
 */
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import type { McpLog } from './server.js';
import type { ToolContext } from './tools.js';

export function createAnswerer(_options: Options, _env: Env, _log: McpLog): ToolContext['answerer'] {
  return { unavailable: 'no model is allowed for past sessions' };
}
