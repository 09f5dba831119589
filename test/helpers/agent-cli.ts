/**
 * The real agent CLIs for end-to-end tests, installed from npm at pinned versions into a cache folder
 * outside the repo (`$RECAPWRAP_AGENT_CACHE`, default ~/.cache/recapwrap-e2e-agents), once per version.
 * They are not project dependencies. A failed install throws, naming the agent: no silent skips.
 * The first run downloads about 1.2 GB for the five: each install says so on stderr (shown at once in
 * vitest's output), and RECAPWRAP_SKIP_AGENT_E2E=1 skips the whole suite (CI does not set it).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const AGENT_CLIS = {
  pi: { pkg: '@mariozechner/pi-coding-agent', version: '0.73.1', bin: 'pi' },
  qwen: { pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.330', bin: 'claude' },
  codex: { pkg: '@openai/codex', version: '0.169.0', bin: 'codex' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
} as const;
export type AgentCli = keyof typeof AGENT_CLIS;

/** RECAPWRAP_SKIP_AGENT_E2E=1: test/agents skip (vitest.config.ts prints the one line that says so). */
export function agentE2eSkipped(): boolean {
  return process.env.RECAPWRAP_SKIP_AGENT_E2E === '1';
}

/** Where the agent CLIs are installed; the test run sets it (test/helpers/test-home.ts) before HOME changes. */
export const RECAPWRAP_AGENT_CACHE_ENV = 'RECAPWRAP_AGENT_CACHE';

export function agentCacheDir(): string {
  return process.env[RECAPWRAP_AGENT_CACHE_ENV] ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'recapwrap-e2e-agents');
}

/** The path of the agent's executable, installing it first when needed. */
export function installAgentCli(agent: AgentCli): string {
  const { pkg, version, bin } = AGENT_CLIS[agent];
  const prefix = join(agentCacheDir(), `${agent}-${version}`);
  const exe = join(prefix, 'node_modules', '.bin', bin);
  if (existsSync(exe)) return exe;
  mkdirSync(prefix, { recursive: true });
  // Written straight to stderr: vitest shows it at once, not after the (minutes-long) install.
  process.stderr.write(`recapwrap tests: installing the real ${agent} CLI (${pkg}@${version}) from npm into ${prefix} for test/agents; once per version (all five: ~1.2 GB). RECAPWRAP_SKIP_AGENT_E2E=1 skips the agent suite.\n`);
  try {
    execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', `${pkg}@${version}`], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 10 * 60_000, encoding: 'utf8' });
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`Installing the ${agent} CLI (${pkg}@${version}) for the end-to-end suite failed: ${(e.stderr ?? e.message).trim().split('\n').slice(-5).join(' | ')}`);
  }
  if (!existsSync(exe)) throw new Error(`Installing the ${agent} CLI (${pkg}@${version}) left no ${exe}`);
  return exe;
}
