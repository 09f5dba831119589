// The real Gemini CLI under recapwrap (see drive.ts for the scenario).
import { join } from 'node:path';
import { describe } from 'vitest';
import { agentE2eSkipped } from '../helpers/agent-cli.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { defineAgentScenario } from './drive.js';

describe.skipIf(agentE2eSkipped() || !tmuxAvailable())('Gemini CLI under recapwrap (real CLI)', () => {
  defineAgentScenario({
    agent: 'gemini',
    args: ['-m', 'gemini-2.5-flash', '--skip-trust', '--yolo'],
    ready: /Type your message/,
    newCommand: '/clear',
    // /clear resets the chat, then clears the screen and the prompt: typing sent before then is dropped.
    settleAfterNewMs: 4000,
    exitKeys: [['-l', '/quit'], ['Enter']],
    wantsFocus: true,
    // Headless mode still offers Gemini's read-only tools.
    oneOffOffersTools: true,
    sessionRoot: (home) => join(home, '.gemini', 'tmp'),
  });
});
