/** `recapwrap doctor`'s check of each host of the config file: reachable over ssh without a prompt, its recapwrap version, the agents found there. */
import type { Env } from '../../config/paths.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { formatCommandForTerminal } from '../../util/shell-quote.js';
import type { CheckResult } from '../../types.js';
import type { HostSpec } from './config.js';
import { loadHosts } from './hosts.js';
import { controlDir, runScript, type HostContext } from './transport.js';

const AGENT_COMMANDS = ['claude', 'codex', 'gemini', 'pi', 'qwen'];

/** The probe run there: recapwrap's version, then each agent command and rsync found on its PATH. */
export function probeScript(host: HostSpec): string {
  return [
    `printf 'version=%s\\n' "$(${host.recapwrap} --version 2>/dev/null | head -n 1)"`,
    `for a in ${AGENT_COMMANDS.join(' ')} rsync; do command -v "$a" >/dev/null 2>&1 && printf 'found=%s\\n' "$a"; done`,
    'exit 0',
  ].join('; ');
}

/** What the probe printed, checked: a version of at most 40 printable characters, known names only. */
export function parseProbe(stdout: string): { version?: string; agents: string[]; rsync: boolean } {
  const lines = stdout.slice(0, 4096).split('\n');
  const version = sanitizeLine(lines.find((l) => l.startsWith('version='))?.slice(8) ?? '').slice(0, 40);
  const found = lines.filter((l) => l.startsWith('found=')).map((l) => l.slice(6).trim());
  return { ...(version ? { version } : {}), agents: AGENT_COMMANDS.filter((a) => found.includes(a)), rsync: found.includes('rsync') };
}

export async function checkHosts(env: Env, cwd = process.cwd()): Promise<CheckResult[]> {
  const { options, hosts, warnings, dir } = loadHosts(env, cwd);
  const results: CheckResult[] = warnings.map((w) => ({ name: 'hosts', status: 'fail' as const, detail: w }));
  if (hosts.length === 0) return results;
  const ctx: HostContext = { env, timeoutSeconds: options.hostTimeoutSeconds, controlDir: controlDir(env), ...(dir ? { cwd: dir } : {}) };
  const checks = await Promise.all(
    hosts.map(async (host): Promise<CheckResult> => {
      const name = `host ${host.name}`;
      const r = await runScript(host, probeScript(host), ctx);
      if (!r.ok) return { name, status: 'warn', detail: r.problem, fix: `make \`${formatCommandForTerminal(['ssh', ...host.ssh, 'true'])}\` work without a prompt (a key in ssh-agent, BatchMode); --host ${host.name} is skipped until then` };
      const p = parseProbe(r.stdout);
      const agents = p.agents.length ? `agents: ${p.agents.join(', ')}` : 'no agent CLI on its PATH';
      if (!p.version) {
        return {
          name,
          status: host.mirror && p.rsync ? 'ok' : 'warn',
          detail: `reachable; no recapwrap there; ${agents}${p.rsync ? '' : '; no rsync there'}`,
          ...(host.mirror && p.rsync ? {} : { fix: `install recapwrap there (query mode), or copy its sessions with \`${formatCommandForTerminal(['recapwrap', 'index', '--host', host.name, '--pull'])}\` (needs rsync there)` }),
        };
      }
      return { name, status: 'ok', detail: `reachable; recapwrap ${p.version}; ${agents}` };
    }),
  );
  return [...results, ...checks];
}
