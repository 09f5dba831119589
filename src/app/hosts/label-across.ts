/**
 * `recapwrap name HOST:REF NAME` and `note HOST:REF TEXT|--clear`: your own name or note of a host's
 * session, written where the session is indexed, by the host's own recapwrap over ssh (its answer checked
 * like every answer). A host read from its copy only (`mirror`) has no recapwrap to write it: said, exit 2.
 */
import { sanitizeLine, stringifyJsonSafely } from '../../util/sanitize.js';
import type { HostSpec } from './config.js';
import { setUpHosts, warningLines } from './hosts.js';
import { parseRemoteFailure, parseRemoteObject, remoteRowSchema } from './remote-schema.js';
import { askHost, hostLine } from './transport.js';

interface Result { out: string; err: string; code: number }

export async function labelOnHost(
  verb: 'name' | 'note', host: string, args: readonly string[], flags: { clear?: boolean; json?: boolean },
  input: { env: NodeJS.ProcessEnv | Record<string, string | undefined>; cwd: string },
): Promise<Result> {
  const setup = setUpHosts(input.env, input.cwd, { host: [host] });
  if ('error' in setup) return { out: '', err: `recapwrap: ${setup.error}\n`, code: 2 };
  const warn = warningLines(setup.warnings);
  const spec = setup.choice.hosts[0] as HostSpec;
  if (spec.mirror) return { out: '', err: warn + hostLine(host, `it is read from its copy (mirror: true), which has no recapwrap to keep your ${verb}; give it there`), code: 2 };
  const [ref = '', value = ''] = args;
  const words = verb === 'name' ? ['name', '--json', '--', ref, value] : ['note', '--json', ...(flags.clear ? ['--clear'] : []), '--', ref, ...(flags.clear ? [] : [value])];
  const answer = await askHost(spec, words, setup.ctx);
  if (!answer.ok) return { out: '', err: warn + hostLine(host, `${answer.problem}; nothing written`), code: 1 };
  const failure = parseRemoteFailure(answer.stdout);
  if (failure) return { out: '', err: warn + hostLine(host, failure.error) + failure.candidates.map((c) => `  ${c}\n`).join(''), code: failure.code };
  const row = parseRemoteObject(answer.stdout, remoteRowSchema);
  if (!row.ok || answer.code !== 0) return { out: '', err: warn + hostLine(host, row.ok ? `recapwrap ${verb} there failed (exit ${answer.code})` : row.error), code: 1 };
  const r = row.item;
  if (flags.json) return { out: stringifyJsonSafely({ ...r, host }, 2) + '\n', err: warn, code: 0 };
  const what = `${sanitizeLine(r.name)} (${r.agent} ${sanitizeLine(r.id)}) on host ${host}`;
  const out = verb === 'name' ? `named ${r.agent} session ${sanitizeLine(r.id)} on host ${host}: ${sanitizeLine(r.name)}\n` : flags.clear ? `removed your note of ${what}\n` : `noted ${what}: ${sanitizeLine(r.headline)}\n`;
  return { out, err: warn, code: 0 };
}
