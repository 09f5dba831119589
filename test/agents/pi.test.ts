// The real pi CLI under recapwrap (see drive.ts for the scenario).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'vitest';
import { agentE2eSkipped } from '../helpers/agent-cli.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { defineAgentScenario } from './drive.js';

describe.skipIf(agentE2eSkipped() || !tmuxAvailable())('pi under recapwrap (real CLI)', () => {
  defineAgentScenario({
    agent: 'pi',
    prepare({ home, model }) {
      const dir = join(home, '.pi', 'agent');
      mkdirSync(dir, { recursive: true });
      const provider = { baseUrl: model.baseUrl, api: 'openai-completions', apiKey: 'fake-key', compat: { supportsDeveloperRole: false, supportsReasoningEffort: false }, models: [{ id: 'fake-model', reasoning: false, contextWindow: 128000, maxTokens: 4096 }] };
      writeFileSync(join(dir, 'models.json'), JSON.stringify({ providers: { fake: provider } }));
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ defaultProvider: 'fake', defaultModel: 'fake-model' }));
      return { PI_OFFLINE: '1' };
    },
    ready: /fake-model/,
    newCommand: '/new',
    // Ctrl-D on an empty editor.
    exitKeys: [['C-d']],
    wantsFocus: false,
    // pi does not retry a 400: the turn ends with stopReason "error".
    apiErrorMarker: /"stopReason":"error"/,
    sessionRoot: (home) => join(home, '.pi', 'agent', 'sessions'),
  });
});
