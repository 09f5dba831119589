/**
 * The agents' own recaps as the app applies `agentRecaps` (#34, docs/agent-recaps.md): what the trigger
 * machine is told (use) and doctor's line per agent (the engine serves a fresh own recap: engine.ts). (The
 * launch's part, replace's switch, is in run-wrap.ts: the adapter's `ownRecap.off`, never its settings files.)
 * The agent facts live in each transcript adapter (`ownRecap`); the rules are pure (recap/own-recap.ts).
 */
import type { Options } from '../../config/options-table.js';
import type { AgentRecapsMode } from '../../recap/own-recap.js';
import type { TriggerConfig } from '../../recap/trigger.js';
import { listAdapters } from '../../transcripts/registry.js';
import type { AgentContext, TranscriptAdapter } from '../../transcripts/types.js';
import type { CheckResult, OwnRecapState } from '../../types.js';

export function agentRecapsMode(options: Pick<Options, 'agentRecaps'>): AgentRecapsMode {
  return options.agentRecaps as AgentRecapsMode;
}

/** What recapwrap does about an agent's own recap, in a few words (doctor, the debug log). */
export interface OwnRecapDecision {
  /** The trigger machine's ownRecaps (absent: recapwrap draws every bar, the own recap is ignored). */
  trigger?: TriggerConfig['ownRecaps'];
  state?: OwnRecapState;
  doing: string;
}

/** The decision for one agent in `ctx` (reads the agent's settings files, never writes them). */
export function decideOwnRecap(adapter: TranscriptAdapter, mode: AgentRecapsMode, ctx: AgentContext): OwnRecapDecision {
  const spec = adapter.ownRecap;
  if (!spec) return { doing: 'none of its own' };
  const state = spec.state(ctx);
  if (mode === 'both') return { state, doing: state.on ? 'recapwrap draws its bar too: two recaps (agentRecaps: both)' : "recapwrap's bar" };
  if (mode === 'replace') {
    if (spec.off) {
      const how = [...Object.entries(spec.off.env ?? {}).map(([k, v]) => `${k}=${v}`), ...(spec.off.args ?? [])].join(' ');
      return { state: { ...state, on: false }, doing: `turned off where recapwrap starts it (${how}); recapwrap's bar` };
    }
    // No switch for one run: the closest to one recap is using the agent's.
    if (state.on) return { trigger: { rule: state.rule }, state, doing: 'no switch to turn it off for one run: used, as with use' };
  }
  if (!state.on) return { trigger: {}, state, doing: "recapwrap's bar (one you ask the agent for is used)" };
  return { trigger: { rule: state.rule }, state, doing: state.rule.writes ? 'used: no second bar while it is fresh' : 'no bar of recapwrap\'s where it recaps' };
}

/** doctor: per agent with a recap of its own, whether it is on and what recapwrap will do. */
export function checkOwnRecaps(options: Pick<Options, 'agentRecaps'>, ctx: AgentContext): CheckResult[] {
  const mode = agentRecapsMode(options);
  return listAdapters().flatMap((adapter) => {
    const spec = adapter.ownRecap;
    if (!spec) return [];
    const decision = decideOwnRecap(adapter, mode, ctx);
    const state = spec.state(ctx);
    const two = mode === 'both' && state.on;
    return [{
      name: `${adapter.id} recap`,
      status: two ? 'warn' : 'ok',
      detail: `${spec.name} ${state.on ? 'on' : 'off'} (${state.why}); ${decision.doing}`,
      ...(two ? { fix: `--agent-recaps use (or replace), or ${spec.setting}` } : {}),
    } satisfies CheckResult];
  });
}
