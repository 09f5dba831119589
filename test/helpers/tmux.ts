/**
 * A private tmux server for tests: its own `-L` socket and `-f /dev/null` (no user config), commands,
 * capture-pane, an attached client on a real pty (panes only count as focused with a client), and kill.
 * Under CI=true a missing tmux throws (CI installs it); elsewhere tests may skip with `tmuxAvailable()`.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import * as nodePty from 'node-pty';

let counter = 0;

// Whether tmux runs here; under CI a missing tmux is an error, not a reason to skip.
export function tmuxAvailable(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    if (process.env.CI === 'true') throw new Error('Expected tmux on PATH under CI=true (.ci/run installs it), got none', { cause: error });
    return false;
  }
}

/** Quote one word for the shell command tmux runs in a pane. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface TmuxClient {
  output(): string;
  write(data: string): void;
  kill(): void;
}

export class TmuxServer {
  readonly socket: string;
  private clients: nodePty.IPty[] = [];

  private constructor(socket: string) {
    this.socket = socket;
  }

  /** A new server name; the server itself starts with the first session. */
  static create(prefix = 'rw-test'): TmuxServer {
    return new TmuxServer(`${prefix}-${process.pid}-${counter++}`);
  }

  /** Environment for tmux commands: never the tmux we may be running inside. */
  private env(): NodeJS.ProcessEnv {
    const env = { ...process.env };
    delete env.TMUX;
    delete env.TMUX_PANE;
    return env;
  }

  /** Run a tmux command on this server; returns stdout. Throws with tmux's stderr on failure. */
  run(args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { env: this.env(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }

  /** Start a detached session running `command` (argv, quoted for the pane's shell); returns its pane id. */
  newSession(options: { name: string; cols?: number; rows?: number; command?: string[]; env?: Record<string, string> }): string {
    const envArgs = Object.entries(options.env ?? {}).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    const args = ['new-session', '-d', '-P', '-F', '#{pane_id}', '-s', options.name, '-x', String(options.cols ?? 100), '-y', String(options.rows ?? 30), ...envArgs];
    if (options.command) args.push(options.command.map(shellQuote).join(' '));
    return this.run(args).trim();
  }

  /** Split a window, running `command`; returns the new pane id. */
  splitWindow(target: string, command?: string[], env: Record<string, string> = {}): string {
    const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    const args = ['split-window', '-d', '-P', '-F', '#{pane_id}', '-t', target, ...envArgs];
    if (command) args.push(command.map(shellQuote).join(' '));
    return this.run(args).trim();
  }

  /** The visible text of a pane (trailing blank lines trimmed). */
  capturePane(target: string, options: { escapes?: boolean } = {}): string {
    return this.run(['capture-pane', '-p', ...(options.escapes ? ['-e'] : []), '-t', target]).replace(/\n+$/, '\n');
  }

  showGlobalOption(name: string): string {
    return this.run(['show', '-gv', name]).trim();
  }

  /** Attach a client on a real pty so the session has a focused, visible pane. */
  attach(session: string, size: { cols?: number; rows?: number } = {}): TmuxClient {
    const client = nodePty.spawn('tmux', ['-L', this.socket, '-f', '/dev/null', 'attach', '-t', session], {
      name: 'xterm-256color',
      cols: size.cols ?? 100,
      rows: size.rows ?? 30,
      env: this.env() as Record<string, string>,
    });
    this.clients.push(client);
    let out = '';
    client.onData((d) => (out += d));
    return { output: () => out, write: (d) => client.write(d), kill: () => client.kill() };
  }

  /** Kill the server and every client; safe to call twice. */
  kill(): void {
    for (const client of this.clients) {
      try {
        client.kill();
      } catch {}
    }
    this.clients = [];
    try {
      this.run(['kill-server']);
    } catch {
      // Already gone (or never started).
    }
    // tmux leaves its socket file behind when its server ends: every run of the suite left dozens.
    rmSync(join(process.env.TMUX_TMPDIR || '/tmp', `tmux-${process.getuid?.() ?? 0}`, this.socket), { force: true });
  }
}
