/**
 * `recapwrap index --summarize [--limit N]`: model summaries of sessions the index holds with only the
 * heuristic's, newest first, asked only when the user runs it (never in the background). The plan comes
 * first (how many sessions, which model) so the command can say it before anything is sent; a failure
 * keeps the heuristic summary; a user-given name is never overwritten (the store keeps it).
 */
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import type { AgentId } from '../../transcripts/types.js';
import type { SessionMemory, SessionRow } from '../memory/api.js';
import { reachableSummaryModel, runModelSummary, summarySettings, type SummaryModel, type SummaryOutcome } from './model-summary.js';

export interface SummaryPlanGroup {
  agent: AgentId;
  /** Sessions of this agent that will be summarised. */
  count: number;
  /** The model asked, or why none is (those sessions are left as they are). */
  model: SummaryModel | { off: string };
}

export interface SummaryPlan {
  sessions: SessionRow[];
  groups: SummaryPlanGroup[];
  /** Sessions with only a heuristic summary that no model can be asked for (llm off, no one-off mode). */
  unreachable: number;
}

export interface SummarizeResult {
  summarised: number;
  failed: number;
  /** Model calls made (tries of every session). */
  requests: number;
}

// Every row, however many: the list's own default limit is for screens.
const ALL_ROWS = 1_000_000_000;

/**
 * Which sessions `index --summarize` would send, grouped by agent with the model each group goes to. An
 * agent whose model cannot be asked (llm off, no one-off mode, its CLI not on PATH) has its sessions left out.
 */
export function planSummaries(memory: SessionMemory, options: Options, env: Env, limit?: number, cwd: string = process.cwd()): SummaryPlan {
  const heuristic = memory.list({ limit: ALL_ROWS }).filter((r) => r.generator.type === 'heuristic' && r.counts.prompts > 0);
  const models = new Map<AgentId, SummaryModel | { off: string }>();
  const modelOf = (agent: AgentId) => {
    let m = models.get(agent);
    if (!m) models.set(agent, (m = reachableSummaryModel(summarySettings(options, env, agent), cwd)));
    return m;
  };
  const reachable = heuristic.filter((r) => !('off' in modelOf(r.agent)));
  const sessions = limit !== undefined ? reachable.slice(0, Math.max(0, limit)) : reachable;
  const counts = new Map<AgentId, number>();
  for (const r of sessions) counts.set(r.agent, (counts.get(r.agent) ?? 0) + 1);
  const groups: SummaryPlanGroup[] = [...counts].map(([agent, count]) => ({ agent, count, model: modelOf(agent) }));
  for (const r of heuristic) if ('off' in modelOf(r.agent) && !groups.some((g) => g.agent === r.agent)) groups.push({ agent: r.agent, count: 0, model: modelOf(r.agent) });
  return { sessions, groups, unreachable: heuristic.length - reachable.length };
}

/** One line for the user before anything is sent: how many sessions, which model(s). */
export function describePlan(plan: SummaryPlan): string {
  const asked = plan.groups.filter((g) => g.count > 0);
  // Why the sessions left out are: each reason once (two agents' CLIs missing are two reasons).
  const why = [...new Set(plan.groups.flatMap((g) => ('off' in g.model ? [g.model.off] : [])))].join('; ');
  if (asked.length === 0) return `No session to summarise: ${why || 'none in the index has only a heuristic summary'}.`;
  const label = (m: SummaryModel) => (m.type === 'agent' ? `${m.model} (its own CLI)` : `${m.type} ${m.model}`);
  const parts = asked.map((g) => `${g.count} ${g.agent} with ${label(g.model as SummaryModel)}`);
  const n = plan.sessions.length;
  return `Summarising ${n} session${n === 1 ? '' : 's'} by model: ${parts.join(', ')}${plan.unreachable ? ` (${plan.unreachable} left out: ${why || 'no model for their agent'})` : ''}.`;
}

/** Ask for each planned session's summary in turn and store the good ones; failures keep the heuristic. */
export async function summarizeSessions(
  memory: SessionMemory,
  plan: SummaryPlan,
  options: Options,
  env: Env,
  hooks: { signal?: AbortSignal; onEach?: (row: SessionRow, outcome: SummaryOutcome, index: number) => void } = {},
): Promise<SummarizeResult> {
  const result: SummarizeResult = { summarised: 0, failed: 0, requests: 0 };
  const settings = new Map<AgentId, ReturnType<typeof summarySettings>>();
  for (const [i, row] of plan.sessions.entries()) {
    if (hooks.signal?.aborted) break;
    let s = settings.get(row.agent);
    if (!s) settings.set(row.agent, (s = summarySettings(options, env, row.agent)));
    const outcome = await runModelSummary(s, { agent: row.agent, session: row.id, cwd: row.cwd, project: row.project, title: row.title, condensed: memory.condensedText(row.id) }, hooks.signal);
    result.requests += outcome.tries;
    if (outcome.ok) {
      memory.setModelSummary(row.id, outcome.summary, outcome.generator);
      result.summarised++;
    } else result.failed++;
    hooks.onEach?.(row, outcome, i);
  }
  return result;
}
