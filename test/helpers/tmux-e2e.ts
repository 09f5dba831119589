/**
 * What the tmux e2e files share: the set-up of a private server and a folder around a file's tests, and
 * the command a pane runs to start recapwrap. Apart from tmux.ts, which scripts outside vitest use too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { assertBuilt, CLI_BIN } from './cli-pty.js';
import { endProcessesWithEnv } from './processes.js';
import { shellQuote, TmuxServer } from './tmux.js';

export interface TmuxE2e {
  /** A fresh temporary folder for the file's tests (removed after them). */
  readonly dir: string;
  /** The file's private tmux server (killed after its tests). */
  readonly server: TmuxServer;
}

/**
 * The set-up every tmux e2e file shares, called inside its describe(): before all its tests the CLI is
 * built (unless `built: false`), a temporary folder is made and a private server named; after them
 * the server is killed, `afterKill` runs (waiting for wrappers to exit, say), what still runs with a
 * path in the folder in its environment ends, and the folder goes.
 */
export function tmuxE2e(prefix: string, options: { built?: boolean; afterKill?: () => unknown } = {}): TmuxE2e {
  let dir: string | undefined;
  let server: TmuxServer | undefined;
  beforeAll(() => {
    if (options.built !== false) assertBuilt();
    dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    server = TmuxServer.create(prefix);
  });
  afterAll(async () => {
    server?.kill();
    await options.afterKill?.();
    if (!dir) return;
    // The panes' wrappers are still exiting: what they write on the way out (compile cache entries, the
    // last state) would land after the removal, fail it (ENOTEMPTY) or make the folder again.
    await endProcessesWithEnv({ under: dir });
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });
  const made = <T>(what: string, value: T | undefined): T => {
    if (value === undefined) throw new Error(`Expected the tmux e2e ${what} to be made (use it inside a test or hook), got none`);
    return value;
  };
  return {
    get dir() {
      return made('folder', dir);
    },
    get server() {
      return made('server', server);
    },
  };
}

/** The argv a tmux pane runs to start `recapwrap <args>` from `cwd` (made first with `mkdir`), as a user would. */
export function wrapperCommand(cwd: string, args: string[], options: { mkdir?: boolean } = {}): string[] {
  const enter = `${options.mkdir ? `mkdir -p ${shellQuote(cwd)} && ` : ''}cd ${shellQuote(cwd)}`;
  return ['sh', '-c', `${enter} && exec ${[process.execPath, CLI_BIN, ...args].map(shellQuote).join(' ')}`];
}
