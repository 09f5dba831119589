/**
 * `recapwrap mcp install` / `uninstall`: register the MCP server with each agent CLI on PATH through
 * the agent's own `mcp add` / `mcp remove`, printing each command run and the resulting change of the
 * agent's config file, its secrets masked (mask-config.ts). Idempotent (an identical entry is left alone);
 * only the entry named `recapwrap` is ever changed. Also the doctor's view: where it is registered.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Env } from '../../config/paths.js';
import type { CheckResult } from '../../types.js';
import type { AgentId } from '../../transcripts/types.js';
import { findOnPath } from '../../pty/command-lookup.js';
import { shellQuote } from '../../util/shell-quote.js';
import { AGENT_INSTALLS } from '../agents/agent-install.js';
import { MCP_AGENTS, isSupported, sameLaunch, type EntryRead, type Launch, type McpAgentConfig } from './agent-configs.js';
import { maskConfigText } from './mask-config.js';
import { maskSecrets } from '../../memory/secrets.js';

export interface RegisterDeps {
  env: Env;
  /** Run a command; never rejects. */
  run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  findOnPath(command: string, env: Env): string | undefined;
}

export interface RegisterOptions {
  agent?: AgentId;
  dryRun?: boolean;
  launch: Launch;
}

export interface RegisterReport {
  lines: string[];
  code: number;
}

const RUN_TIMEOUT_MS = 60_000;
const DIFF_MAX_LINES = 24;

/** An agent's command on PATH, the way a shell in this folder finds it; undefined when it is not there. */
const findAgentOnPath = (command: string, env: Env): string | undefined => findOnPath(command, env, process.cwd());

export function createRegisterDeps(env: Env = process.env): RegisterDeps {
  return {
    env,
    findOnPath: findAgentOnPath,
    run: (command, args) =>
      new Promise((resolve) => {
        execFile(command, args, { env: env as NodeJS.ProcessEnv, timeout: RUN_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
          const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : 1) : 0;
          resolve({ code, stdout: String(stdout), stderr: String(stderr) || (error && code !== 0 && !stderr ? error.message : '') });
        });
      }),
  };
}

export function formatCommand(command: string, args: readonly string[]): string {
  return [command, ...args].map(shellQuote).join(' ');
}

function tilde(path: string, env: Env): string {
  const home = env.HOME;
  return home && path.startsWith(home + '/') ? `~${path.slice(home.length)}` : path;
}

function describeLaunch(launch: Launch): string {
  return formatCommand(launch.command, launch.args);
}

function readFileOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

// The change of a config file as printed: the diff of the two texts with their secrets masked.
function configDiff(before: string, after: string): string[] {
  return diffLines(maskConfigText(before), maskConfigText(after));
}

/** The changed lines between two texts as one hunk (common head and tail left out), `-`/`+` prefixed; a new file is all `+`. */
export function diffLines(before: string, after: string, max = DIFF_MAX_LINES): string[] {
  if (before === after) return [];
  const a = before === '' ? [] : before.split('\n');
  const b = after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const lines = [...a.slice(head, a.length - tail).map((l) => `- ${l}`), ...b.slice(head, b.length - tail).map((l) => `+ ${l}`)];
  return lines.length > max ? [...lines.slice(0, max), `  … ${lines.length - max} more changed line${lines.length - max === 1 ? '' : 's'}`] : lines;
}

type Target = { config: McpAgentConfig; path: string };
type Selected = { target: Target } | { line: string; failed?: boolean; missing?: McpAgentConfig };

