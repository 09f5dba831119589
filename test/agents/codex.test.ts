// The real Codex CLI under recapwrap (see drive.ts for the scenario).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'vitest';
import { agentE2eSkipped } from '../helpers/agent-cli.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { defineAgentScenario } from './drive.js';

describe.skipIf(agentE2eSkipped() || !tmuxAvailable())('Codex under recapwrap (real CLI)', () => {
  defineAgentScenario({
    agent: 'codex',
    prepare({ home, work, model }) {
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
          `[projects."${work}"]`,
          'trust_level = "trusted"',
          '',
        ].join('\n'),
      );
      return { FAKE_OPENAI_KEY: 'fake-key' };
    },
    // No persistent app-server daemon left behind.
    args: ['--no-daemon'],
    ready: /Ask Codex|›/,
    newCommand: '/new',
    exitKeys: [['-l', '/quit'], ['Enter']],
    wantsFocus: true,
    // codex exec has no flag that removes its tools; --ephemeral keeps the run out of the rollouts.
    oneOffOffersTools: true,
    sessionRoot: (home) => join(home, '.codex', 'sessions'),
  });
});
