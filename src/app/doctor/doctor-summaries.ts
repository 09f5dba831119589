/**
 * `doctor`'s line about what session summaries will cost: which generator and model each agent's
 * sessions go to, and when a call is made (a wrapper's exit and every 5 new prompts, at most 2 calls each;
 * `recapwrap index --summarize` when you run it), or why nothing is sent.
 */
import { resolveConfig } from '../../config/load.js';
import type { Env } from '../../config/paths.js';
import { SUMMARY_EVERY_PROMPTS } from '../../recap/summary-gate.js';
import { resolveCommand } from '../../pty/command-lookup.js';
import { listAdapters } from '../../transcripts/registry.js';
import type { CheckResult } from '../../types.js';
import { SUMMARY_MAX_CALLS, summaryModel, summarySettings } from '../summaries/model-summary.js';

export function checkSummaries(env: Env, cwd: string = process.cwd()): CheckResult {
  const { options } = resolveConfig({ env, cwd });
  const name = 'model summaries';
  if (!options.memory) return { name, status: 'skip', detail: 'session memory is off: no summary is written, no model asked' };
  const per: string[] = [];
  const off = new Set<string>();
  const missing: string[] = [];
  for (const adapter of listAdapters()) {
    const model = summaryModel(summarySettings(options, env, adapter.id));
    if ('off' in model) off.add(model.off);
    // The agent's own CLI makes its summaries: not installed, none is made (#43.9: no ✓ for it).
    else if (model.type === 'agent' && !resolveCommand(adapter.command, env, cwd).ok) missing.push(adapter.id);
    else per.push(`${adapter.id} → ${model.type} ${model.model}`);
  }
  if (missing.length) off.add(`${missing.join(', ')} not installed (their own CLI makes their summaries)`);
  if (per.length === 0) return { name, status: 'skip', detail: `none sent: ${[...off].join('; ')}` };
  const when = `at a wrapper's exit and every ${SUMMARY_EVERY_PROMPTS} new prompts of a live session, and for \`recapwrap index --summarize\`; at most ${SUMMARY_MAX_CALLS} model calls per summary`;
  return { name, status: 'ok', detail: `${per.join(', ')}${off.size ? ` (others: ${[...off].join('; ')})` : ''}; ${when}` };
}
