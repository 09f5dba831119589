/**
 * A real OpenSSH server for the many-machines tests and bench (#35): started on 127.0.0.1 with its own
 * host key and sshd_config in a temp folder (`sshd -D -e`), letting in one key for a second account
 * (`rwhost`, created with useradd when missing and then deleted again by `stop()`, or at exit if a run
 * dies first; its HOME and TMPDIR are the temp folder's, by SetEnv). Four ports, four PATHs: `ok` has recapwrap
 * (this checkout's, through a small wrapper) and a fake `claude`; `bare` has no recapwrap (mirror mode);
 * `junk` has a `recapwrap` that prints junk; `slow` has one that never ends. It changes the machine (an
 * account), so it runs only where asked: RECAPWRAP_SSH_TESTS=1 (`.ci/run` sets it), as root (a second
 * account, and sshd's privilege separation). `sshdUnavailable()` says why not, in one line.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const SSH_ACCOUNT = 'rwhost';
const SSHD_PATH = '/usr/sbin/sshd';
// sshd as the PATH has it (where an unpacked OpenSSH is tried), else the system's.
const sshdPath = () => which('sshd') ?? SSHD_PATH;
// The folder of this machine's rsync: the host's PATH has it too (the pull runs rsync there).
const rsyncDir = () => dirname(which('rsync') ?? '/usr/bin/rsync');
/** The opt-in: the ssh tests create a system account and run sshd, so only where this is `1` (CI). */
export const SSH_TESTS_ENV = 'RECAPWRAP_SSH_TESTS';

function which(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  const path = r.status === 0 ? r.stdout.trim() : '';
  return path.startsWith('/') ? path : undefined;
}
const has = (cmd: string) => which(cmd) !== undefined;

/** Why a real sshd cannot run here (one line), or undefined. */
export function sshdUnavailable(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env[SSH_TESTS_ENV] !== '1') return `${SSH_TESTS_ENV} is not 1 (they start sshd and create a system account ${SSH_ACCOUNT}, deleted after; .ci/run sets it)`;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'not root (the ssh tests need a second account and sshd)';
  if (!existsSync(sshdPath())) return 'no sshd (apt-get install openssh-server)';
  for (const c of ['ssh', 'ssh-keygen', 'rsync', 'useradd', 'userdel']) if (!has(c)) return `no ${c}`;
  return undefined;
}

const RUN_DIR = '/run/sshd';
const ACCOUNT_HOME = `/var/lib/${SSH_ACCOUNT}`;
/** This process created the account (and its home): it deletes them again, nothing else. */
let madeAccount = false;

export const accountExists = (): boolean => spawnSync('id', ['-u', SSH_ACCOUNT], { stdio: 'ignore' }).status === 0;

// The account with a fixed home it owns; each server gives it this run's home with SetEnv HOME (usermod -d
// refuses while any process of the account lingers). One that was already there is used as it is.
function makeAccount(): void {
  if (accountExists()) return;
  execFileSync('useradd', ['-M', '-d', ACCOUNT_HOME, '-s', '/bin/sh', SSH_ACCOUNT], { stdio: 'ignore' });
  madeAccount = true;
  // A run that dies before its teardown still leaves no account behind.
  process.once('exit', removeAccount);
  mkdirSync(ACCOUNT_HOME, { recursive: true, mode: 0o755 });
  execFileSync('chown', [`${SSH_ACCOUNT}:`, ACCOUNT_HOME]);
  execFileSync('usermod', ['-p', '*', SSH_ACCOUNT], { stdio: 'ignore' }); // a locked account ('!') may not log in
}

const accountPids = (): number[] =>
  (spawnSync('ps', ['-u', SSH_ACCOUNT, '-o', 'pid='], { encoding: 'utf8' }).stdout ?? '')
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);

/**
 * Delete the account and its home when this process created them: first its processes (every one was
 * started by these tests, through this sshd), by pid, since userdel refuses while any runs. Synchronous:
 * it also runs at exit.
 */
export function removeAccount(): void {
  if (!madeAccount) return;
  for (let round = 0; round < 40; round++) {
    const pids = accountPids();
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already
      }
    }
    spawnSync('sleep', ['0.05']);
  }
  if (spawnSync('userdel', [SSH_ACCOUNT], { stdio: 'ignore' }).status === 0 || !accountExists()) {
    madeAccount = false;
    rmSync(ACCOUNT_HOME, { recursive: true, force: true });
    process.removeListener('exit', removeAccount);
  }
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolvePort(port));
    });
  });
}

