/**
 * A HOME of its own for each test file (vitest setupFiles), inside the run's temp folder that
 * test/helpers/test-home.ts made and removes at the end: a test that starts recapwrap without a HOME
 * of its own writes there, never into the user's, and never into another file's running in parallel.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { TEST_HOMES_ENV } from './test-home.js';

const homes = process.env[TEST_HOMES_ENV];
if (!homes) throw new Error(`Expected ${TEST_HOMES_ENV} from the run's global setup (test/helpers/test-home.ts in vitest.config.ts), got none`);
const runHome = process.env.HOME;
// Set before the test file is imported: paths it derives at load time use this HOME too.
process.env.HOME = mkdtempSync(join(homes, 'home-'));

// The folder stays until the run ends: a process the test left behind may still write into it.
afterAll(() => {
  process.env.HOME = runHome;
});
