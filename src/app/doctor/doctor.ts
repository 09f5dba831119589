/**
 * `recapwrap doctor`: checks what recapwrap needs and explains each problem with a fix. Every check
 * returns a plain result; rendering and the exit code are decided from the list. The interactive
 * focus probe and network probes run only when asked (a TTY, or --endpoints).
 */
import { execFile } from 'node:child_process';
import { constants, accessSync, lstatSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { resolveConfig } from '../../config/load.js';
import { getHomeDir, getStateDir, type Env } from '../../config/paths.js';
import { findOnPath } from '../../pty/command-lookup.js';
import { listAdapters } from '../../transcripts/registry.js';
import { probePrivateInternals, type InternalsReport } from '../../util/private-internals/index.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { shellQuote } from '../../util/shell-quote.js';
import { displayWidth } from '../../util/text-width.js';
import { parseTmuxVersion, tmuxAtLeast } from '../../util/tmux-version.js';
import { checkOwnRecaps } from '../recaps/own-recaps.js';

import type { CheckResult, CheckStatus } from '../../types.js';

export interface DoctorDeps {
  env: Env;
  /** Run a command; resolves with stdout, or undefined when it fails or is missing. */
  run: (cmd: string, args: string[]) => Promise<string | undefined>;
}

const TMUX_MIN_FOCUS_VERSION = { major: 1, minor: 9 }; // focus-events appeared in tmux 1.9

export function createDoctorDeps(env: Env = process.env): DoctorDeps {
  return {
    env,
    run: (cmd, args) =>
      new Promise((resolve) => {
        execFile(cmd, args, { timeout: 3000, env: env as NodeJS.ProcessEnv }, (error, stdout) => resolve(error ? undefined : stdout.trim()));
      }),
  };
}

export async function checkTmux(deps: DoctorDeps): Promise<CheckResult[]> {
  const inside = Boolean(deps.env.TMUX);
  const version = await deps.run('tmux', ['-V']);
  if (!version) {
    return [{ name: 'tmux', status: inside ? 'fail' : 'skip', detail: inside ? '$TMUX is set but the tmux command was not found' : 'tmux not installed (optional: recaps use the overlay bar outside tmux)' }];
  }
  const results: CheckResult[] = [{ name: 'tmux', status: 'ok', detail: `${version}${inside ? ' (this terminal is inside tmux)' : ''}` }];
  const parsed = parseTmuxVersion(version);
  if (parsed && !tmuxAtLeast(parsed, TMUX_MIN_FOCUS_VERSION.major, TMUX_MIN_FOCUS_VERSION.minor)) {
    results.push({ name: 'tmux version', status: 'fail', detail: `${version} has no focus-events`, fix: 'upgrade tmux to 3.x' });
  }
  if (!inside) return results;
  const focus = await deps.run('tmux', ['show', '-gv', 'focus-events']);
  results.push(
    focus === 'on'
      ? { name: 'tmux focus-events', status: 'ok', detail: 'on: pane and window switches reach recapwrap' }
      : {
          name: 'tmux focus-events',
          status: 'warn',
          detail: `${focus ?? 'unknown'}: tmux does not tell panes when you switch to them, so recaps fall back to the idle timer`,
          fix: "tmux set -g focus-events on   (and add 'set -g focus-events on' to ~/.tmux.conf), or run recapwrap --tmux-focus",
        },
  );
  // Not a warning: recapwrap works the same without it (and tmux.conf.example does not set it); a note
  // for agents that want Shift-Enter.
  const extKeys = await deps.run('tmux', ['show', '-sv', 'extended-keys']);
  if (extKeys !== undefined && extKeys !== 'on' && extKeys !== 'always') {
    results.push({
      name: 'tmux extended-keys',
      status: 'skip',
      detail: `${extKeys} (not needed by recapwrap; agents cannot tell Shift-Enter from Enter without it: tmux set -s extended-keys on)`,
    });
  }
  // Desktop notifications (notify=osc, #21) leave a pane only through DCS passthrough.
  const passthrough = await deps.run('tmux', ['show', '-gv', 'allow-passthrough']);
  if (passthrough !== undefined && passthrough !== 'on' && passthrough !== 'all') {
    results.push({
      name: 'tmux allow-passthrough',
      status: 'skip',
      detail: `${passthrough}: desktop notifications (--notify osc) cannot leave tmux; the bell and @recap_attention work without it`,
      fix: 'tmux set -g allow-passthrough on   (and add it to ~/.tmux.conf)',
    });
  }
  return results;
}

// Which agent CLIs are installed, and where their sessions for this folder go; one line each, in the
// registry's order (each adapter names its command and its session folders).
export function checkAgents(env: Env, cwd: string = process.cwd()): CheckResult[] {
  const ctx = { cwd, env, home: getHomeDir(env) };
  const adapters = listAdapters();
  const results: CheckResult[] = adapters.map((adapter) => {
    const path = findOnPath(adapter.command, env, cwd);
    return path
      ? { name: `agent ${adapter.command}`, status: 'ok', detail: `${path}; sessions here: ${adapter.sessionDirs(ctx).join(', ')}` }
      : { name: `agent ${adapter.command}`, status: 'skip', detail: 'not on PATH' };
  });
  if (results.every((r) => r.status === 'skip')) {
    results.push({ name: 'agents', status: 'warn', detail: `none of ${adapters.map((a) => a.command).join(', ')} is on PATH`, fix: 'install an agent CLI, or try `recapwrap demo`' });
  }
  return results;
}

// The checks each adapter makes of its agent's own settings (Qwen Code's own away recap, …).
export function checkAgentSettings(env: Env, cwd: string = process.cwd()): CheckResult[] {
  const ctx = { cwd, env, home: getHomeDir(env) };
  // Each agent's own recap (#34): on or off, and what recapwrap does about it with the configured agentRecaps.
  const { options } = resolveConfig({ env, cwd });
  return [...listAdapters().flatMap((adapter) => adapter.doctorChecks?.(ctx) ?? []), ...checkOwnRecaps(options, ctx)];
}

export function checkGenerators(env: Env): CheckResult[] {
  const results: CheckResult[] = [{ name: 'generator heuristic', status: 'ok', detail: 'offline recaps always available' }];
  const openaiKey = env.RECAPWRAP_OPENAI_API_KEY || env.OPENAI_API_KEY;
  const openaiBase = env.RECAPWRAP_OPENAI_BASE_URL || env.OPENAI_BASE_URL;
  results.push(
    openaiKey || openaiBase
      ? { name: 'generator openai', status: 'ok', detail: `${openaiBase ?? 'https://api.openai.com/v1'}${openaiKey ? ', key set' : ', no key (fine for local servers)'}` }
      : { name: 'generator openai', status: 'skip', detail: 'no OPENAI_API_KEY / OPENAI_BASE_URL' },
  );
  const anthropicKey = env.RECAPWRAP_ANTHROPIC_API_KEY || env.ANTHROPIC_API_KEY;
  results.push(
    anthropicKey
      ? { name: 'generator anthropic', status: 'ok', detail: 'ANTHROPIC_API_KEY set' }
      : { name: 'generator anthropic', status: 'skip', detail: 'no ANTHROPIC_API_KEY' },
  );
  return results;
}

const REFUSAL_FIX: Record<string, string> = {
  owner: 'recapwrap reads no one else\'s config: delete the file, or ask its owner what it is for',
  permissions: 'chmod go-w on it, if its content is yours',
  folder: 'move the project out of a folder everyone may write to (/tmp)',
  'not a file': 'replace it with a JSON file',
  unreadable: 'fix the file (a JSON object of options)',
};

/**
 * The user's own config file: where it is and whether it was read. One that cannot be read (cut short,
 * not JSON, not the user's) or holds a bad value is a warning: its settings are silently the defaults.
 */
export function checkGlobalFile(env: Env, cwd: string = process.cwd()): CheckResult {
  const name = 'global config';
  const { files, problems } = resolveConfig({ env, cwd });
  const file = sanitizeLine(files.global);
  const own = problems.filter((p) => p.source === 'global file' && p.where === files.global);
  let present = true;
  try {
    lstatSync(files.global);
  } catch {
    // Not there (or not reachable): the defaults apply, and any problem reading it is said below.
    present = false;
  }
  if (!present && own.length === 0) return { name, status: 'skip', detail: `none at ${file} (the defaults apply; \`recapwrap config\` shows every option)` };
  if (own.length === 0) return { name, status: 'ok', detail: `${file}: read` };
  // A file that was not read at all says so first; a bad value leaves the rest of the file read.
  const unread = own.some((p) => p.message.startsWith('Cannot read') || p.message.startsWith('ignored ') || p.message.startsWith('Expected ' + files.global));
  const why = own.map((p) => p.message.replace(`Cannot read ${files.global}: `, '')).join('; ');
  return {
    name,
    status: 'warn',
    detail: unread ? `${file} cannot be read (its settings are ignored): ${why}` : `${file}: read, with problems: ${why}`,
    fix: 'fix the file (a JSON object of options); `recapwrap config` shows what is read and from where',
  };
}

/**
 * The project file (#40 item 1): which one was read, which keys were ignored and why (an untrusted key,
 * a file edited since it was trusted), or why the whole file was (its owner, its mode, its folder's).
 */
export function checkProjectFile(env: Env, cwd: string = process.cwd()): CheckResult {
  const name = 'project file';
  const { project } = resolveConfig({ env, cwd });
  if (!project) return { name, status: 'skip', detail: 'none (a .recapwrap.json in this folder or a parent sets display and timing for a project)' };
  const file = sanitizeLine(project.file);
  if (project.status === 'ignored') {
    const reason = project.refused?.reason ?? 'unreadable';
    return { name, status: 'warn', detail: `ignored: ${sanitizeLine(project.refused?.message ?? file)}`, fix: REFUSAL_FIX[reason] ?? REFUSAL_FIX.unreadable };
  }
  if (project.status === 'trusted') return { name, status: 'ok', detail: `${file}: trusted by you (sha256 ${project.sha256?.slice(0, 12) ?? '?'}…): every key read` };
  if (project.ignoredKeys.length === 0) return { name, status: 'ok', detail: `${file}: read (display and timing keys)` };
  const keys = project.ignoredKeys.map((k) => k.key).join(', ');
  const changed = project.ignoredKeys.some((k) => k.why === 'changed since trusted');
  const linked = project.ignoredKeys.some((k) => k.why === 'a link');
  return {
    name,
    status: 'warn',
    detail: `${file}: display and timing keys read; ignored ${keys} (${linked ? 'a link to a file elsewhere: a trust never carries through a link' : changed ? 'the file changed since you trusted it' : 'untrusted key: a project file sets display and timing only'})`,
    fix: sanitizeLine(`read the file; if ${project.ignoredKeys.length === 1 ? 'that key is' : 'those keys are'} yours to want: recapwrap config trust ${shellQuote(project.file)}`),
  };
}

// Probe an OpenAI-compatible endpoint's /models (only with --endpoints: no network unless asked).
export async function checkEndpoint(env: Env, timeoutMs = 3000): Promise<CheckResult | undefined> {
  const base = env.RECAPWRAP_OPENAI_BASE_URL || env.OPENAI_BASE_URL;
  if (!base) return undefined;
  const key = env.RECAPWRAP_OPENAI_API_KEY || env.OPENAI_API_KEY;
  try {
    const res = await fetch(`${base.replace(/\/+$/, '')}/models`, {
      headers: key ? { authorization: `Bearer ${key}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    return res.ok
      ? { name: 'openai endpoint', status: 'ok', detail: `${base} answered ${res.status}` }
      : { name: 'openai endpoint', status: 'warn', detail: `${base} answered HTTP ${res.status}`, fix: 'check the key and the base URL (it should end in /v1 for most servers)' };
  } catch (error) {
    return { name: 'openai endpoint', status: 'fail', detail: `${base} unreachable: ${(error as Error).message}`, fix: 'start the server or fix OPENAI_BASE_URL' };
  }
}

const STATE_NAME = 'state dir';
const OWN_FOLDER_FIX = 'or set RECAPWRAP_STATE_DIR to a folder of your own';

/**
 * The state folder as the wrapper will judge it (state-folders.ts: a real folder of yours, writable by
 * nobody else, or one it can create): a folder it refuses is a failure with the fix for what it is (#28
 * point 4); one others can only read is a warning (the wrapper uses it).
 */
export function checkStateDir(env: Env): CheckResult {
  const dir = getStateDir(env);
  const fail = (detail: string, fix: string): CheckResult => ({ name: STATE_NAME, status: 'fail', detail: `${detail}: recapwrap runs agents without recaps`, fix });
  if (!isAbsolute(dir)) return fail(`${dir} is not an absolute path`, 'set RECAPWRAP_STATE_DIR to an absolute path');
  let st;
  try {
    st = lstatSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return checkCreatable(dir, fail);
    if (code !== 'ENOENT') return fail(`cannot use ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, OWN_FOLDER_FIX.replace(/^or s/, 'S'));
    return checkCreatable(dir, fail);
  }
  const problem = describeFolderProblem(dir, st, fail);
  if (problem) return problem;
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    return fail(`${dir} is not writable by you`, `chmod 700 ${dir}`);
  }
  // The wrapper also makes (and checks) <state>/claims the same way.
  const claims = join(dir, 'claims');
  try {
    const claimProblem = describeFolderProblem(claims, lstatSync(claims), fail);
    if (claimProblem) return claimProblem;
  } catch {
    // Not there yet: made on first run inside a folder that is fine.
  }
  if ((st.mode & 0o077) !== 0) {
    return { name: STATE_NAME, status: 'warn', detail: `${dir} is readable by others (mode ${(st.mode & 0o777).toString(8)})`, fix: `chmod 700 ${dir}` };
  }
  return { name: STATE_NAME, status: 'ok', detail: `${dir} (mode ${(st.mode & 0o777).toString(8)})` };
}

// What the wrapper refuses in an existing path (safe-fs checkPrivateDir), with the fix for each case.
function describeFolderProblem(path: string, st: Stats, fail: (detail: string, fix: string) => CheckResult): CheckResult | undefined {
  if (st.isSymbolicLink()) return fail(`${path} is a symbolic link (recapwrap only uses a real folder there)`, `replace the link with a folder (rm ${path} && mkdir -m 700 ${path}), ${OWN_FOLDER_FIX}`);
  if (!st.isDirectory()) return fail(`${path} is a file, not a folder`, `move the file away (mv ${path} ${path}.bak), ${OWN_FOLDER_FIX}`);
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (uid !== undefined && st.uid !== uid) return fail(`${path} belongs to uid ${st.uid}, not to you (uid ${uid})`, OWN_FOLDER_FIX.replace(/^or s/, 'S'));
  if ((st.mode & 0o022) !== 0) return fail(`${path} is writable by other users (mode ${(st.mode & 0o777).toString(8)})`, `chmod 700 ${path}`);
  return undefined;
}

// A missing folder is fine when the wrapper can create it: its nearest existing parent must be a folder you can write in.
function checkCreatable(dir: string, fail: (detail: string, fix: string) => CheckResult): CheckResult {
  let parent = dirname(dir);
  for (;;) {
    let st;
    try {
      st = statSync(parent);
    } catch {
      const up = dirname(parent);
      if (up === parent) break;
      parent = up;
      continue;
    }
    if (!st.isDirectory()) return fail(`${parent} is a file, so ${dir} cannot be created`, `move the file away (mv ${parent} ${parent}.bak), ${OWN_FOLDER_FIX}`);
    try {
      accessSync(parent, constants.W_OK | constants.X_OK);
    } catch {
      return fail(`${dir} cannot be created: ${parent} is not writable by you`, OWN_FOLDER_FIX.replace(/^or s/, 'S'));
    }
    break;
  }
  return { name: STATE_NAME, status: 'ok', detail: `${dir} (created on first run, mode 0700)` };
}

// Which private parts of node-pty and @xterm/headless work with the installed versions (#20): each has
// a fallback, so a miss is a warning (recapwrap runs, with that part degraded), never a failure.
export async function checkPrivateInternals(probe: () => Promise<InternalsReport> = () => probePrivateInternals()): Promise<CheckResult> {
  const report = await probe();
  const entries = Object.entries(report) as Array<[keyof InternalsReport, InternalsReport[keyof InternalsReport]]>;
  const fallbacks = entries.filter(([, status]) => status !== 'ok');
  if (fallbacks.length === 0) {
    return { name: 'private internals', status: 'ok', detail: `${entries.map(([name]) => name).join(', ')}: ok with the installed node-pty and @xterm/headless` };
  }
  return {
    name: 'private internals',
    status: 'warn',
    detail: fallbacks.map(([name, status]) => `${name} ${status}`).join('; '),
    fix: 'reinstall recapwrap so node-pty and @xterm/headless are the exact versions its package.json pins',
  };
}

/** Usable unless a check failed; warnings still leave recapwrap usable. */
export function doctorExitCode(results: readonly CheckResult[]): number {
  return results.some((r) => r.status === 'fail') ? 1 : 0;
}

const MARK: Record<CheckStatus, string> = { ok: '✓', warn: '!', fail: '✗', skip: '-' };

/**
 * `prefix` then `text` word-wrapped to `cols` cells; lines after the first start with `indent` spaces.
 * A word longer than a line (a deep path) is left whole for the terminal to wrap: a fix must stay usable.
 */
export function wrapText(prefix: string, text: string, cols: number, indent: number): string[] {
  const lines: string[] = [];
  let line = prefix;
  let fresh = true;
  for (const word of text.split(/ +/)) {
    const sep = fresh ? '' : ' ';
    const fitsAlone = indent + displayWidth(word) <= cols;
    if (displayWidth(line + sep + word) > cols && (!fresh || fitsAlone)) {
      lines.push(fresh ? line.trimEnd() : line);
      line = ' '.repeat(indent) + word;
    } else line += sep + word;
    fresh = false;
  }
  lines.push(line);
  return lines;
}

/** The report for people, wrapped to `cols` cells (no wrapping when output is not a terminal: pass Infinity). */
export function renderDoctorReport(results: readonly CheckResult[], cols = Number.POSITIVE_INFINITY): string {
  const width = Math.max(...results.map((r) => r.name.length));
  // Narrow terminals: the name column's padding would leave no room, so wrapped lines indent less.
  const indent = cols >= width + 40 ? width + 4 : 4;
  const wrap = (prefix: string, text: string) => (Number.isFinite(cols) ? wrapText(prefix, text, cols, indent) : [prefix + text]);
  // A check's text can quote a folder, a host's answer, an agent's settings or a transcript: each one clean line.
  const lines = results.flatMap((r) => {
    const head = wrap(`${MARK[r.status]} ${sanitizeLine(r.name).padEnd(width)}  `, sanitizeLine(r.detail));
    return r.fix ? [...head, ...wrap(`${' '.repeat(indent)}fix: `, sanitizeLine(r.fix))] : head;
  });
  const failed = results.filter((r) => r.status === 'fail').length;
  const warned = results.filter((r) => r.status === 'warn').length;
  lines.push('', failed ? `${failed === 1 ? '1 problem keeps' : `${failed} problems keep`} recapwrap from working.` : warned ? `Usable, with ${warned} warning${warned === 1 ? '' : 's'}.` : 'All good.');
  return lines.join('\n');
}

const FOCUS_ON = '\x1b[?1004h'; // DECSET 1004: report focus in/out as CSI I / CSI O
const FOCUS_OFF = '\x1b[?1004l';
const FOCUS_REPORT = /\x1b\[[IO]/;

// Interactive: turn on focus reporting and wait for the user to switch away and back.
export function probeFocusReporting(timeoutMs: number, io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream } = process): Promise<CheckResult> {
  return new Promise((resolve) => {
    const { stdin, stdout } = io;
    stdout.write('Switch to another window or pane and back within ' + Math.round(timeoutMs / 1000) + ' s (or press any key to skip)…\n');
    const wasRaw = stdin.isRaw;
    stdin.setRawMode(true);
    stdout.write(FOCUS_ON);
    let buffer = '';
    const finish = (result: CheckResult) => {
      clearTimeout(timer);
      stdin.off('data', onData);
      stdout.write(FOCUS_OFF);
      stdin.setRawMode(wasRaw);
      stdin.pause();
      resolve(result);
    };
    const onData = (data: Buffer) => {
      buffer += data.toString('latin1');
      if (FOCUS_REPORT.test(buffer)) {
        finish({ name: 'terminal focus reporting', status: 'ok', detail: 'your terminal reports focus: recaps appear when you come back' });
      } else if (!buffer.startsWith('\x1b')) {
        finish({ name: 'terminal focus reporting', status: 'skip', detail: 'skipped by a key press' });
      }
    };
    const timer = setTimeout(
      () =>
        finish({
          name: 'terminal focus reporting',
          status: 'warn',
          detail: 'no focus report seen: recaps will use the idle timer instead of focus return',
          fix: 'inside tmux: tmux set -g focus-events on; otherwise use a terminal with focus reporting (iTerm2, Ghostty, kitty, WezTerm, GNOME Terminal, Windows Terminal)',
        }),
      timeoutMs,
    );
    stdin.on('data', onData);
    stdin.resume();
  });
}

// Where `recapwrap mcp` is registered, for each agent CLI on PATH (loaded on demand: doctor only).
async function checkMcp(env: Env): Promise<CheckResult[]> {
  const [{ checkMcpRegistration }, { mcpLaunch }] = await Promise.all([import('../mcp/register.js'), import('../mcp/launch.js')]);
  let launch;
  try {
    launch = mcpLaunch();
  } catch {
    // No package folder found above this module (an unusual install): report entries without comparing.
  }
  const results = checkMcpRegistration(env, launch);
  if (results.length === 0) results.push({ name: 'mcp', status: 'skip', detail: 'no agent CLI with MCP support on PATH (claude, codex, gemini, qwen): `recapwrap mcp install` registers it once one is' });
  return results;
}

export interface DoctorOptions {
  interactive: boolean;
  endpoints: boolean;
  json: boolean;
}

/** `recapwrap doctor`: every check in order (the focus probe only in a terminal, asked for). */
export async function runDoctor(options: DoctorOptions, env: NodeJS.ProcessEnv = process.env): Promise<{ results: CheckResult[]; code: number }> {
  const deps = createDoctorDeps(env);
  const results: CheckResult[] = [];
  const tty = Boolean(process.stdin.isTTY && process.stdout.isTTY);
  const tmux = await checkTmux(deps);
  // Inside tmux with focus-events off no focus report can reach us: waiting for one would only waste 15 s.
  const tmuxFocusOff = tmux.some((r) => r.name === 'tmux focus-events' && r.status !== 'ok');
  if (options.interactive && tty && !tmuxFocusOff) results.push(await probeFocusReporting(15_000));
  else {
    const why = tmuxFocusOff ? 'tmux focus-events is off, so no report can arrive (fix below)' : tty ? '--no-interactive' : 'not a terminal';
    results.push({ name: 'terminal focus reporting', status: 'skip', detail: `not probed (${why})` });
  }
  results.push(...tmux);
  results.push(...checkAgents(env));
  results.push(...checkAgentSettings(env));
  results.push(...checkGenerators(env));
  results.push((await import('./doctor-summaries.js')).checkSummaries(env));
  if (options.endpoints) {
    const endpoint = await checkEndpoint(env);
    if (endpoint) results.push(endpoint);
  }
  results.push(await checkPrivateInternals());
  results.push(checkStateDir(env));
  // Session memory: on or off, the index, its SQLite (loaded here only: better-sqlite3 is native).
  results.push(...(await import('./doctor-memory.js')).checkMemory(env, process.cwd()));
  results.push(...(await checkMcp(env)));
  // The config files: the user's own (read, or why not), then the project's (#40 item 1): read, trusted,
  // keys ignored and why, or ignored whole.
  results.push(checkGlobalFile(env));
  results.push(checkProjectFile(env));
  // Each host of the config file (#35): reachable, its recapwrap, its agents.
  results.push(...(await (await import('../hosts/doctor-hosts.js')).checkHosts(env)));
  return { results, code: doctorExitCode(results) };
}
