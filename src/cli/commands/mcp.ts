/**
 * `recapwrap mcp` (the stdio MCP server over the session index, for the agents themselves) and
 * `recapwrap mcp install|uninstall [--agent ID] [--dry-run]` (register it with each agent CLI that has
 * MCP support: not pi, which `--agent pi` says, exit 1).
 * Thin layer over src/app/mcp/; nothing heavy is loaded before the server answers `initialize`.
 */
import type { Command } from 'commander';
import { isAgentId } from '../../transcripts/agent-ids.js';
import type { AgentId } from '../../transcripts/types.js';
import { setExitCode } from '../exit-code.js';

/** The agents with MCP support (agent-configs.ts MCP_AGENTS), written out: that module is not loaded for help or completion. */
export const MCP_AGENT_IDS: readonly AgentId[] = ['claude', 'codex', 'gemini', 'qwen'];
const MCP_AGENTS_TEXT = `${MCP_AGENT_IDS.slice(0, -1).join(', ')} or ${MCP_AGENT_IDS.at(-1) as string}`;

interface RegisterCliOptions {
  agent?: string;
  dryRun?: boolean;
}

function parseAgent(value: string | undefined): AgentId | undefined | { error: string } {
  if (value === undefined) return undefined;
  return isAgentId(value) ? value : { error: `recapwrap: Expected \`--agent\` to be ${MCP_AGENTS_TEXT}, got \`${value}\`\n` };
}

export function registerMcp(program: Command): void {
  const mcp = program
    .command('mcp')
    .description('serve the session index to coding agents over MCP (stdio); `mcp install` registers it with each agent CLI')
    .action(async function (this: Command) {
      const { runMcp } = await import('../../app/mcp/run.js');
      setExitCode(this, await runMcp({ version: program.version() ?? '0.0.0' }));
    });
  const register = (name: 'install' | 'uninstall', description: string) =>
    mcp
      .command(name)
      .description(description)
      .option('--agent <id>', `only this agent: ${MCP_AGENTS_TEXT} (pi has no MCP support: exit 1, with what to use instead)`)
      .option('--dry-run', 'show what would change, change nothing', false)
      .action(async function (this: Command, options: RegisterCliOptions) {
        const agent = parseAgent(options.agent);
        if (agent && typeof agent === 'object') {
          process.stderr.write(agent.error);
          setExitCode(this, 2);
          return;
        }
        const { installMcp, uninstallMcp, createRegisterDeps } = await import('../../app/mcp/register.js');
        const deps = createRegisterDeps(process.env);
        let report;
        if (name === 'install') {
          const { mcpLaunch } = await import('../../app/mcp/launch.js');
          report = await installMcp({ agent, dryRun: options.dryRun, launch: mcpLaunch() }, deps);
        } else report = await uninstallMcp({ agent, dryRun: options.dryRun }, deps);
        process.stdout.write(report.lines.join('\n') + '\n');
        setExitCode(this, report.code);
      });
  register('install', 'register `recapwrap mcp` with each agent CLI on PATH (claude, codex, gemini, qwen) through its own `mcp add`');
  register('uninstall', 'remove the `recapwrap` MCP server entry (only it) from each agent CLI');
}
