/**
 * The `hosts` of the config file: each an ssh destination as the user's `ssh` knows it (`"devbox"`, a
 * `Host` of ~/.ssh/config or `user@host`), or `{"name", "ssh": [args before the remote command],
 * "recapwrap"?: the command that runs recapwrap there, "timeout"?: seconds, "mirror"?: read its pulled
 * copy instead of asking it}. And which of them a command's `--host NAME` / `--all-hosts` picks. Pure.
 */

export interface HostSpec {
  /** How the user names it (`--host NAME`, the `host` of each item, the mirror folder). */
  name: string;
  /** ssh arguments that reach it, the destination last; they go before the remote command. */
  ssh: string[];
  /** The command that runs recapwrap there, as the remote shell reads it (default `recapwrap`). */
  recapwrap: string;
  /** Seconds to wait for its answer (undefined: the `hostTimeoutSeconds` option). */
  timeoutSeconds?: number;
  /** Never ask it: read what `index --host NAME --pull` copied. */
  mirror: boolean;
}

export interface HostsParse { hosts: HostSpec[]; problems: string[] }

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
const MAX_HOSTS = 64;
/** ssh's options that take the next word as their value (ssh(1)). */
const SSH_OPTION_WITH_VALUE = /^-[BbcDEeFIiJLlmOopQRSWw]$/;
const MAX_ARGS = 40;
const MAX_ARG_CHARS = 1000;

const show = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return `\`${text.length > 60 ? `${text.slice(0, 59)}…` : text}\``;
};

/** Parse the raw `hosts` value of a config file; bad entries are reported and left out. */
export function parseHosts(raw: unknown, where = 'the config file'): HostsParse {
  const problems: string[] = [];
  const hosts: HostSpec[] = [];
  if (raw === undefined || raw === null) return { hosts, problems };
  if (!Array.isArray(raw)) return { hosts, problems: [`Expected \`hosts\` in ${where} to be a list of ssh destinations or {"name", "ssh"} objects, got ${show(raw)}`] };
  for (const [i, entry] of raw.slice(0, MAX_HOSTS).entries()) {
    const at = `\`hosts[${i}]\` in ${where}`;
    if (typeof entry === 'string') {
      if (!NAME.test(entry)) {
        problems.push(`Expected ${at} to be an ssh destination (letters, digits, . _ @ -, not starting with -), got ${show(entry)}`);
        continue;
      }
      hosts.push({ name: entry, ssh: [entry], recapwrap: 'recapwrap', mirror: false });
      continue;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`Expected ${at} to be an ssh destination or {"name", "ssh"}, got ${show(entry)}`);
      continue;
    }
    const o = entry as Record<string, unknown>;
    if (typeof o.name !== 'string' || !NAME.test(o.name)) {
      problems.push(`Expected \`name\` of ${at} to be a name (letters, digits, . _ @ -, at most 64), got ${show(o.name)}`);
      continue;
    }
    const ssh = o.ssh === undefined ? [o.name] : o.ssh;
    if (!Array.isArray(ssh) || ssh.length === 0 || ssh.length > MAX_ARGS || !ssh.every((a) => typeof a === 'string' && a.length > 0 && a.length <= MAX_ARG_CHARS)) {
      problems.push(`Expected \`ssh\` of ${at} to be a list of ssh arguments ending with the destination, got ${show(o.ssh)}`);
      continue;
    }
    const destination = ssh[ssh.length - 1] as string;
    // The last word is the destination: not an option, nor the value of one (`-p 22`).
    if (destination.startsWith('-') || (ssh.length >= 2 && SSH_OPTION_WITH_VALUE.test(ssh[ssh.length - 2] as string))) {
      problems.push(`Expected \`ssh\` of ${at} to end with the destination (not an option), got ${show(destination)}`);
      continue;
    }
    if (o.recapwrap !== undefined && (typeof o.recapwrap !== 'string' || o.recapwrap.trim() === '' || o.recapwrap.length > MAX_ARG_CHARS)) {
      problems.push(`Expected \`recapwrap\` of ${at} to be the command that runs recapwrap there, got ${show(o.recapwrap)}`);
      continue;
    }
    if (o.timeout !== undefined && (typeof o.timeout !== 'number' || !(o.timeout > 0 && o.timeout <= 600))) {
      problems.push(`Expected \`timeout\` of ${at} to be a number of seconds from 0 to 600, got ${show(o.timeout)}`);
      continue;
    }
    if (o.mirror !== undefined && typeof o.mirror !== 'boolean') {
      problems.push(`Expected \`mirror\` of ${at} to be true or false, got ${show(o.mirror)}`);
      continue;
    }
    const host: HostSpec = { name: o.name, ssh: ssh as string[], recapwrap: (o.recapwrap as string | undefined) ?? 'recapwrap', mirror: o.mirror === true };
    if (typeof o.timeout === 'number') host.timeoutSeconds = o.timeout;
    hosts.push(host);
  }
  if (raw.length > MAX_HOSTS) problems.push(`\`hosts\` in ${where}: only the first ${MAX_HOSTS} are used`);
  const seen = new Set<string>();
  const unique = hosts.filter((h) => {
    if (seen.has(h.name)) {
      problems.push(`\`hosts\` in ${where}: ${h.name} is named twice (the first one is used)`);
      return false;
    }
    seen.add(h.name);
    return true;
  });
  return { hosts: unique, problems };
}

export interface HostChoice {
  /** This machine takes part (no --host, or --all-hosts). */
  local: boolean;
  hosts: HostSpec[];
}

/** Which machines a command asks: `--host NAME` (repeatable) = those hosts only; `--all-hosts` = this one and every host. */
export function chooseHosts(hosts: readonly HostSpec[], wanted: { host?: readonly string[]; allHosts?: boolean }): HostChoice | { error: string } {
  const names = wanted.host ?? [];
  if (wanted.allHosts && names.length) return { error: 'use --host NAME or --all-hosts, not both' };
  if (wanted.allHosts) {
    if (hosts.length === 0) return { error: 'no hosts are configured: add "hosts": ["devbox", …] to the config file (see `recapwrap help` and the README, "Many machines")' };
    return { local: true, hosts: [...hosts] };
  }
  if (names.length === 0) return { local: true, hosts: [] };
  const chosen: HostSpec[] = [];
  for (const name of names) {
    const host = hosts.find((h) => h.name === name);
    if (!host) {
      const known = hosts.length ? hosts.map((h) => h.name).join(', ') : 'none configured';
      return { error: `Expected \`--host\` to be a host of the config file (${known}), got \`${name}\`` };
    }
    if (!chosen.includes(host)) chosen.push(host);
  }
  return { local: false, hosts: chosen };
}
