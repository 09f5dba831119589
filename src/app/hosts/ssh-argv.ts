/**
 * The command lines of the ssh transport, built from a host's config: the query (`ssh -o BatchMode=yes`,
 * one reused connection per host), rsync's pull of the agents' session folders, and the command that
 * resumes a session there (`ssh -t HOST 'cd DIR && recapwrap AGENT …'`). Pure: nothing runs here.
 */
import { shellQuote } from '../../util/shell-quote.js';
import type { HostSpec } from './config.js';

/** How long an idle shared connection stays up after the last command (seconds). */
export const CONTROL_PERSIST_SECONDS = 600;

export interface SshOptions {
  /** The private folder of the control sockets; undefined: no shared connection. */
  controlDir?: string;
  timeoutSeconds: number;
}

/** ssh's options for a non-interactive query: no prompt ever, one shared connection, a connect timeout. */
export function sshOptions(opts: SshOptions): string[] {
  const out = ['-o', 'BatchMode=yes', '-o', `ConnectTimeout=${Math.max(1, Math.ceil(opts.timeoutSeconds))}`, '-o', 'ServerAliveInterval=5', '-o', 'ServerAliveCountMax=2'];
  if (opts.controlDir) out.push('-o', 'ControlMaster=auto', '-o', `ControlPath=${opts.controlDir}/%C`, '-o', `ControlPersist=${CONTROL_PERSIST_SECONDS}`);
  return out;
}

/** The remote command line: the host's recapwrap command, then each word quoted for the remote shell. */
export function remoteRecapwrap(host: HostSpec, words: readonly string[]): string {
  return [host.recapwrap, ...words.map(shellQuote)].join(' ');
}

/**
 * A command for a host that ends when this side goes: sh runs it with its input on /dev/null, while a
 * watcher reads the session's input, which this side holds open and never writes. When that input ends
 * (the deadline passed and ssh was killed, this process exited, the connection dropped) the watcher
 * ends the whole process group of the session (sshd makes the session's first process a group leader),
 * so a remote command that never ends, ignores hangups or holds a shared connection's pipes stops with
 * the query. When the command ends first, the watcher is ended and the command's exit code kept.
 */
export function guardedCommand(command: string): string {
  const script = [
    'exec 3<&0 </dev/null',
    '{ while read -r _ <&3; do :; done; kill -s TERM 0; } >/dev/null 2>&1 &',
    'w=$!',
    `${command} 3<&-`,
    's=$?',
    'kill $w 2>/dev/null',
    'exit $s',
  ].join('\n');
  return `sh -c ${shellQuote(script)}`;
}

/** argv of `ssh … HOST 'recapwrap WORDS…'` (no terminal: -T), guarded: it ends when ssh does. */
export function queryArgv(host: HostSpec, words: readonly string[], opts: SshOptions): string[] {
  return ['ssh', ...sshOptions(opts), '-T', ...host.ssh, guardedCommand(remoteRecapwrap(host, words))];
}

/** argv of `ssh … HOST 'sh -c SCRIPT'` (a fixed script of ours, for doctor and the pull's home), guarded. */
export function scriptArgv(host: HostSpec, script: string, opts: SshOptions): string[] {
  return ['ssh', ...sshOptions(opts), '-T', ...host.ssh, guardedCommand(`sh -c ${shellQuote(script)}`)];
}

/** The agents' session folders under a home (relative), as rsync sources; absent ones are skipped. */
export const AGENT_SESSION_PATHS = ['.claude/projects', '.codex/sessions', '.codex/archived_sessions', '.gemini/tmp', '.gemini/projects.json', '.pi/agent/sessions', '.qwen/projects'];

/**
 * argv of the add-only pull: rsync over the same ssh (the host's arguments as rsync's `-e`), only session
 * files (.json, .jsonl, Gemini's .project_root), no links, no deletes, private modes, relative paths kept.
 */
export function rsyncArgv(host: HostSpec, remoteHome: string, into: string, opts: SshOptions, excludeFrom?: string): string[] {
  const ssh = host.ssh.slice(0, -1);
  const destination = host.ssh[host.ssh.length - 1] as string;
  const shell = ['ssh', ...sshOptions(opts), ...ssh].map(shellQuote).join(' ');
  const home = remoteHome.replace(/\/+$/, '');
  const sources = AGENT_SESSION_PATHS.map((p, i) => `${i === 0 ? `${destination}:` : ':'}${home}/./${p}`);
  return [
    'rsync', '--recursive', '--times', '--relative', '--no-links', '--no-devices', '--no-specials', '--prune-empty-dirs',
    '--chmod=D700,F600', '--max-size=512m', '--timeout=60',
    // Forgotten sessions first (the first rule that matches wins): never copied.
    ...(excludeFrom ? [`--exclude-from=${excludeFrom}`] : []),
    '--include=*/', '--include=*.json', '--include=*.jsonl', '--include=.project_root', '--exclude=*',
    '-e', shell, ...sources, into.replace(/\/?$/, '/'),
  ];
}

/**
 * The command line that resumes a session on a host, run in a terminal: `ssh -t HOST 'cd DIR && recapwrap …'`;
 * for a host known only by its pulled copy (no recapwrap there), the agent itself.
 */
export function resumeArgv(host: HostSpec, cwd: string, agentArgv: readonly string[], wrap = true): string[] {
  const remote = `cd ${shellQuote(cwd)} && ${wrap ? remoteRecapwrap(host, agentArgv) : agentArgv.map(shellQuote).join(' ')}`;
  return ['ssh', '-t', ...host.ssh, remote];
}

/** How to reach a waiting tmux pane on a host: attach there and select it. */
export function attachPaneArgv(host: HostSpec, pane: string): string[] {
  const p = shellQuote(pane);
  return ['ssh', '-t', ...host.ssh, `tmux attach-session -t ${p} \\; select-window -t ${p} \\; select-pane -t ${p}`];
}

/**
 * A command line for a tmux window that stays open when it fails: its text and the exit status stay
 * on the screen until Enter (a window that closes at once hides why: a folder gone, a host down).
 */
export function keptOpenOnFailure(line: string): string {
  const script = [
    line,
    's=$?',
    `[ "$s" -eq 0 ] || { printf '\\n[recapwrap: this ended with exit status %s; press Enter to close the window]\\n' "$s"; read -r _; }`,
    'exit $s',
  ].join('\n');
  return `sh -c ${shellQuote(script)}`;
}

/** argv as one line for a shell (what `show` prints and tmux's new-window runs). */
export function commandLine(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}