// Each agent in order: the one to act on (the one asked for, else every supported agent on PATH), or the line
// that says why not. An agent asked for by name that cannot be done (no MCP support, not on PATH) fails the
// run (exit 1); the same agent met while going through them all is only said.
function selectTargets(options: Pick<RegisterOptions, 'agent'>, deps: RegisterDeps): Selected[] {
  const selected: Selected[] = [];
  for (const config of MCP_AGENTS) {
    if (options.agent && config.agent !== options.agent) continue;
    const path = deps.findOnPath(config.command, deps.env);
    if (!isSupported(config)) {
      if (options.agent) selected.push({ line: `${config.agent}: ${config.unsupported}.`, failed: true });
      else if (path) selected.push({ line: `${config.agent}: ${config.unsupported}.` });
    } else if (!path) {
      selected.push(options.agent ? { line: `${config.agent}: Expected the \`${config.command}\` command on PATH, got none: nothing to do.`, failed: true, missing: config } : { line: `${config.agent}: not on PATH, skipped.`, missing: config });
    } else selected.push({ target: { config, path } });
  }
  return selected;
}

async function runStep(deps: RegisterDeps, target: Target, args: string[], lines: string[]): Promise<boolean> {
  lines.push(`  $ ${formatCommand(target.config.command, args)}`);
  const result = await deps.run(target.path, args);
  if (result.code === 0) return true;
  const why = maskSecrets((result.stderr || result.stdout).trim().split('\n').filter(Boolean).pop() ?? `exit code ${result.code}`);
  lines.push(`  failed (exit ${result.code}): ${why}`);
  return false;
}

function reportEntry(entry: EntryRead): string {
  return entry.kind === 'present' ? describeLaunch(entry.launch) : entry.kind === 'absent' ? '(none)' : `(unreadable: ${entry.error})`;
}

/** Register the server with each agent (or the one asked for). */
export async function installMcp(options: RegisterOptions, deps: RegisterDeps): Promise<RegisterReport> {
  const lines: string[] = [];
  let failed = false;
  let acted = 0;
  const want = options.launch;
  for (const item of selectTargets(options, deps)) {
    if ('line' in item) {
      // A dry run previews an agent whose CLI is missing too: what would run once it is installed.
      if (options.dryRun && item.missing) {
        const config = item.missing;
        const install = AGENT_INSTALLS[config.agent as keyof typeof AGENT_INSTALLS];
        lines.push(`${config.agent}: \`${config.command}\` is not on PATH${install ? ` (${install.name}: npm install -g ${install.pkg})` : ''}; once it is, this would run (${tilde(config.configFile(deps.env), deps.env)}):`);
        lines.push(`  $ ${formatCommand(config.command, config.addArgs(want))}`);
      } else lines.push(item.line);
      failed ||= item.failed === true;
      continue;
    }
    acted++;
    const target = item.target;
    const { config } = target;
    const file = config.configFile(deps.env);
    const before = config.readEntry(deps.env);
    if (before.kind === 'unreadable') {
      lines.push(`${config.agent}: left alone: ${before.error}`);
      failed = true;
      continue;
    }
    if (before.kind === 'present' && sameLaunch(before.launch, want)) {
      lines.push(`${config.agent}: already registered in ${tilde(file, deps.env)} (nothing to do).`);
      continue;
    }
    const steps = before.kind === 'present' ? [config.removeArgs(), config.addArgs(want)] : [config.addArgs(want)];
    if (options.dryRun) {
      lines.push(`${config.agent}: would run (${tilde(file, deps.env)}, ${config.entryLabel}: ${reportEntry(before)} → ${describeLaunch(want)}):`);
      for (const args of steps) lines.push(`  $ ${formatCommand(config.command, args)}`);
      continue;
    }
    lines.push(`${config.agent}:`);
    const text = readFileOrEmpty(file);
    let ok = true;
    for (const args of steps) if (ok) ok = await runStep(deps, target, args, lines);
    const after = config.readEntry(deps.env);
    if (ok && !(after.kind === 'present' && sameLaunch(after.launch, want))) {
      lines.push(`  ${config.command} reported success, but ${tilde(file, deps.env)} does not hold the entry: ${reportEntry(after)}`);
      ok = false;
    }
    const diff = configDiff(text, readFileOrEmpty(file));
    if (diff.length) lines.push(`  ${tilde(file, deps.env)}${text === '' ? ' (new file)' : ''}:`, ...diff.map((l) => `    ${l}`));
    lines.push(ok ? `  registered: ${config.agent} starts \`${describeLaunch(want)}\`.` : `  not registered.`);
    if (!ok) failed = true;
  }
  if (acted === 0 && !options.agent) {
    lines.push(`No agent CLI with MCP support (claude, codex, gemini, qwen) is on PATH: nothing ${options.dryRun ? 'would be' : ''} registered.`.replace('  ', ' '));
    failed = true;
  }
  return { lines, code: failed ? 1 : 0 };
}

