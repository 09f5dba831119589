/**
 * The composition of `recapwrap mcp`: options, the debug log, the lazily opened session memory and
 * the question answerer, wired into the stdio server. Loaded only when `recapwrap mcp` runs; the memory
 * code and better-sqlite3 load at the first tool call.
 */
import { resolveConfig } from '../../config/load.js';
import type { Env } from '../../config/paths.js';
import { debugLog } from '../../util/debug-log.js';
import { createAnswerer } from './answer.js';
import { runMcpServer, type McpLog } from './server.js';

export interface RunMcpOptions {
  env?: Env;
  cwd?: string;
  version: string;
}

export async function runMcp(input: RunMcpOptions): Promise<number> {
  const env = input.env ?? process.env;
  const cwd = input.cwd ?? process.cwd();
  const config = resolveConfig({ env, cwd });
  // stderr only: stdout is the JSON-RPC channel.
  for (const problem of config.problems) process.stderr.write(`recapwrap mcp: warning: ${problem.message}\n`);
  const log: McpLog = (message, fields) => debugLog('mcp', message, fields);
  // Started by hand in a terminal: say what this is (agents start it with pipes, never a terminal).
  if (process.stdin.isTTY) process.stderr.write('recapwrap mcp: an MCP server, speaking JSON-RPC on stdin and stdout; agents start it themselves (`recapwrap mcp install` registers it). Ctrl-D quits.\n');
  await runMcpServer({
    version: input.version,
    log,
    ctx: { cwd, now: Date.now, answerer: createAnswerer(config.options, env, log), hosts: (await import('../hosts/mcp-hosts.js')).createMcpHosts(env, cwd) },
    openMemory: async () => {
      const { openSessionMemory } = await import('../memory/api.js');
      const memory = await openSessionMemory({ env, options: config.options, cwd });
      if (!('error' in memory) && memory.warning) process.stderr.write(`recapwrap mcp: ${memory.warning}\n`);
      return memory;
    },
  });
  return 0;
}
