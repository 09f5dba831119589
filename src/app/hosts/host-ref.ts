/**
 * `HOST:REF`: a session of another machine named the way lists print it (`gpu:infra-nginx-reverse-proxy`),
 * wherever a REF is taken (show, resume, read, name, note, forget, MCP). The rule: the part before the
 * first `:` is the name of a host of the config file, exactly, and something follows it; anything else
 * (a transcript path holding a `:`, a name of this machine) is a REF of this machine as it stands. A file
 * `./gpu:x.jsonl` is still reached as a path (it does not start with a host's name). The one place this
 * is decided: commands call `hostRefOf` (or `applyHostRef` to fold it into their `--host` flags).
 */
import type { Env } from '../../config/paths.js';
import type { HostSpec } from './config.js';
import { loadHosts, type HostFlags } from './hosts.js';

export interface HostRef {
  /** The host's name (as in the config file). */
  host: string;
  /** The REF to resolve there (`@@name` kept as such). */
  ref: string;
}

/** `HOST:REF` or `@@HOST:REF` with HOST one of `hosts`; undefined when REF is this machine's. Pure. */
export function splitHostRef(ref: string, hosts: readonly Pick<HostSpec, 'name'>[]): HostRef | undefined {
  const at = ref.startsWith('@@') ? '@@' : '';
  const rest = ref.slice(at.length);
  const colon = rest.indexOf(':');
  if (colon <= 0) return undefined;
  const name = rest.slice(0, colon);
  const inner = rest.slice(colon + 1);
  if (inner.trim() === '' || !hosts.some((h) => h.name === name)) return undefined;
  return { host: name, ref: at + inner };
}

/** HOST:REF against the hosts of this user's config (read only when REF holds a `:`). */
export function hostRefOf(ref: string, env: Env, cwd: string): HostRef | undefined {
  if (!ref.includes(':')) return undefined;
  return splitHostRef(ref, loadHosts(env, cwd).hosts);
}

/**
 * A command's REF and host flags with HOST:REF folded in: the REF there and `--host HOST`. A REF of this
 * machine leaves both as they are; `--host OTHER` beside `HOST:REF` is an error (exit 2).
 */
export function applyHostRef<F extends HostFlags>(ref: string, flags: F, env: Env, cwd: string): { ref: string; flags: F; host?: string } | { error: string } {
  const split = hostRefOf(ref, env, cwd);
  if (!split) return { ref, flags };
  const asked = flags.host ?? [];
  if (asked.length && !asked.includes(split.host)) return { error: `${JSON.stringify(ref)} names a session of host ${split.host}, but --host asks ${asked.join(', ')}: give one of them` };
  return { ref: split.ref, flags: { ...flags, host: [split.host], allHosts: false }, host: split.host };
}
