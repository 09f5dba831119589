import { defineConfig } from 'vitest/config';

// Unit tests sit beside their source (src/**/*.test.ts); pty and tmux end-to-end tests live in
// test/e2e and run in their own project with fewer workers: they drive real terminals on a 2-core box;
// test/agents drive the real agent CLIs.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/unit/**/*.test.ts'],
          testTimeout: 20_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
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
