// The real Qwen Code CLI under recapwrap (see drive.ts for the scenario).
import { join } from 'node:path';
import { describe } from 'vitest';
import { agentE2eSkipped } from '../helpers/agent-cli.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { defineAgentScenario } from './drive.js';

describe.skipIf(agentE2eSkipped() || !tmuxAvailable())('Qwen Code under recapwrap (real CLI)', () => {
  defineAgentScenario({
    agent: 'qwen',
    ready: /Type your message/,
    newCommand: '/clear',
    exitKeys: [['-l', '/quit'], ['Enter']],
    wantsFocus: true,
    sessionRoot: (home) => join(home, '.qwen', 'projects'),
  });
});
