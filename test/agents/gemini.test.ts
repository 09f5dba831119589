// The real Gemini CLI under recapwrap (see drive.ts for the scenario).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'vitest';
import { agentE2eSkipped } from '../helpers/agent-cli.js';
import { tmuxAvailable } from '../helpers/tmux.js';
import { defineAgentScenario } from './drive.js';

describe.skipIf(agentE2eSkipped() || !tmuxAvailable())('Gemini CLI under recapwrap (real CLI)', () => {
  defineAgentScenario({
    agent: 'gemini',
    prepare({ home, model }) {
      mkdirSync(join(home, '.gemini'), { recursive: true });
      // gemini-api-key auth (GOOGLE_GEMINI_BASE_URL alone selects a "gateway" auth that 0.61 rejects).
      writeFileSync(
        join(home, '.gemini', 'settings.json'),
        JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true } }),
      );
      // CI=true (as .ci/run runs) puts Gemini CLI in headless mode even on a terminal.
      return { GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_API_KEY: 'fake-gemini-key', CI: '' };
    },
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
