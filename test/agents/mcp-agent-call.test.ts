// A real agent calls recapwrap's MCP server (#26): after `recapwrap mcp install`, Claude Code, Gemini CLI,
// Qwen Code and Codex, each in its one-off mode against the fake model, are asked about `@@name`; the
// fake model calls the agent's `get_session` tool (as it offers it: Codex in a Responses "namespace",
// #36), and the next request carries the session's card, which only recapwrap's server could have produced.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentModelServer, type AgentModelServer } from '../fakes/agent-model-server.js';
import { AGENT_CLIS, agentE2eSkipped, installAgentCli } from '../helpers/agent-cli.js';
import { prepareAgentHome } from '../helpers/agent-home.js';
import { layOutSession, type LaidOut } from '../helpers/agent-homes.js';
import { assertBuilt, CLI_BIN } from '../helpers/cli-pty.js';
import { TRANSCRIPTS_DIR } from '../helpers/shared.js';

const AGENTS = ['claude', 'gemini', 'qwen', 'codex'] as const;
const CLAUDE_KEY = 'sk-ant-api03-fakefakefakefakefakefake-AAAA';

// stdin closed at once: one-off modes read a piped stdin as part of the prompt (`codex exec` waits for its end).
function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; out: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = execFile(command, args, { env, cwd, encoding: 'utf8', timeout: 180_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}${stderr}`, stdout }));
    child.stdin?.end();
  });
}

describe.skipIf(agentE2eSkipped())('real agents call recapwrap mcp', () => {
  let dir: string;
  let home: string;
  let work: string;
  let model: AgentModelServer;
  let env: NodeJS.ProcessEnv;
  let session: LaidOut;
  let name: string;
  const bins: Record<string, string> = {};

  beforeAll(async () => {
    assertBuilt();
    for (const agent of AGENTS) bins[agent] = installAgentCli(agent);
    dir = mkdtempSync(join(tmpdir(), 'rw-mcp-call-'));
    home = join(dir, 'home');
    work = join(dir, 'proj');
    mkdirSync(home);
    mkdirSync(work);
    model = await startAgentModelServer();
    env = {
      HOME: home,
      PATH: [...AGENTS.map((a) => dirname(bins[a] as string)), dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
      RECAPWRAP_STATE_DIR: join(dir, 'state'),
      TERM: 'dumb',
      NO_COLOR: '1',
      // Claude Code
      ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: CLAUDE_KEY, DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1',
      // Claude Code defers MCP tools behind its ToolSearch tool by default; the fake model calls tools directly.
      ENABLE_TOOL_SEARCH: 'false',
      // Gemini CLI
      GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_API_KEY: 'fake-gemini-key', CI: '',
      // Qwen Code
      OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: 'fake-key', OPENAI_MODEL: 'fake-model', QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
    };
    writeFileSync(join(home, '.claude.json'), JSON.stringify({
      hasCompletedOnboarding: true, theme: 'dark', lastOnboardingVersion: AGENT_CLIS.claude.version,
      customApiKeyResponses: { approved: [CLAUDE_KEY.slice(-20)], rejected: [] },
      projects: { [work]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
    }));
    mkdirSync(join(home, '.gemini'));
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true } }));
    mkdirSync(join(home, '.qwen'));
    // Qwen Code too defers MCP tools behind tool_search unless told not to.
    writeFileSync(join(home, '.qwen', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'openai' } }, model: { name: 'fake-model' }, general: { showSessionRecap: false }, tools: { toolSearch: { enabled: false } } }));

    // Codex: the fake model as a Responses provider (and the project trusted), before `mcp install` adds the server.
    Object.assign(env, prepareAgentHome('codex', { home, model, trusted: [work] }));

    // A past session to ask about, and its name in the index.
    session = await layOutSession(home, 'claude', join(TRANSCRIPTS_DIR, 'claude', 'interactive-2turns.jsonl'));
    const listed = await run(process.execPath, [CLI_BIN, 'sessions', '--json'], env, work);
    name = (JSON.parse(listed.stdout) as Array<{ id: string; name: string }>).find((r) => r.id === session.id)?.name as string;
    expect(name, listed.out).toMatch(/^[a-z0-9-]+$/);

    const install = await run(process.execPath, [CLI_BIN, 'mcp', 'install'], env, work);
    expect(install.code, install.out).toBe(0);
  }, 15 * 60_000);

  afterAll(async () => {
    await model?.close();
    if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  const printArgs: Record<(typeof AGENTS)[number], (prompt: string) => string[]> = {
    claude: (p) => ['-p', p, '--allowedTools', 'mcp__recapwrap__get_session'],
    gemini: (p) => ['-m', 'gemini-2.5-flash', '--skip-trust', '--yolo', '-p', p],
    qwen: (p) => ['-p', p, '--yolo'],
    codex: (p) => ['exec', '--skip-git-repo-check', p],
  };

  for (const agent of AGENTS) {
    it(`${agent} starts the server, calls get_session for @@name and gets the session's card`, async () => {
      model.requests.length = 0;
      const result = await run(bins[agent] as string, printArgs[agent](`what did we do in @@${name}?`), env, work);
      expect(result.code, result.out).toBe(0);
      const bodies = model.requests.map((r) => JSON.stringify(r.body));
      expect(bodies.some((b) => /get_session/.test(b)), `${agent} offered no get_session tool:\n${result.out}`).toBe(true);
      // The card's fields, with this session's id and transcript path, in what the agent sent back.
      const withCard = bodies.find((b) => b.includes(session.id) && b.includes('transcriptExists') && b.includes('resumeCommand'));
      expect(withCard, `no request carried the card:\n${result.out}`).toBeDefined();
      expect(withCard).toContain(JSON.stringify(session.file).slice(1, -1));
    });
  }
});