/** Remove the server's entry (and only it) from each agent (or the one asked for). */
export async function uninstallMcp(options: Omit<RegisterOptions, 'launch'>, deps: RegisterDeps): Promise<RegisterReport> {
  const lines: string[] = [];
  let failed = false;
  for (const item of selectTargets(options, deps)) {
    if ('line' in item) {
      lines.push(item.line);
      failed ||= item.failed === true;
      continue;
    }
    const target = item.target;
    const { config } = target;
    const file = config.configFile(deps.env);
    const before = config.readEntry(deps.env);
    if (before.kind === 'absent') {
      lines.push(`${config.agent}: not registered in ${tilde(file, deps.env)} (nothing to do).`);
      continue;
    }
    if (before.kind === 'unreadable') {
      lines.push(`${config.agent}: left alone: ${before.error}`);
      failed = true;
      continue;
    }
    if (options.dryRun) {
      lines.push(`${config.agent}: would run (${tilde(file, deps.env)}, removes ${config.entryLabel}: ${describeLaunch(before.launch)}):`);
      lines.push(`  $ ${formatCommand(config.command, config.removeArgs())}`);
      continue;
    }
    lines.push(`${config.agent}:`);
    const text = readFileOrEmpty(file);
    let ok = await runStep(deps, target, config.removeArgs(), lines);
    const after = config.readEntry(deps.env);
    if (ok && after.kind !== 'absent') {
      lines.push(`  ${config.command} reported success, but ${tilde(file, deps.env)} still holds: ${reportEntry(after)}`);
      ok = false;
    }
    const diff = configDiff(text, readFileOrEmpty(file));
    if (diff.length) lines.push(`  ${tilde(file, deps.env)}:`, ...diff.map((l) => `    ${l}`));
    lines.push(ok ? '  removed.' : '  not removed.');
    if (!ok) failed = true;
  }
  return { lines, code: failed ? 1 : 0 };
}

/** The doctor's lines: for each agent CLI on PATH, whether this recapwrap's server is registered with it. */
export function checkMcpRegistration(env: Env, launch: Launch | undefined, find: RegisterDeps['findOnPath'] = findAgentOnPath): CheckResult[] {
  const results: CheckResult[] = [];
  for (const config of MCP_AGENTS) {
    if (!find(config.command, env)) continue;
    const name = `mcp ${config.agent}`;
    if (!isSupported(config)) {
      results.push({ name, status: 'skip', detail: config.unsupported });
      continue;
    }
    const file = tilde(config.configFile(env), env);
    const entry = config.readEntry(env);
    if (entry.kind === 'absent') results.push({ name, status: 'skip', detail: `not registered (${file}); \`recapwrap mcp install\` lets ${config.agent} search your past sessions` });
    else if (entry.kind === 'unreadable') results.push({ name, status: 'warn', detail: entry.error, fix: `fix ${file} by hand; recapwrap does not rewrite a file it cannot read` });
    else if (!launch || sameLaunch(entry.launch, launch)) results.push({ name, status: 'ok', detail: `registered in ${file}: ${describeLaunch(entry.launch)}` });
    else {
      results.push({
        name,
        status: 'warn',
        detail: `registered in ${file} with another command: ${describeLaunch(entry.launch)} (this recapwrap: ${describeLaunch(launch)})`,
        fix: `recapwrap mcp install --agent ${config.agent}`,
      });
    }
  }
  return results;
}