async function waitForPort(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((r) => {
      const c = connect(port, '127.0.0.1');
      c.once('connect', () => (c.destroy(), r(true)));
      c.once('error', () => r(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`sshd did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface Sshd {
  root: string;
  /** The account's home there (agent homes go here; chown with `own()`). */
  home: string;
  ports: { ok: number; bare: number; junk: number; slow: number };
  /** ssh's config file for the client (key, no known-hosts checks). */
  sshConfig: string;
  /** `["-F", config, "-p", port, "rwhost@127.0.0.1"]`: a host's `ssh` of the config file. */
  sshArgs(port: number): string[];
  /** Give the account what was laid out under its home. */
  own(): void;
  stop(): void;
}

const script = (path: string, body: string) => {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
};

/** Start the server; `cliBin` is the recapwrap.js the host's `recapwrap` runs (this checkout's built CLI). */
export async function startSshd(opts: { cliBin: string }): Promise<Sshd> {
  makeAccount();
  const root = mkdtempSync(join(tmpdir(), 'rw-sshd-'));
  try {
    return await serve(root, opts);
  } catch (error) {
    removeAccount();
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}

async function serve(root: string, opts: { cliBin: string }): Promise<Sshd> {
  chmodSync(root, 0o755);
  const home = join(root, 'home');
  mkdirSync(home);
  // sshd's privilege separation folder; made here (and removed by stop()) only when missing.
  const madeRunDir = !existsSync(RUN_DIR);
  mkdirSync(RUN_DIR, { recursive: true, mode: 0o755 });
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(root, 'hostkey')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(root, 'clientkey')]);
  execFileSync('cp', [join(root, 'clientkey.pub'), join(root, 'authorized_keys')]);
  chmodSync(join(root, 'authorized_keys'), 0o644);
  for (const d of ['bin', 'nobin', 'junkbin', 'slowbin']) mkdirSync(join(root, d));
  script(join(root, 'bin', 'recapwrap'), `exec ${process.execPath} ${opts.cliBin} "$@"`);
  // A fake agent: says how it was called and where, then waits (a session to land in).
  const fakeClaude = `echo "fake claude $*"; echo "in $(pwd)"; sleep 60`;
  script(join(root, 'bin', 'claude'), fakeClaude);
  script(join(root, 'nobin', 'claude'), fakeClaude);
  script(join(root, 'junkbin', 'recapwrap'), `printf '\\033]0;pwned\\007{"not": [json'; echo; echo 'Traceback: junk' >&2; exit 0`);
  // A recapwrap that never ends and minds nothing: no output, hangups and its input ignored.
  script(join(root, 'slowbin', 'recapwrap'), `trap '' HUP; while :; do sleep 1; done`);
  // The host's temp folder, inside ours: what a host process left there when stop() SIGKILLed it goes
  // with the folder. (A wrapper resumed there starts a detached summary at its exit, whose model call,
  // the fake claude, sleeps in its /tmp/recapwrap-recap-* until the kill: full runs left one each.)
  const tmp = join(root, 'tmp');
  mkdirSync(tmp);
  chmodSync(tmp, 0o1777);
  const ports = { ok: await freePort(), bare: await freePort(), junk: await freePort(), slow: await freePort() };
  const system = [...new Set([rsyncDir(), '/usr/bin', '/bin'])].join(':');
  const config = [
    `ListenAddress 127.0.0.1:${ports.ok}`, `ListenAddress 127.0.0.1:${ports.bare}`, `ListenAddress 127.0.0.1:${ports.junk}`, `ListenAddress 127.0.0.1:${ports.slow}`,
    `HostKey ${join(root, 'hostkey')}`, 'PidFile none', `AuthorizedKeysFile ${join(root, 'authorized_keys')}`, 'StrictModes no',
    'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'UsePAM no', `AllowUsers ${SSH_ACCOUNT}`, 'MaxStartups 100', 'MaxSessions 100',
    `SetEnv PATH=${join(root, 'bin')}:${system} HOME=${home} TMPDIR=${tmp}`,
    `Match LocalPort ${ports.bare}`, `  SetEnv PATH=${join(root, 'nobin')}:${system} HOME=${home} TMPDIR=${tmp}`,
    `Match LocalPort ${ports.junk}`, `  SetEnv PATH=${join(root, 'junkbin')}:${system} HOME=${home} TMPDIR=${tmp}`,
    `Match LocalPort ${ports.slow}`, `  SetEnv PATH=${join(root, 'slowbin')}:${system} HOME=${home} TMPDIR=${tmp}`,
  ];
  writeFileSync(join(root, 'sshd_config'), config.join('\n') + '\n');
  const sshConfig = join(root, 'ssh_config');
  writeFileSync(sshConfig, ['Host *', `  IdentityFile ${join(root, 'clientkey')}`, '  IdentitiesOnly yes', '  UserKnownHostsFile /dev/null', '  StrictHostKeyChecking no', '  LogLevel ERROR', ''].join('\n'));
  chmodSync(join(root, 'clientkey'), 0o600);
  const child: ChildProcess = spawn(sshdPath(), ['-D', '-e', '-f', join(root, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  try {
    await waitForPort(ports.ok, 10_000);
  } catch (error) {
    child.kill();
    if (madeRunDir) rmSync(RUN_DIR, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}: ${log}`);
  }
  const own = () => execFileSync('chown', ['-R', `${SSH_ACCOUNT}:`, home]);
  own();
  return {
    root, home, ports, sshConfig,
    sshArgs: (port) => ['-F', sshConfig, '-p', String(port), `${SSH_ACCOUNT}@127.0.0.1`],
    own,
    stop() {
      child.kill();
      removeAccount();
      if (madeRunDir) rmSync(RUN_DIR, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** End the shared-connection masters whose sockets are in `dir` (they would stay up for ControlPersist). */
export function stopMasters(dir: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) spawnSync('ssh', ['-S', join(dir, n), '-O', 'exit', 'any'], { stdio: 'ignore', timeout: 5000 });
}
