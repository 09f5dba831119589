/**
 * The recap engine as the app builds it from the resolved options: which generator, which endpoints and
 * keys (from the environment only: keys never go in config files), the wrapped agent for the `agent`
 * generator, and the on-disk cache in the state folder. The wrap flow sees it through RecapDrafter
 * (draft → one sanitized line; a quick "working: …" line).
 */
import type { Options } from '../../config/options-table.js';
import { getHomeDir, getStateDir, type Env } from '../../config/paths.js';
import { RecapEngine, type EngineSettings } from '../../recap/engine.js';
import { freshOwnRecap, ownRecapLine } from '../../recap/own-recap.js';
import type { GeneratorName } from '../../recap/types.js';
import { agentFromCommand } from '../../transcripts/agent-ids.js';
import { findAdapter } from '../../transcripts/registry.js';
import type { AgentId, Session } from '../../transcripts/types.js';
import { debugLog } from '../../util/debug-log.js';
import { join } from 'node:path';
import type { RecapDrafter } from '../wrap/live-recap.js';

export interface RecapEngineInput {
  options: Options;
  agent?: AgentId;
  /** The command the user wrapped (its path runs the agent generator). */
  command?: string;
  env: Env;
}

/** Where recaps are cached by session and stamp (also read by `resume`). */
export function recapCacheDir(env: Env): string {
  return join(getStateDir(env), 'recaps');
}

// The agent generator's settings: the adapter's one-off mode, run by the wrapped command only when it is
// the agent itself (not a launcher script wrapped with --agent); otherwise the agent's own command on PATH.
function agentSettings(agent: AgentId, wrapped: string | undefined): EngineSettings['agent'] {
  const adapter = findAdapter(agent);
  const command = wrapped && agentFromCommand(wrapped) === agent ? wrapped : (adapter?.command ?? agent);
  return { id: agent, command, oneShot: adapter?.oneShot };
}

export function engineSettings(input: RecapEngineInput): EngineSettings {
  const { options, env } = input;
  return {
    generator: options.generator as GeneratorName,
    llm: options.llm,
    model: options.model,
    timeoutMs: options.generatorTimeoutSeconds * 1000,
    openai: { baseUrl: options.openaiBaseUrl, model: options.openaiModel, apiKey: env.RECAPWRAP_OPENAI_API_KEY || env.OPENAI_API_KEY || undefined },
    anthropic: { baseUrl: options.anthropicBaseUrl, model: options.anthropicModel, apiKey: env.RECAPWRAP_ANTHROPIC_API_KEY || env.ANTHROPIC_API_KEY || undefined },
    agent: input.agent ? agentSettings(input.agent, input.command) : undefined,
    env,
    home: getHomeDir(env),
    cacheDir: recapCacheDir(env),
    ownRecaps: options.agentRecaps === 'use',
    log: (message, data) => debugLog('recap', message, data),
  };
}

export function createEngine(input: RecapEngineInput): RecapEngine {
  return new RecapEngine(engineSettings(input));
}

export function createRecapEngine(input: RecapEngineInput): RecapDrafter {
  const engine = createEngine(input);
  return {
    draft: async (session: Session, signal: AbortSignal, cells?: number) => {
      const { recap } = await engine.recap(session, { signal, cells });
      return signal.aborted ? undefined : recap?.line;
    },
    workingLine: (session: Session) => engine.working(session),
    // The agent's own recap while it is fresh (agentRecaps: use), else the heuristic's line.
    quickLine: (session: Session) => {
      const own = input.options.agentRecaps === 'use' ? freshOwnRecap(session.events) : undefined;
      return own ? ownRecapLine(own.text) : engine.heuristic(session).line;
    },
  };
}
