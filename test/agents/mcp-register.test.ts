// `recapwrap mcp install` / `uninstall` against the real agent CLIs (#26): after install each agent's own
// `mcp list` shows recapwrap (Claude Code, Qwen Code and Gemini CLI start it and report it connected);
// uninstall removes exactly it, and a server the user had before survives both.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentE2eSkipped, installAgentCli } from '../helpers/agent-cli.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';

type Run = { code: number; out: string; stdout: string };
const AGENTS = ['claude', 'codex', 'gemini', 'qwen'] as const;

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Run> {
  return new Promise((resolve) =>
    execFile(command, args, { env, cwd, encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}${stderr}`, stdout })),
  );
}

// The line of an agent's `mcp list` that names a server (their formats differ; each puts the name first).
function serverLine(list: string, name: string): string | undefined {
  // Colour codes and status glyphs come before the name in qwen's and gemini's lists.
  return list.replace(/\x1b\[[0-9;]*m/g, '').split('\n').find((line) => new RegExp(`^\\W*${name}(:|\\s)`).test(line.trim()));
}

describe.skipIf(agentE2eSkipped())('recapwrap mcp install/uninstall with the real agent CLIs', () => {
  let dir: string;
  let home: string;
  let work: string;
  let env: NodeJS.ProcessEnv;
  const bins: Record<string, string> = {};
  const recapwrap = (...args: string[]) => run(process.execPath, [CLI_BIN, ...args], env, work);
  const list = (agent: (typeof AGENTS)[number]) => run(bins[agent] as string, ['mcp', 'list'], env, work);

  beforeAll(() => {
    assertBuilt();
    for (const agent of AGENTS) bins[agent] = installAgentCli(agent);
    // pi is on PATH too: install says it has no MCP support and writes nothing for it.
    bins.pi = installAgentCli('pi');
    dir = mkdtempSync(join(tmpdir(), 'rw-mcp-agents-'));
    home = join(dir, 'home');
    work = join(dir, 'proj');
    mkdirSync(home);
    mkdirSync(work);
    env = {
      HOME: home,
      PATH: [...[...AGENTS, 'pi'].map((a) => dirname(bins[a] as string)), dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
      RECAPWRAP_STATE_DIR: join(dir, 'state'),
      TERM: 'dumb',
      NO_COLOR: '1',
    };
    // A server the user registered before: it must survive install and uninstall.
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { 'users-own': { type: 'stdio', command: 'users-own-server', args: [], env: {} } } }, null, 2));
    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'config.toml'), '[mcp_servers.users-own]\ncommand = "users-own-server"\nargs = []\n');
    mkdirSync(join(home, '.gemini'));
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: { 'users-own': { command: 'users-own-server' } } }, null, 2));
    // Gemini CLI starts MCP servers only in folders the user trusts.
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [work]: 'TRUST_FOLDER' }));
    mkdirSync(join(home, '.qwen'));
    writeFileSync(join(home, '.qwen', 'settings.json'), JSON.stringify({ mcpServers: { 'users-own': { command: 'users-own-server' } } }, null, 2));
  }, 15 * 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  it('install registers the absolute launcher with each agent, and they start it', async () => {
    const dry = await recapwrap('mcp', 'install', '--dry-run');
    expect(dry.code, dry.out).toBe(0);
    expect(dry.out).toContain(`$ claude mcp add --scope user recapwrap -- ${process.execPath} ${CLI_BIN} mcp`);
    expect((await list('claude')).out).not.toMatch(/recapwrap/);

    const install = await recapwrap('mcp', 'install');
    expect(install.code, install.out).toBe(0);
    for (const agent of AGENTS) expect(install.out, agent).toContain(`registered: ${agent} starts \`${process.execPath} ${CLI_BIN} mcp\`.`);
    expect(install.out).toMatch(/^pi: pi has no MCP support/m);

    // Claude Code, Qwen Code and Gemini CLI check each server's health: ours answers.
    for (const agent of ['claude', 'qwen', 'gemini'] as const) {
      const out = (await list(agent)).out;
      expect(serverLine(out, 'recapwrap'), `${agent} mcp list:\n${out}`).toMatch(new RegExp(`${CLI_BIN.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} mcp.*Connected`));
      expect(serverLine(out, 'users-own'), `${agent} mcp list:\n${out}`).toBeDefined();
    }
    const codex = await run(bins.codex as string, ['mcp', 'list', '--json'], env, work);
    const servers = JSON.parse(codex.stdout) as Array<{ name: string; transport: { command: string; args: string[] } }>;
    expect(servers.map((s) => s.name).sort()).toEqual(['recapwrap', 'users-own']);
    expect(servers.find((s) => s.name === 'recapwrap')?.transport).toMatchObject({ command: process.execPath, args: [CLI_BIN, 'mcp'] });

    const again = await recapwrap('mcp', 'install');
    expect(again.code, again.out).toBe(0);
    for (const agent of AGENTS) expect(again.out).toMatch(new RegExp(`^${agent}: already registered in .* \\(nothing to do\\)\\.$`, 'm'));

    const doctor = await recapwrap('doctor', '--no-interactive');
    for (const agent of AGENTS) expect(doctor.out).toMatch(new RegExp(`✓ mcp ${agent} +registered in `));
  });

  it('uninstall removes exactly recapwrap from each agent', async () => {
    const un = await recapwrap('mcp', 'uninstall');
    expect(un.code, un.out).toBe(0);
    for (const agent of ['claude', 'qwen', 'gemini'] as const) {
      const out = (await list(agent)).out;
      expect(serverLine(out, 'recapwrap'), `${agent} mcp list:\n${out}`).toBeUndefined();
      expect(serverLine(out, 'users-own'), `${agent} mcp list:\n${out}`).toBeDefined();
    }
    const codex = await run(bins.codex as string, ['mcp', 'list', '--json'], env, work);
    expect((JSON.parse(codex.stdout) as Array<{ name: string }>).map((s) => s.name)).toEqual(['users-own']);
    const again = await recapwrap('mcp', 'uninstall');
    expect(again.code).toBe(0);
    for (const agent of AGENTS) expect(again.out).toMatch(new RegExp(`^${agent}: not registered in .* \\(nothing to do\\)\\.$`, 'm'));
  });
});
