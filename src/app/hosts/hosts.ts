/**
 * The hosts of this user's config and the context to reach them: parsed from the config file, the
 * per-host timeout, the shared connections' folder. Where every command's host part starts.
 */
import { dirname } from 'node:path';
import { resolveConfig } from '../../config/load.js';
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import { chooseHosts, parseHosts, type HostChoice, type HostSpec } from './config.js';
import { controlDir, type HostContext } from './transport.js';

export interface HostsSetup {
  options: Options;
  all: HostSpec[];
  choice: HostChoice;
  ctx: HostContext;
  /** Config problems with `hosts`, to print as warnings. */
  warnings: string[];
}

export interface HostFlags {
  host?: string[];
  allHosts?: boolean;
}

export function loadHosts(env: Env, cwd: string): { options: Options; hosts: HostSpec[]; warnings: string[]; dir?: string } {
  const config = resolveConfig({ env, cwd });
  const parsed = parseHosts(config.hosts?.value, config.hosts?.file);
  return { options: config.options, hosts: parsed.hosts, warnings: parsed.problems, ...(config.hosts ? { dir: dirname(config.hosts.file) } : {}) };
}

export function setUpHosts(env: Env, cwd: string, flags: HostFlags): HostsSetup | { error: string } {
  const { options, hosts, warnings, dir } = loadHosts(env, cwd);
  const choice = chooseHosts(hosts, flags);
  if ('error' in choice) return { error: choice.error };
  const ctx: HostContext = { env, timeoutSeconds: options.hostTimeoutSeconds, controlDir: choice.hosts.length ? controlDir(env) : undefined, ...(dir ? { cwd: dir } : {}) };
  return { options, all: hosts, choice, ctx, warnings };
}

export const warningLines = (warnings: readonly string[]) => warnings.map((w) => `recapwrap: warning: ${w}\n`).join('');

