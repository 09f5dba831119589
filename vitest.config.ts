import { defineConfig } from 'vitest/config';
import { hasCorpus, RECAP_CORPUS_DIR } from './test/helpers/shared.js';

// Unit tests sit beside their source (src/**/*.test.ts); pty and tmux end-to-end tests live in
// test/e2e and run in their own project with fewer workers: they drive real terminals on a 2-core box;
// test/agents drive the real agent CLIs.
// The agent suite downloads the five real agent CLIs (~1.2 GB) on its first run; RECAPWRAP_SKIP_AGENT_E2E=1
// skips it (its files skip their tests), said once here. CI does not set it.
if (process.env.RECAPWRAP_SKIP_AGENT_E2E === '1') {
  process.stderr.write('recapwrap tests: RECAPWRAP_SKIP_AGENT_E2E=1, so test/agents (the real agent CLIs against the fake model) is skipped.\n');
}

// Tests on other people's transcripts (../shared/recap-corpus, never copied into the repo) skip without it.
if (!hasCorpus()) {
  process.stderr.write(`recapwrap tests: no ${RECAP_CORPUS_DIR}, so the tests on third-party transcripts are skipped.\n`);
}

// Tests leave the machine as they found it: the run gets a temp HOME and each test file one of its own,
// and the run fails if recapwrap files appear in the real HOME (test/helpers/test-home.ts).
const HOME_PER_FILE = ['test/helpers/test-home-file.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/test-home.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/unit/**/*.test.ts'],
          testTimeout: 20_000,
          setupFiles: HOME_PER_FILE,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          setupFiles: HOME_PER_FILE,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 60_000,
          pool: 'forks',
          maxWorkers: 2,
          fileParallelism: true,
        },
      },
      {
        // The real agent CLIs (installed from npm into a cache outside the repo) against a fake model
        // server: one agent at a time, after everything else.
        test: {
          name: 'agents',
          include: ['test/agents/**/*.test.ts'],
          setupFiles: HOME_PER_FILE,
          sequence: { groupOrder: 2 },
          testTimeout: 5 * 60_000,
          hookTimeout: 15 * 60_000,
          pool: 'forks',
          maxWorkers: 1,
          fileParallelism: false,
        },
      },
    ],
  },
});
