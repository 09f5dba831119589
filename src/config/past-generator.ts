/**
 * Which generator reads a past session (`recap --session/--agent`, `resume`, `sessions`, `show`, the MCP
 * server's `query_session`): `pastGenerator` (heuristic by default: nothing leaves the machine) unless
 * the user named one for this command with `--generator`. The live wrapper keeps `generator` (auto).
 */
import type { Options } from './options-table.js';

/** The options with `generator` set for reading a past session; `explicit` is the `--generator` flag's value, if given. */
export function withPastGenerator(options: Options, explicit?: string): Options {
  return { ...options, generator: explicit ?? options.pastGenerator };
}
