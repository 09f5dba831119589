/**
 * A real OpenSSH server for the many-machines tests and bench (#35): started on 127.0.0.1 with its own
 * host key and sshd_config in a temp folder (`sshd -D -e`), letting in one key for a second account
 * (`rwhost`, created with useradd when missing; its HOME is the temp folder's, by SetEnv). Three ports, three PATHs:
 * `ok` has recapwrap (this checkout's, through a small wrapper) and a fake `claude`; `bare` has no
 * recapwrap (mirror mode); `junk` has a `recapwrap` that prints junk. Needs root (a second account, and
 * sshd's privilege separation): `sshdUnavailable()` says why not, in one line.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SSH_ACCOUNT = 'rwhost';
const SSHD = '/usr/sbin/sshd';

const has = (cmd: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** Why a real sshd cannot run here (one line), or undefined. */
export function sshdUnavailable(): string | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'not root (the ssh tests need a second account and sshd)';
  if (!existsSync(SSHD)) return 'no sshd (apt-get install openssh-server)';
  for (const c of ['ssh', 'ssh-keygen', 'rsync', 'useradd']) if (!has(c)) return `no ${c}`;
  return undefined;
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
  ports: { ok: number; bare: number; junk: number };
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
  const root = mkdtempSync(join(tmpdir(), 'rw-sshd-'));
  chmodSync(root, 0o755);
  const home = join(root, 'home');
  mkdirSync(home);
  // The account is made once (a fixed home it owns); each server gives it this run's home with SetEnv
  // HOME (usermod -d refuses while any process of the account lingers).
  const accountHome = `/var/lib/${SSH_ACCOUNT}`;
  try {
    execFileSync('id', ['-u', SSH_ACCOUNT], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['-M', '-d', accountHome, '-s', '/bin/sh', SSH_ACCOUNT], { stdio: 'ignore' });
  }
  mkdirSync(accountHome, { recursive: true, mode: 0o755 });
  execFileSync('chown', [`${SSH_ACCOUNT}:`, accountHome]);
  execFileSync('usermod', ['-p', '*', SSH_ACCOUNT], { stdio: 'ignore' }); // a locked account ('!') may not log in
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(root, 'hostkey')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(root, 'clientkey')]);
  execFileSync('cp', [join(root, 'clientkey.pub'), join(root, 'authorized_keys')]);
  chmodSync(join(root, 'authorized_keys'), 0o644);
  for (const d of ['bin', 'nobin', 'junkbin']) mkdirSync(join(root, d));
  script(join(root, 'bin', 'recapwrap'), `exec ${process.execPath} ${opts.cliBin} "$@"`);
  // A fake agent: says how it was called and where, then waits (a session to land in).
  const fakeClaude = `echo "fake claude $*"; echo "in $(pwd)"; sleep 60`;
  script(join(root, 'bin', 'claude'), fakeClaude);
  script(join(root, 'nobin', 'claude'), fakeClaude);
  script(join(root, 'junkbin', 'recapwrap'), `printf '\\033]0;pwned\\007{"not": [json'; echo; echo 'Traceback: junk' >&2; exit 0`);
  const ports = { ok: await freePort(), bare: await freePort(), junk: await freePort() };
  const config = [
    `ListenAddress 127.0.0.1:${ports.ok}`, `ListenAddress 127.0.0.1:${ports.bare}`, `ListenAddress 127.0.0.1:${ports.junk}`,
    `HostKey ${join(root, 'hostkey')}`, 'PidFile none', `AuthorizedKeysFile ${join(root, 'authorized_keys')}`, 'StrictModes no',
    'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'UsePAM no', `AllowUsers ${SSH_ACCOUNT}`, 'MaxStartups 100', 'MaxSessions 100',
    `SetEnv PATH=${join(root, 'bin')}:/usr/bin:/bin HOME=${home}`,
    `Match LocalPort ${ports.bare}`, `  SetEnv PATH=${join(root, 'nobin')}:/usr/bin:/bin HOME=${home}`,
    `Match LocalPort ${ports.junk}`, `  SetEnv PATH=${join(root, 'junkbin')}:/usr/bin:/bin HOME=${home}`,
  ];
  writeFileSync(join(root, 'sshd_config'), config.join('\n') + '\n');
  const sshConfig = join(root, 'ssh_config');
  writeFileSync(sshConfig, ['Host *', `  IdentityFile ${join(root, 'clientkey')}`, '  IdentitiesOnly yes', '  UserKnownHostsFile /dev/null', '  StrictHostKeyChecking no', '  LogLevel ERROR', ''].join('\n'));
  chmodSync(join(root, 'clientkey'), 0o600);
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', join(root, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  try {
    await waitForPort(ports.ok, 10_000);
  } catch (error) {
    child.kill();
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
