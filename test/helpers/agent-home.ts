/**
 * One isolated HOME for a real agent CLI against the fake model server (test/fakes/agent-model-server.ts):
 * the config files each CLI reads (provider, key, trust for the project folders, onboarding and update
 * prompts off) and the environment to run it with. Used by the real-agent e2e tests (test/agents/) and
 * by `npm run fixtures` (test/fixtures/make-fixtures.ts), so both drive the CLIs set up the same way.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentModelServer } from '../fakes/agent-model-server.js';
import { AGENT_CLIS, type AgentCli } from './agent-cli.js';

/** A fake Anthropic key in the real key's shape (Claude Code checks the prefix; it approves the last 20 characters). */
export const FAKE_ANTHROPIC_KEY = 'sk-ant-api03-fakefakefakefakefakefake-AAAA';

export interface AgentHomeOptions {
  /** The HOME to write into (must exist). */
  home: string;
  model: AgentModelServer;
  /** Project folders the agent may work in without a trust prompt. */
  trusted: readonly string[];
  /** pi: whether the fake model is declared a reasoning model (the fixtures record thinking entries). */
  reasoning?: boolean;
}

// Write the agent's config into `home`; returns the environment to run it with (HOME not included).
export function prepareAgentHome(agent: AgentCli, options: AgentHomeOptions): Record<string, string> {
  // The agent's and recapwrap's temp files (qwen's socket folder, a one-off recap's folder) go inside
  // the run's folder, removed with it: a process ended by the teardown leaves nothing in the machine's /tmp.
  const tmp = join(options.home, '.tmp');
  mkdirSync(tmp, { recursive: true });
  return { TMPDIR: tmp, ...agentEnv(agent, options) };
}

function agentEnv(agent: AgentCli, options: AgentHomeOptions): Record<string, string> {
  const { home, model, trusted } = options;
  switch (agent) {
    case 'pi': {
      const dir = join(home, '.pi', 'agent');
      mkdirSync(dir, { recursive: true });
      const provider = { baseUrl: model.baseUrl, api: 'openai-completions', apiKey: 'fake-key', compat: { supportsDeveloperRole: false, supportsReasoningEffort: false }, models: [{ id: 'fake-model', reasoning: options.reasoning ?? false, contextWindow: 128000, maxTokens: 4096 }] };
      writeFileSync(join(dir, 'models.json'), JSON.stringify({ providers: { fake: provider } }));
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ defaultProvider: 'fake', defaultModel: 'fake-model' }));
      return { PI_OFFLINE: '1' };
    }
    case 'qwen':
      mkdirSync(join(home, '.qwen'), { recursive: true });
      // Qwen's own away recap off: recapwrap shows the recap.
      writeFileSync(join(home, '.qwen', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'openai' } }, model: { name: 'fake-model' }, general: { showSessionRecap: false } }));
      return { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: 'fake-key', OPENAI_MODEL: 'fake-model', QWEN_CODE_SUPPRESS_YOLO_WARNING: '1' };
    case 'claude': {
      // Skip onboarding, the theme picker, the "use this API key?" and folder-trust prompts.
      const trust = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] };
      writeFileSync(
        join(home, '.claude.json'),
        JSON.stringify({
          hasCompletedOnboarding: true,
          theme: 'dark',
          lastOnboardingVersion: AGENT_CLIS.claude.version,
          customApiKeyResponses: { approved: [FAKE_ANTHROPIC_KEY.slice(-20)], rejected: [] },
          projects: Object.fromEntries(trusted.map((w) => [w, trust])),
        }),
      );
      return { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: FAKE_ANTHROPIC_KEY, DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', DISABLE_ERROR_REPORTING: '1' };
    }
    case 'codex':
      mkdirSync(join(home, '.codex'), { recursive: true });
      writeFileSync(
        join(home, '.codex', 'config.toml'),
        [
          'model = "gpt-5-codex"',
          'model_provider = "fake"',
          'approval_policy = "never"',
          'sandbox_mode = "danger-full-access"',
          '',
          '[model_providers.fake]',
          'name = "Fake local provider"',
          `base_url = "${model.baseUrl}"`,
          'env_key = "FAKE_OPENAI_KEY"',
          'wire_api = "responses"',
          '',
          ...trusted.flatMap((w) => [`[projects."${w}"]`, 'trust_level = "trusted"', '']),
        ].join('\n'),
      );
      return { FAKE_OPENAI_KEY: 'fake-key' };
    case 'gemini':
      mkdirSync(join(home, '.gemini'), { recursive: true });
      // gemini-api-key auth (GOOGLE_GEMINI_BASE_URL alone selects a "gateway" auth that 0.61 rejects).
      writeFileSync(
        join(home, '.gemini', 'settings.json'),
        JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true } }),
      );
      // CI=true (as .ci/run runs) puts Gemini CLI in headless mode even on a terminal.
      return { GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_API_KEY: 'fake-gemini-key', CI: '' };
    default:
      return agent satisfies never;
  }
}
