// The real pi CLI under recapwrap (see drive.ts for the scenario).
import { join } from 'node:path';
import { describe } from 'vitest';
import { agentE2eSkipped } from '../helpers/agent-cli.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { defineAgentScenario } from './drive.js';

describe.skipIf(agentE2eSkipped() || !tmuxAvailable())('pi under recapwrap (real CLI)', () => {
  defineAgentScenario({
    agent: 'pi',
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
