/**
 * Qwen Code's own recap, the away recap ("※ recap:", docs/agent-recaps.md): off by default; on with
 * `general.showSessionRecap`, after `general.sessionRecapAwayThresholdMinutes` (5) away. Its settings
 * files (the user's, then the project's) are only read; Qwen Code has no switch that turns it off for one run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OwnRecapRule, OwnRecapState } from '../../types.js';
import type { AgentContext, OwnRecapSpec } from '../types.js';
import { getQwenHomeDir } from './paths.js';

/**
 * From the 0.24.4 bundle (useAwaySummary.ts): made when focus comes back after the threshold with the
 * session idle, 3 user prompts in it and 2 since its last recap; written as a `system/slash_command`
 * record (`rawCommand: "/recap"`, `outputHistoryItems: [{type: "away_recap", text}]`).
 */
export const QWEN_AWAY_RECAP_RULE: OwnRecapRule = { when: 'on-return', delayMs: 5 * 60_000, counts: 'prompts', minCount: 3, minSinceLast: 2, writes: true };

interface QwenGeneral { showSessionRecap?: unknown; sessionRecapAwayThresholdMinutes?: unknown }

function general(file: string): { general?: QwenGeneral; error?: string } {
  if (!existsSync(file)) return {};
  try {
    return { general: (JSON.parse(readFileSync(file, 'utf8')) as { general?: QwenGeneral }).general ?? {} };
  } catch (error) {
    return { error: `could not read ${file}: ${(error as Error).message}` };
  }
}

export function qwenAwayRecapState(ctx: AgentContext): OwnRecapState {
  let on = false;
  let why = 'default';
  let minutes: number | undefined;
  // The project's settings win over the user's.
  for (const file of [join(getQwenHomeDir(ctx), 'settings.json'), join(ctx.cwd, '.qwen', 'settings.json')]) {
    const read = general(file);
    if (read.error) why = read.error;
    if (typeof read.general?.showSessionRecap === 'boolean') {
      on = read.general.showSessionRecap;
      why = `general.showSessionRecap: ${on} in ${file}`;
    }
    const m = read.general?.sessionRecapAwayThresholdMinutes;
    if (typeof m === 'number' && m > 0) minutes = m;
  }
  const rule = minutes === undefined ? QWEN_AWAY_RECAP_RULE : { ...QWEN_AWAY_RECAP_RULE, delayMs: minutes * 60_000 };
  return { on, why: minutes === undefined ? why : `${why}, after ${minutes} min away`, rule };
}

export const qwenOwnRecap: OwnRecapSpec = {
  name: 'away recap',
  state: qwenAwayRecapState,
  setting: '"general": {"showSessionRecap": false} in ~/.qwen/settings.json',
};
