// The real Claude Code CLI under recapwrap (see drive.ts for the scenario).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'vitest';
import { AGENT_CLIS, agentE2eSkipped } from '../helpers/agent-cli.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { defineAgentScenario } from './drive.js';

const KEY = 'sk-ant-api03-fakefakefakefakefakefake-AAAA';

describe.skipIf(agentE2eSkipped() || !tmuxAvailable())('Claude Code under recapwrap (real CLI)', () => {
  defineAgentScenario({
    agent: 'claude',
    prepare({ home, work, model }) {
      // Skip onboarding, the theme picker, the "use this API key?" and folder-trust prompts.
      writeFileSync(
        join(home, '.claude.json'),
        JSON.stringify({
          hasCompletedOnboarding: true,
          theme: 'dark',
          lastOnboardingVersion: AGENT_CLIS.claude.version,
          customApiKeyResponses: { approved: [KEY.slice(-20)], rejected: [] },
          projects: { [work]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
        }),
      );
      return { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: KEY, DISABLE_TELEMETRY: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', DISABLE_ERROR_REPORTING: '1' };
    },
    // Writes and `ls` without approval prompts.
    args: ['--allowedTools', 'Bash,Write'],
    ready: /❯/,
    newCommand: '/clear',
    exitKeys: [['-l', '/exit'], ['Enter']],
    wantsFocus: true,
    sessionRoot: (home) => join(home, '.claude', 'projects'),
  });
});
