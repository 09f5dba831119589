/**
 * The live-recap runtime of one wrapped agent, loaded after the child has started (so recaps never
 * delay the agent's start): the recap engine for the chosen generator, the overlay bar when that is
 * the display, and attachRecap's tracker, controller and tmux display.
 */
import type { Options } from '../config/options-table.js';
import type { Env } from '../config/paths.js';
import type { RecapDisplay } from './live-recap.js';
import type { RecapPlan } from './launch-plan.js';
import { attachRecap } from './recap-wiring.js';
import { createRecapEngine } from './recap-engine.js';
import type { WrapSession } from './wrap-session.js';

export interface LiveRuntimeInput {
  plan: RecapPlan;
  session: WrapSession;
  options: Options;
  cwd: string;
  env: Env;
  startedAt: number;
  /** The overlay bar, already mirroring the agent's screen (outside tmux). */
  overlay?: RecapDisplay & { dispose(): void };
}

export function attachLiveRecap(input: LiveRuntimeInput): { stop(): Promise<void> } | undefined {
  const { plan, session, options, env } = input;
  const overlay = input.overlay;
  const engine = createRecapEngine({ options, agent: plan.agent, cwd: input.cwd, env });
  const attached = attachRecap({ plan, wrap: session, options, engine, overlay, cwd: input.cwd, env, startedAt: input.startedAt });
  if (!attached) return undefined;
  return {
    async stop() {
      await attached.stop();
      overlay?.dispose();
    },
  };
}

