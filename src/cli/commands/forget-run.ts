/**
 * `recapwrap forget REF` / `forget --folder DIR` (memory-run.ts opens the index and calls this): a session
 * named exactly (its id, a unique id prefix, its exact name or @@name; a looser match lists the candidates
 * and forgets nothing), or every session of a folder and below. On a terminal it shows what will go and
 * asks first (`--yes` skips that); without one it refuses unless `--yes` is given, as `gh` does (#40.8):
 * a script or a pipe must say it means it. It cannot be undone.
 */
import { resolve } from 'node:path';
import { getHomeDir } from '../../config/paths.js';
import { formatSince, shortenDir } from '../../util/age.js';
import { sanitizeLine, stringifyJsonSafely } from '../../util/sanitize.js';
import type { ForgetOutcome, SessionMemory, SessionRow } from '../../app/memory/api.js';
import type { MemoryCliOptions, MemoryDeps } from './memory-options.js';

interface Result { out: string; err: string; code: number }

/** At most this many of the sessions to forget are listed before the question. */
const SHOWN = 10;

const fail = (message: string, code: number): Result => ({ out: '', err: `recapwrap: ${message}\n`, code });

function line(r: SessionRow, deps: MemoryDeps): string {
  const home = getHomeDir(deps.env);
  return `  ${sanitizeLine(r.id).slice(0, 12).padEnd(12)}  ${sanitizeLine(r.name)}  ${r.agent}  ${formatSince(r.updatedAt, deps.now)} ago  ${r.cwd ? shortenDir(sanitizeLine(r.cwd), home, 40) : '-'}`;
}

function listed(rows: readonly SessionRow[], deps: MemoryDeps): string {
  const more = rows.length > SHOWN ? `\n  … and ${rows.length - SHOWN} more` : '';
  return rows.slice(0, SHOWN).map((r) => line(r, deps)).join('\n') + more + '\n';
}

// What was done, said after the deletion: the log not purged yet, the damaged copies deleted.
function afterwards(outcome: ForgetOutcome, deps: MemoryDeps): string {
  const home = getHomeDir(deps.env);
  let err = '';
  if (!outcome.purged) err += "recapwrap: warning: the forgotten text is still in the index's write-ahead log: another process is reading the index (an MCP server, a picker, a search); it is purged when that process closes the index, or by `recapwrap index` then\n";
  for (const copy of outcome.removedCopies) err += `recapwrap: also deleted ${shortenDir(copy, home, 1000)} (a damaged copy of the index, which could hold the text)\n`;
  return err;
}

const outcomeJson = (o: ForgetOutcome) => ({ forgotten: o.count, purged: o.purged, removedCopies: o.removedCopies });

export async function runForget(memory: SessionMemory, ref: string | undefined, options: MemoryCliOptions, deps: MemoryDeps): Promise<Result> {
  const home = getHomeDir(deps.env);
  if (ref !== undefined && options.folder) return fail('give a session or --folder DIR, not both', 2);
  if (ref === undefined && !options.folder) return fail('give a session to forget, or --folder DIR', 2);
  await memory.refresh({});
  let rows: SessionRow[];
  let what: string;
  const dir = options.folder ? resolve(deps.cwd, options.folder.replace(/^~(?=\/|$)/, home)) : undefined;
  if (ref !== undefined) {
    const found = memory.resolve(ref, { cwd: deps.cwd, exact: true });
    if (!found.ok) {
      const shown = JSON.stringify(sanitizeLine(ref));
      if (found.candidates.length === 0) return fail(`no session is named or has the id ${shown}; nothing forgotten`, 1);
      const why = found.kind === 'ambiguous' ? `${shown} names ${found.candidates.length} sessions` : `forget needs a session's id, a unique id prefix or its exact name; ${shown} only partly matches`;
      return { out: '', err: `recapwrap: ${why}; nothing forgotten. Candidates:\n${listed(found.candidates, deps)}`, code: 2 };
    }
    rows = [found.row];
    what = `${sanitizeLine(found.row.name)} (${found.row.agent} ${sanitizeLine(found.row.id)})`;
  } else {
    rows = memory.list({ folder: dir, limit: Number.MAX_SAFE_INTEGER });
    if (rows.length === 0) return fail(`no sessions in the index for ${sanitizeLine(shortenDir(dir as string, home, 1000))}`, 1);
    what = `${rows.length} session${rows.length === 1 ? '' : 's'} of ${sanitizeLine(shortenDir(dir as string, home, 1000))}`;
  }
  // No terminal to ask on: only with --yes (exit 2, a usage error, like gh's "--yes required").
  if (!deps.confirm && !options.yes) {
    return { out: '', err: `recapwrap: not a terminal, so forget cannot ask: this would forget ${what} for good; add --yes to forget ${rows.length === 1 ? 'it' : `these ${rows.length}`}. Nothing forgotten:\n${listed(rows, deps)}`, code: 2 };
  }
  if (deps.confirm && !options.yes) {
    const ok = await deps.confirm(`recapwrap: this forgets ${what} for good (it cannot be undone):\n${listed(rows, deps)}Forget ${rows.length === 1 ? 'it' : `these ${rows.length}`}? [y/N] `);
    if (!ok) return fail('nothing forgotten', 1);
  }
  // What was shown is what goes (a session indexed meanwhile in that folder is not taken along unseen).
  const outcome = ref === undefined && !deps.confirm ? memory.forgetFolder(dir as string) : memory.forget(rows.map((r) => r.id));
  const err = afterwards(outcome, deps);
  if (options.json) {
    const base = ref !== undefined ? { ids: rows.map((r) => r.id) } : { folder: dir };
    return { out: stringifyJsonSafely({ ...outcomeJson(outcome), ...base }, 2) + '\n', err, code: outcome.count ? 0 : 1 };
  }
  if (outcome.count === 0) return { out: '', err: err + 'recapwrap: nothing was left to forget (another process forgot it first)\n', code: 1 };
  const text = ref !== undefined
    ? `forgot ${what}; it is not indexed again\n`
    : `forgot ${outcome.count} session${outcome.count === 1 ? '' : 's'} of ${sanitizeLine(shortenDir(dir as string, home, 1000))}\n`;
  return { out: text, err, code: 0 };
}
