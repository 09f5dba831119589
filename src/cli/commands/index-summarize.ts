/**
 * `recapwrap index --summarize [--limit N] [--session REF]`: after the index is brought up to date, model
 * summaries of the sessions that have only the heuristic's. It says first how many sessions and which
 * model (stderr, before anything is sent), then one line per session as it goes; stdout gets the result
 * (`--json`: one object). Nothing is sent with --no-llm. Loaded only when --summarize is given.
 */
import { resolveConfig } from '../../config/load.js';
import { parseCount } from '../count-option.js';
import type { Options } from '../../config/options-table.js';
import type { SessionMemory, SessionRow } from '../../app/memory/api.js';
import { describeExactMiss } from '../../app/memory/loose-ref.js';
import { getHomeDir } from '../../config/paths.js';
import { shortenDir } from '../../util/age.js';
import { describePlan, planSummaries, summarizeSessions, type SummaryPlan } from '../../app/summaries/summarize-sessions.js';
import { reachableSummaryModel, summarySettings } from '../../app/summaries/model-summary.js';
import { sanitizeLine, stringifyJsonSafely } from '../../util/sanitize.js';
import type { Env } from '../../config/paths.js';

export interface IndexSummarizeOptions {
  limit?: string;
  session?: string;
  json?: boolean;
  generator?: string;
  model?: string;
  llm?: boolean;
}

interface Result { out: string; err: string; code: number }

export async function runIndexSummarize(memory: SessionMemory, options: IndexSummarizeOptions, deps: { env: Env; cwd: string; log?: (text: string) => void }): Promise<Result> {
  const flags: Record<string, unknown> = {};
  if (options.generator !== undefined) flags.generator = options.generator;
  if (options.model !== undefined) flags.model = options.model;
  if (options.llm === false) flags.llm = false;
  const config = resolveConfig({ env: deps.env, cwd: deps.cwd, flags });
  const bad = config.problems.find((p) => p.source === 'flag');
  if (bad) return { out: '', err: `recapwrap: ${bad.message}\n`, code: 2 };
  const counted = parseCount('--limit', options.limit);
  if ('error' in counted) return { out: '', err: `recapwrap: ${counted.error}\n`, code: 2 };
  const limit = counted.value;
  const plan = options.session !== undefined ? planOne(memory, options.session, config.options, deps) : planSummaries(memory, config.options, deps.env, limit, deps.cwd);
  if ('err' in plan) return plan;
  const say = deps.log ?? (() => {});
  const line = describePlan(plan);
  if (plan.sessions.length === 0) {
    // Nothing to send: said once, as the result (an error when no model may be asked).
    const code = plan.unreachable > 0 ? 1 : 0;
    if (options.json) return { out: stringifyJsonSafely({ plan: line, summarised: 0, failed: 0, requests: 0, sessions: [] }, 2) + '\n', err: '', code };
    return code ? { out: '', err: `recapwrap: ${line}\n`, code } : { out: `${line}\n`, err: '', code };
  }
  say(`${line}\n`);
  const done: Array<{ id: string; agent: string; name: string; ok: boolean; tries: number; error?: string }> = [];
  const total = plan.sessions.length;
  const told = tellApart(plan.sessions, getHomeDir(deps.env));
  const result = await summarizeSessions(memory, plan, config.options, deps.env, {
    onEach: (row, outcome, i) => {
      const name = outcome.ok ? (memory.card(row.id)?.name ?? row.name) : row.name;
      done.push({ id: row.id, agent: row.agent, name, ok: outcome.ok, tries: outcome.tries, ...(outcome.ok ? {} : { error: outcome.error }) });
      say(`[${i + 1}/${total}] ${row.agent} ${sanitizeLine(name)}${told.get(row.id) ?? ''}: ${outcome.ok ? 'summarised' : `kept the heuristic summary (${sanitizeLine(outcome.error)})`}\n`);
    },
  });
  const code = result.failed > 0 ? 1 : 0;
  if (options.json) return { out: stringifyJsonSafely({ plan: line, ...result, sessions: done }, 2) + '\n', err: '', code };
  return { out: `summarised ${result.summarised} of ${total} session${total === 1 ? '' : 's'} (${result.failed} kept the heuristic summary; ${result.requests} model call${result.requests === 1 ? '' : 's'})\n`, err: '', code };
}

/**
 * For the sessions of the list whose names repeat (the same automatic name in two folders, say): what tells
 * them apart, ` (id prefix, folder)`, by id; the others need nothing.
 */
export function tellApart(rows: readonly Pick<SessionRow, 'id' | 'name' | 'cwd'>[], home: string): Map<string, string> {
  const byName = new Map<string, Pick<SessionRow, 'id' | 'name' | 'cwd'>[]>();
  for (const r of rows) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
  const out = new Map<string, string>();
  for (const same of byName.values()) {
    if (same.length < 2) continue;
    for (const r of same) {
      // The shortest prefix (8 characters or more) no other session of that name starts with.
      let n = Math.min(8, r.id.length);
      while (n < r.id.length && same.some((o) => o !== r && o.id.startsWith(r.id.slice(0, n)))) n++;
      out.set(r.id, ` (${sanitizeLine(r.id.slice(0, n))}, ${sanitizeLine(shortenDir(r.cwd, home, 1000))})`);
    }
  }
  return out;
}

// One session, whatever summary it has now (the live wrapper's exit, or a user's redo).
function planOne(memory: SessionMemory, ref: string, options: Options, deps: { env: Env; cwd: string }): SummaryPlan | Result {
  // It rewrites the session's summary: an exact REF only, never a guess from part of a name.
  const found = memory.resolve(ref, { cwd: deps.cwd, exact: true });
  if (!found.ok && found.kind === 'none' && found.candidates.length > 0) return { out: '', err: `recapwrap: ${describeExactMiss(ref, found.candidates)}\n`, code: 1 };
  if (!found.ok) return { out: '', err: `recapwrap: ${found.kind === 'none' ? 'no session matches' : 'more than one session matches'} ${JSON.stringify(sanitizeLine(ref))}\n`, code: found.kind === 'none' ? 1 : 2 };
  const model = reachableSummaryModel(summarySettings(options, deps.env, found.row.agent), deps.cwd);
  const group = { agent: found.row.agent, count: 'off' in model ? 0 : 1, model };
  return { sessions: 'off' in model ? [] : [found.row], groups: [group], unreachable: 'off' in model ? 1 : 0 };
}
