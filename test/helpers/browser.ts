/**
 * A real headless Chromium for the HTML tests: Debian's `chromium` (installed by .ci/run with apt-get),
 * driven by playwright-core through its executablePath (never a browser download), with a fresh profile
 * in a temp folder and every background request of the browser itself turned off.
 * Without the browser the tests skip, said in one line; under CI=true a missing browser is an error.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.RECAPWRAP_TEST_CHROMIUM ?? '/usr/bin/chromium';

const LAUNCH_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Whether the browser is here; says once why the tests skip, or throws under CI (which installs it). */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === 'true') throw new Error(`Expected Chromium at ${CHROMIUM_PATH} under CI=true (.ci/run installs it), got none`);
  process.stderr.write(`recapwrap tests: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium), so the HTML browser tests are skipped.\n`);
  return false;
}

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** One browser for a test file (launching costs ~1 s): a persistent context on a fresh profile folder. */
export async function launchChromium(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'rw-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: LAUNCH_ARGS,
    viewport: { width: 1000, height: 800 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
