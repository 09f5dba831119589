/**
 * `recapwrap forget --host NAME REF` (or `forget NAME:REF`): forget a session of a host there, by running
 * the host's own `recapwrap forget --yes --json -- REF` over ssh (an exact REF, as here), and in the copy a
 * pull made of it (its rows forgotten, its copied transcript deleted, never copied again). A host read
 * from its copy only (`mirror`), or down, is forgotten in the copy, and the answer says the host keeps it.
 */
import { sanitizeLine, stringifyJsonSafely } from '../../util/sanitize.js';
import { formatCommandForTerminal } from '../../util/shell-quote.js';
import type { HostSpec } from './config.js';
import { setUpHosts, warningLines } from './hosts.js';
import { forgetInCopy, mirrorDir, openMirror, readMirrorMeta } from './mirror.js';
import type { HostsSetup } from './hosts.js';
import { askHost, hostLine } from './transport.js';

interface Result { out: string; err: string; code: number }

export interface ForgetAcrossInput {
  env: NodeJS.ProcessEnv | Record<string, string | undefined>;
  cwd: string;
  json?: boolean;
  yes?: boolean;
  folder?: string;
  /** Asks a yes/no question on the terminal; absent when there is none (then no question, as forget does). */
  confirm?: (question: string) => Promise<boolean>;
}

const fail = (message: string, code = 2): Result => ({ out: '', err: `recapwrap: ${message}\n`, code });

// What the host's recapwrap answered: {forgotten, ids} or {error, code, candidates}; checked, sanitized.
function readAnswer(stdout: string): { forgotten: number; ids: string[] } | { error: string; candidates: string[] } | undefined {
  try {
    const v = JSON.parse(stdout) as Record<string, unknown>;
    if (typeof v !== 'object' || v === null) return undefined;
    if (typeof v.error === 'string') return { error: sanitizeLine(v.error).slice(0, 300), candidates: Array.isArray(v.candidates) ? v.candidates.filter((c): c is string => typeof c === 'string').slice(0, 20).map((c) => sanitizeLine(c).slice(0, 200)) : [] };
    if (typeof v.forgotten === 'number') return { forgotten: v.forgotten, ids: Array.isArray(v.ids) ? v.ids.filter((c): c is string => typeof c === 'string').slice(0, 100) : [] };
  } catch {
    // not JSON: said below
  }
  return undefined;
}

/** Forget REF in a host's copy (exact REF, or the ids the host forgot): how many rows went. */
async function forgetCopy(host: HostSpec, setup: HostsSetup, ref: string, ids: readonly string[]): Promise<{ count: number; name?: string } | undefined> {
  if (!readMirrorMeta(setup.ctx.env, host.name)) return undefined;
  const memory = await openMirror(host.name, setup.ctx.env, setup.options);
  if ('error' in memory) return undefined;
  try {
    const found = ids.length ? ids.map((id) => memory.store.get(id)).filter((s) => s !== undefined) : [];
    if (found.length === 0) {
      const r = memory.resolve(ref, { exact: true });
      if (r.ok) found.push(memory.store.get(r.row.id) as NonNullable<(typeof found)[number]>);
    }
    const copyHome = `${mirrorDir(setup.ctx.env, host.name)}/home`;
    const gone = found.map((s) => ({ rel: s.transcript.startsWith(copyHome + '/') ? s.transcript.slice(copyHome.length + 1) : '', agent: s.agent, id: s.id })).filter((g) => g.rel !== '');
    const count = forgetInCopy(memory, copyHome, gone);
    return { count, ...(found[0] ? { name: found[0].name } : {}) };
  } finally {
    memory.close();
  }
}

export async function forgetAcrossHosts(ref: string | undefined, flags: { host?: string[]; allHosts?: boolean }, input: ForgetAcrossInput): Promise<Result> {
  if (flags.allHosts || (flags.host?.length ?? 0) !== 1) return fail('forget takes one --host NAME (a session is forgotten on one machine at a time)');
  if (input.folder !== undefined || ref === undefined) return fail('forget --host NAME takes a session (its id, a unique id prefix or its exact name), not --folder');
  const setup = setUpHosts(input.env, input.cwd, flags);
  if ('error' in setup) return fail(setup.error);
  const warn = warningLines(setup.warnings);
  const host = setup.choice.hosts[0] as HostSpec;
  const shown = JSON.stringify(sanitizeLine(ref));
  if (input.confirm && !input.yes) {
    const ok = await input.confirm(`recapwrap: this forgets the session ${shown} of host ${host.name} for good, there and in its copy here (it cannot be undone). Forget it? [y/N] `);
    if (!ok) return { ...fail('nothing forgotten', 1), err: warn + 'recapwrap: nothing forgotten\n' };
  }
  let there: { forgotten: number; ids: string[] } | undefined;
  let problem: string | undefined;
  if (!host.mirror) {
    const answer = await askHost(host, ['forget', '--yes', '--json', '--', ref], setup.ctx);
    if (!answer.ok) problem = answer.problem;
    else {
      const read = readAnswer(answer.stdout);
      if (!read) problem = `recapwrap forget there failed (exit ${answer.code}): ${sanitizeLine(answer.stderr.split('\n').find((l) => l.trim()) ?? "not recapwrap's JSON").slice(0, 160)}`;
      else if ('error' in read) {
        // The host's own refusal (no such session, an inexact REF): as forget says it here, exit as there.
        const list = read.candidates.length ? ` Candidates:\n${read.candidates.map((c) => `  ${c}`).join('\n')}` : '';
        return { out: '', err: warn + hostLine(host.name, `${read.error}${list}`), code: answer.code === 2 ? 2 : 1 };
      } else there = read;
    }
  }
  const copy = await forgetCopy(host, setup, ref, there?.ids ?? []);
  const copied = copy?.count ?? 0;
  const json = (extra: Record<string, unknown>) => stringifyJsonSafely({ host: host.name, forgottenThere: there?.forgotten ?? 0, ids: there?.ids ?? [], forgottenInCopy: copied, ...extra }, 2) + '\n';
  if (there) {
    const text = `forgot ${shown} on host ${host.name}${copied ? ' and in its copy here' : ''}; it is not indexed again (nor copied by a pull)\n`;
    return { out: input.json ? json({}) : text, err: warn, code: 0 };
  }
  const why = host.mirror ? `${host.name} is read from its copy (mirror: true)` : `${problem ?? 'it did not answer'}`;
  if (copied) {
    const rerun = host.mirror ? '' : `; run \`${formatCommandForTerminal(['recapwrap', 'forget', '--host', host.name, ref])}\` again when it answers`;
    return { out: input.json ? json({ hostKeepsIt: true }) : `forgot ${shown} in the copy of host ${host.name} here; a pull does not copy it again\n`, err: warn + hostLine(host.name, `${why}: the host itself still has the session${rerun}`), code: host.mirror ? 0 : 1 };
  }
  if (problem) return { out: '', err: warn + hostLine(host.name, `${problem}; nothing forgotten`), code: 1 };
  return { out: '', err: warn + `recapwrap: no session of host ${host.name}'s copy is named or has the id ${shown}; nothing forgotten\n`, code: 1 };
}
