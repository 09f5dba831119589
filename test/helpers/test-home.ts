/**
 * The test run's HOME (vitest globalSetup): the test processes, and all they start, get a HOME in a temp
 * folder and none of the XDG or agent folder variables, so recapwrap's cache, state and config derive
 * from a temp folder, never the user's; each test file gets a HOME of its own (test-home-file.ts).
 * A child started without HOME would still find the passwd HOME: at the end the run fails if recapwrap
 * files appeared in the real HOME (see checkRealHome).
 * Leaves out: folders a test makes itself in os.tmpdir(), which that test removes.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { CLAUDE_CONFIG_DIR_ENV } from '../../src/app/mcp/agent-configs.js';
import { DEMO_WORKSPACE_ENV } from '../../src/app/wrap/tmux-notice.js';
import {
  getCacheDir,
  getConfigDir,
  getRuntimeDir,
  getStateDir,
  RECAPWRAP_DEBUG_LOG_ENV,
  RECAPWRAP_STATE_DIR_ENV,
  XDG_CACHE_HOME_ENV,
  XDG_CONFIG_HOME_ENV,
  XDG_RUNTIME_DIR_ENV,
  XDG_STATE_HOME_ENV,
  type Env,
} from '../../src/config/paths.js';
import { CODEX_HOME_ENV } from '../../src/transcripts/codex/paths.js';
import { GEMINI_TRUSTED_FOLDERS_ENV } from '../../src/transcripts/gemini/one-shot.js';
import { GEMINI_HOME_ENV } from '../../src/transcripts/gemini/paths.js';
import { PI_AGENT_DIR_ENV, PI_SESSION_DIR_ENV } from '../../src/transcripts/pi/paths.js';
import { QWEN_HOME_ENV, QWEN_RUNTIME_DIR_ENV } from '../../src/transcripts/qwen/paths.js';
import { agentCacheDir, RECAPWRAP_AGENT_CACHE_ENV } from './agent-cli.js';
import { endProcessesWithEnv } from './processes.js';
import { REPO_DIR } from './shared.js';

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

const compileCache = createRequire(import.meta.url)('../../bin/compile-cache.js') as { entryName(file: string): string | undefined };

/** recapwrap's own folders for the user the run started as: what no test may create or write into. */
export interface RealFolders {
  /** State, config and runtime folders: none may appear during the run. */
  folders: string[];
  /** Compile cache folders (bin/compile-cache.js): no entry of this checkout may appear in them. */
  v8: string[];
}

/** What was there when the run started. */
export interface RealSnapshot {
  existing: Set<string>;
  v8: Map<string, Set<string>>;
}

// The folders recapwrap would use with the user's environment, and with the passwd HOME a child
// started without HOME falls back to (os.homedir()).
export function findRealFolders(env: Env, passwdHome = userInfo().homedir): RealFolders {
  const envs: Env[] = [env, { HOME: passwdHome }];
  const folders = new Set<string>();
  for (const e of envs) {
    folders.add(getStateDir(e));
    folders.add(getConfigDir(e));
    if (e[XDG_RUNTIME_DIR_ENV]) folders.add(getRuntimeDir(e));
  }
  return { folders: [...folders], v8: [...new Set(envs.map((e) => join(getCacheDir(e), 'v8')))] };
}

// The compile cache entries (bin/compile-cache.js) of this checkout's dist/: only a run of this build
// writes them, so new ones in the user's cache came from the run, even while their own recapwrap runs.
function checkoutEntryNames(): Set<string> {
  const names = new Set<string>();
  for (const sub of ['cli', 'chunks']) {
    const dir = join(REPO_DIR, 'dist', sub);
    if (!existsSync(dir)) continue;
    for (const n of readdirSync(dir)) {
      const name = compileCache.entryName(join(dir, n));
      if (name) names.add(name);
    }
  }
  return names;
}

const listNames = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

export function snapshotRealFolders(real: RealFolders): RealSnapshot {
  return { existing: new Set(real.folders.filter((f) => existsSync(f))), v8: new Map(real.v8.map((d) => [d, new Set(listNames(d))])) };
}

/**
 * What the run left in the user's folders: a state, config or runtime folder of recapwrap's that was not
 * there before it, or compile cache entries of this checkout that are new. Changes inside a folder that
 * was there are not counted (the user's own recapwrap may be at work in it meanwhile), nor other installs'
 * compile cache entries, whether or not their folder is new (another checkout's test run, say).
 */
export function checkRealHome(real: RealFolders, before: RealSnapshot): string[] {
  const found: string[] = [];
  for (const folder of real.folders) {
    if (!before.existing.has(folder) && existsSync(folder)) found.push(`${folder}/ (${listNames(folder).join(', ') || 'empty'})`);
  }
  const ours = checkoutEntryNames();
  for (const dir of real.v8) {
    const had = before.v8.get(dir) ?? new Set<string>();
    const added = listNames(dir).filter((n) => ours.has(n) && !had.has(n));
    if (added.length > 0) found.push(`${dir}/: ${added.length} compile cache entries of this checkout (${added.slice(0, 3).join(', ')}${added.length > 3 ? ', …' : ''})`);
  }
  return found;
}

// npm's own files stay the user's: the agent suite installs the real agent CLIs with their .npmrc and cache.
function keepNpmFolders(env: NodeJS.ProcessEnv, home: string): void {
  env.npm_config_userconfig ??= join(home, '.npmrc');
  env.npm_config_cache ??= join(home, '.npm');
}

export default function setup(): () => Promise<void> {
  const env = process.env;
  const realHome = env.HOME || homedir();
  const real = findRealFolders({ ...env });
  const before = snapshotRealFolders(real);

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
    // Processes a test left running (HOME in a test file's folder) end first: none writes after the check, or there after the removal.
    const stray = await endProcessesWithEnv({ prefix: `HOME=${files}/` }, 5000).catch((error: Error) => [`(some would not end: ${error.message})`]);
    if (stray.length > 0) process.stderr.write(`recapwrap tests: ended ${stray.length} process(es) a test left running:\n  ${stray.join('\n  ')}\n`);
    const found = checkRealHome(real, before);
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    if (found.length > 0) {
      process.stderr.write(
        `\nrecapwrap tests: the run wrote recapwrap files into the real HOME (${realHome}); a test or what it started used a path of the user's (started without HOME, or given one explicitly):\n  ${found.join('\n  ')}\nRemove them, and find the test with the guard on: rerun the test files one at a time.\n(Not the run's after all if, during it, you ran this checkout's bin/recapwrap.js yourself, or used recapwrap on this machine for the first time.)\n`,
      );
      process.exitCode = 1;
    }
  };
}
