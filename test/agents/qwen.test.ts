// The real Qwen Code CLI under recapwrap (see drive.ts for the scenario).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'vitest';
import { agentE2eSkipped } from '../helpers/agent-cli.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { defineAgentScenario } from './drive.js';

describe.skipIf(agentE2eSkipped() || !tmuxAvailable())('Qwen Code under recapwrap (real CLI)', () => {
  defineAgentScenario({
    agent: 'qwen',
    prepare({ home, model }) {
      mkdirSync(join(home, '.qwen'), { recursive: true });
      // Qwen's own away recap off: recapwrap shows the recap.
      writeFileSync(join(home, '.qwen', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'openai' } }, model: { name: 'fake-model' }, general: { showSessionRecap: false } }));
      return { OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: 'fake-key', OPENAI_MODEL: 'fake-model' };
    },
    ready: /Type your message/,
    newCommand: '/clear',
    exitKeys: [['-l', '/quit'], ['Enter']],
    wantsFocus: true,
    sessionRoot: (home) => join(home, '.qwen', 'projects'),
  });
});
