// A new user's report: `recapwrap recap --width W` of the demo's session waiting for "ok to run npm test
// again?" left the next step out at 40, 60 and 80 columns (only 120 showed it), though `status --help`,
// the README and DESIGN.md promise the step is kept. The demo agent writes the real session file here.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI_BIN, spawnInPty } from '../helpers/cli-pty.js';
import { REPO_DIR } from '../helpers/shared.js';

const DEMO_AGENT = join(REPO_DIR, 'bin', 'demo-agent.js');
const QUESTION = 'ok to run npm test again?';
let dir: string;
let session: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rw-next-step-'));
  const home = join(dir, 'home');
  const tmp = join(dir, 'tmp');
  for (const d of [home, tmp]) mkdirSync(d);
  env = { HOME: home, TMPDIR: tmp, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), RECAPWRAP_STATE_DIR: join(home, 'state', 'recapwrap'), PI_CODING_AGENT_DIR: undefined, PI_CODING_AGENT_SESSION_DIR: undefined };
  session = join(dir, 'demo-session.jsonl');
  const run = spawnInPty(process.execPath, [DEMO_AGENT, '--session', session], { cwd: dir, env: { ...env, RECAPWRAP_DEMO_STEP_MS: '50' } });
  await run.waitFor('Ctrl-D quits');
  run.write('fix the failing test\r');
  await run.waitFor('Shall I run');
  run.write('\x04');
  expect((await run.exit).exitCode).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function recapAt(width: number): string {
  return execFileSync(process.execPath, [CLI_BIN, 'recap', '--session', session, '--width', String(width)], { cwd: dir, env: { ...process.env, ...env } as NodeJS.ProcessEnv, encoding: 'utf8' }).trim();
}

describe('bug regression: the recap keeps the next step at common widths', () => {
  it('shows the question from 40 columns on, whole from 50; at 80 also what was done', () => {
    expect(recapAt(40)).toMatch(/^waiting for you\. Next: ok to run npm…$/);
    for (const w of [50, 60, 80, 120]) expect(recapAt(w), `${w}`).toContain(`Next: ${QUESTION}`);
    const at80 = recapAt(80);
    expect(at80.length).toBeLessThanOrEqual(80);
    expect(at80).toMatch(/^waiting for you\b.*: Fixed\b.*… Next: ok to run npm test again\?$/);
  });
});
