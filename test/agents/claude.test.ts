// The real Claude Code CLI under recapwrap (see drive.ts for the scenario).
import { join } from 'node:path';
import { describe } from 'vitest';
import { agentE2eSkipped } from '../helpers/agent-cli.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { defineAgentScenario } from './drive.js';

describe.skipIf(agentE2eSkipped() || !tmuxAvailable())('Claude Code under recapwrap (real CLI)', () => {
  defineAgentScenario({
    agent: 'claude',
    // Writes and `ls` without approval prompts.
    args: ['--allowedTools', 'Bash,Write'],
    ready: /❯/,
    newCommand: '/clear',
    exitKeys: [['-l', '/exit'], ['Enter']],
    wantsFocus: true,
    sessionRoot: (home) => join(home, '.claude', 'projects'),
  });
});
