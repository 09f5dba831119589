// The real Codex CLI under recapwrap (see drive.ts for the scenario).
import { join } from 'node:path';
import { describe } from 'vitest';
import { agentE2eSkipped } from '../helpers/agent-cli.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { defineAgentScenario } from './drive.js';

describe.skipIf(agentE2eSkipped() || !tmuxAvailable())('Codex under recapwrap (real CLI)', () => {
  defineAgentScenario({
    agent: 'codex',
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
