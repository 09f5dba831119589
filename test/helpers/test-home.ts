/**
 * The test run's HOME (vitest globalSetup): the test processes, and all they start, get a HOME in a temp
 * folder and none of the XDG or agent folder variables, so nothing a test runs can find the user's own
 * recapwrap cache, state or config; each test file gets a HOME of its own (test/helpers/test-home-file.ts).
 * Leaves out: folders a test makes itself in os.tmpdir(), which that test removes.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLAUDE_CONFIG_DIR_ENV } from '../../src/app/mcp/agent-configs.js';
import { DEMO_WORKSPACE_ENV } from '../../src/app/wrap/tmux-notice.js';
import {
  RECAPWRAP_DEBUG_LOG_ENV,
  RECAPWRAP_STATE_DIR_ENV,
  XDG_CACHE_HOME_ENV,
  XDG_CONFIG_HOME_ENV,
  XDG_RUNTIME_DIR_ENV,
  XDG_STATE_HOME_ENV,
} from '../../src/config/paths.js';
import { CODEX_HOME_ENV } from '../../src/transcripts/codex/paths.js';
import { GEMINI_TRUSTED_FOLDERS_ENV } from '../../src/transcripts/gemini/one-shot.js';
import { GEMINI_HOME_ENV } from '../../src/transcripts/gemini/paths.js';
import { PI_AGENT_DIR_ENV, PI_SESSION_DIR_ENV } from '../../src/transcripts/pi/paths.js';
import { QWEN_HOME_ENV, QWEN_RUNTIME_DIR_ENV } from '../../src/transcripts/qwen/paths.js';
import { agentCacheDir, RECAPWRAP_AGENT_CACHE_ENV } from './agent-cli.js';
import { endProcessesWithEnv } from './processes.js';

/** The folder test-home-file.ts makes each test file's HOME in (inside the run's temp folder). */
export const TEST_HOMES_ENV = 'RECAPWRAP_TEST_HOMES';

// Variables that point recapwrap or an agent at a folder of the user's: unset for the run, so every
// path derives from the temp HOME (a test that wants one sets it to its own folder).
const USER_FOLDER_ENVS = [
  XDG_CACHE_HOME_ENV,
  XDG_CONFIG_HOME_ENV,
  XDG_STATE_HOME_ENV,
  XDG_RUNTIME_DIR_ENV,
  'XDG_DATA_HOME',
  RECAPWRAP_STATE_DIR_ENV,
  RECAPWRAP_DEBUG_LOG_ENV,
  DEMO_WORKSPACE_ENV,
  CLAUDE_CONFIG_DIR_ENV,
  CODEX_HOME_ENV,
  GEMINI_HOME_ENV,
  GEMINI_TRUSTED_FOLDERS_ENV,
  PI_AGENT_DIR_ENV,
  PI_SESSION_DIR_ENV,
  QWEN_HOME_ENV,
  QWEN_RUNTIME_DIR_ENV,
] as const;

// npm's own files stay the user's: the agent suite installs the real agent CLIs with their .npmrc and cache.
function keepNpmFolders(env: NodeJS.ProcessEnv, home: string): void {
  env.npm_config_userconfig ??= join(home, '.npmrc');
  env.npm_config_cache ??= join(home, '.npm');
}

export default function setup(): () => Promise<void> {
  const env = process.env;
  const realHome = env.HOME || homedir();

  // Found before HOME changes: the agent CLIs installed once, outside the run (test/helpers/agent-cli.ts).
  env[RECAPWRAP_AGENT_CACHE_ENV] ??= agentCacheDir();
  keepNpmFolders(env, realHome);
  for (const name of USER_FOLDER_ENVS) delete env[name];
  const root = mkdtempSync(join(tmpdir(), 'rw-test-homes-'));
  const files = join(root, 'files');
  mkdirSync(files);
  env[TEST_HOMES_ENV] = files;
  // The run's own HOME, the vitest workers'; each test file then gets one of its own in `files`.
  env.HOME = join(root, 'run');
  mkdirSync(env.HOME);

  return async () => {
    // Processes a test left running (HOME in a test file's folder) end first: none writes there after the removal.
    const stray = await endProcessesWithEnv({ prefix: `HOME=${files}/` }, 5000).catch((error: Error) => [`(some would not end: ${error.message})`]);
    if (stray.length > 0) process.stderr.write(`recapwrap tests: ended ${stray.length} process(es) a test left running:\n  ${stray.join('\n  ')}\n`);
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };
}
