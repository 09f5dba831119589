/**
 * Runs ssh (and rsync) for the hosts: a private folder for the shared connections' sockets, one child
 * per host with a deadline (killed when it passes: never a hang), output read up to a bound, and a
 * failure turned into one line that names the host (down, refused, no recapwrap there, too slow).
 */
import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { getStateDir, type Env } from '../../config/paths.js';
import { sanitizeLine } from '../../util/sanitize.js';
import type { HostSpec } from './config.js';
import { MAX_ANSWER_BYTES } from './merge.js';
import { queryArgv, scriptArgv, type SshOptions } from './ssh-argv.js';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  tooBig: boolean;
  /** The program could not be started (ssh or rsync missing). */
  missing: boolean;
}

/**
 * Run argv with a deadline and bounded output; resolves always (never rejects, never hangs past the deadline).
 * The child runs in its own process group (ssh and what it starts: a ProxyCommand, rsync's ssh), with an
 * input pipe held open and never written (a guarded remote command ends when it closes: ssh-argv.ts).
 * At the deadline (or past the size bound) the group is killed, this side's pipes are closed and the
 * answer given at once: a shared connection's master, which was handed the pipes, cannot keep us waiting.
 */
export function runBounded(argv: readonly string[], opts: { timeoutMs: number; env?: Env; maxBytes?: number; cwd?: string }): Promise<RunResult> {
  const max = opts.maxBytes ?? MAX_ANSWER_BYTES;
  return new Promise((resolveRun) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let timedOut = false;
    let tooBig = false;
    let done = false;
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'], detached: true, env: (opts.env ?? process.env) as NodeJS.ProcessEnv, ...(opts.cwd ? { cwd: opts.cwd } : {}) });
    // Our end of the input: a write after the child is gone is no error of ours.
    child.stdin.on('error', () => {});
    const finish = (code: number | null, missing = false) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // Nothing of the child may keep this process: its pipes closed, its handle let go.
      for (const pipe of [child.stdin, child.stdout, child.stderr]) pipe.destroy();
      child.unref();
      resolveRun({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), timedOut, tooBig, missing });
    };
    const stop = () => {
      killGroup(child.pid);
      finish(null);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, opts.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > max) {
        tooBig = true;
        stop();
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      errBytes += chunk.length;
      if (errBytes <= 64 * 1024) err.push(chunk);
    });
    child.on('error', () => finish(null, true));
    // A background ssh master that kept a pipe open would delay 'close': 'exit' plus a moment is enough.
    child.on('exit', (code) => setTimeout(() => finish(code), 50).unref());
    child.on('close', (code) => finish(code));
  });
}

// The child's whole process group (it leads it: spawned detached), else the child alone.
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already
    }
  }
}

/**
 * The private folder of the shared connections' sockets, `<state>/ssh` (0700, ours, not a link);
 * undefined when it cannot be made safe (then each query opens its own connection).
 */
export function controlDir(env: Env): string | undefined {
  const dir = join(getStateDir(env), 'ssh');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory() || (typeof process.getuid === 'function' && st.uid !== process.getuid())) return undefined;
    if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    // A socket path longer than the system's limit (about 104 bytes) would make ssh fail.
    if (dir.length + 42 > 100) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

export interface HostContext {
  env: Env;
  /** Seconds per host unless the host says otherwise. */
  timeoutSeconds: number;
  controlDir?: string;
  /**
   * The folder of the config file that named the hosts: ssh (and rsync's ssh) runs there, so a relative
   * path in its arguments (`-F ssh_config`, `-i key`) means the file next to that config, as the user read
   * it when trusting it, never one in whatever folder the command runs from (a submodule, a nested clone).
   */
  cwd?: string;
}

export function sshOptionsFor(host: HostSpec, ctx: HostContext): SshOptions {
  return { controlDir: ctx.controlDir, timeoutSeconds: host.timeoutSeconds ?? ctx.timeoutSeconds };
}

/** The last meaningful line ssh or the remote wrote on stderr, sanitized and short. */
function lastLine(stderr: string): string {
  const lines = stderr.split(/\r?\n/).map((l) => sanitizeLine(l)).filter((l) => l && !/^Warning: Permanently added/.test(l));
  const line = lines[lines.length - 1] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

export type HostAnswer = { ok: true; code: number; stdout: string; stderr: string } | { ok: false; problem: string; notInstalled?: boolean };

/** Why a run failed, as one line without the host's name; undefined when it ran (whatever its exit code). */
export function describeFailure(r: RunResult, seconds: number, what = 'recapwrap'): { problem: string; notInstalled?: boolean } | undefined {
  if (r.missing) return { problem: 'ssh is not installed here' };
  if (r.timedOut) return { problem: `no answer in ${seconds} s (down or too slow; skipped)` };
  if (r.tooBig) return { problem: 'answered more than 8 MB (skipped)' };
  if (r.code === 255) return { problem: `cannot connect: ${lastLine(r.stderr) || 'ssh failed'}` };
  if (r.code === 127 || (r.code === 126 && /not found|no such file/i.test(r.stderr))) return { problem: `${what} is not installed there (or not on its PATH for ssh commands)`, notInstalled: true };
  return undefined;
}

/** Run `recapwrap WORDS…` on a host: its stdout and exit code, or one line saying why not. */
export async function askHost(host: HostSpec, words: readonly string[], ctx: HostContext): Promise<HostAnswer> {
  const opts = sshOptionsFor(host, ctx);
  const r = await runBounded(queryArgv(host, words, opts), { timeoutMs: opts.timeoutSeconds * 1000, env: ctx.env, cwd: ctx.cwd });
  const failure = describeFailure(r, opts.timeoutSeconds);
  if (failure) return { ok: false, ...failure };
  return { ok: true, code: r.code ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** Run one of our fixed shell scripts on a host (doctor, the pull's home). */
export async function runScript(host: HostSpec, script: string, ctx: HostContext, maxBytes = 64 * 1024): Promise<HostAnswer> {
  const opts = sshOptionsFor(host, ctx);
  const r = await runBounded(scriptArgv(host, script, opts), { timeoutMs: opts.timeoutSeconds * 1000, env: ctx.env, maxBytes, cwd: ctx.cwd });
  const failure = describeFailure(r, opts.timeoutSeconds, 'sh');
  if (failure) return { ok: false, ...failure };
  return { ok: true, code: r.code ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** One stderr line about a host. */
export function hostLine(host: string, problem: string): string {
  return `recapwrap: host ${sanitizeLine(host)}: ${problem}\n`;
}
