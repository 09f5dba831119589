/** `next --host NAME | --all-hosts`: the waiting session of every chosen machine; code undefined = this machine's, run `next` as usual. */
import type { Env } from '../../config/paths.js';
import { NOTHING_WAITS_MESSAGE } from '../live/next.js';
import { liveAcrossHosts, localLive, pickAcross } from './live-across.js';
import type { HostFlags } from './hosts.js';

export async function nextAcross(flags: HostFlags, env: Env, exceptPane: string | undefined, now = Date.now()): Promise<{ out: string; err: string; code?: number }> {
  const across = await liveAcrossHosts(flags, env, process.cwd());
  if ('error' in across) return { out: '', err: `recapwrap: ${across.error}\n`, code: 2 };
  const picked = pickAcross(across.local ? localLive(env) : [], across.remote, across.hosts, exceptPane, now);
  if (picked.kind === 'local') return { out: '', err: across.err };
  if (picked.kind === 'none') return { out: '', err: across.err + `${NOTHING_WAITS_MESSAGE} on the machines asked\n`, code: 1 };
  return { out: picked.out, err: across.err, code: 0 };
}
