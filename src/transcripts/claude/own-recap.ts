/**
 * Claude Code's own recap, the away summary ("※ recap:", docs/agent-recaps.md): on by default since
 * 2.1.108; `CLAUDE_CODE_ENABLE_AWAY_SUMMARY` (0/false: off, 1/true: on) wins over the `awaySummaryEnabled`
 * setting (`/config`). Its settings files are only read, never written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OwnRecapRule, OwnRecapState } from '../../types.js';
import type { AgentContext, OwnRecapSpec } from '../types.js';
import { getClaudeDir } from './paths.js';

export const CLAUDE_AWAY_SUMMARY_ENV = 'CLAUDE_CODE_ENABLE_AWAY_SUMMARY';

/**
 * From the 2.1.330 bundle: made while the terminal is unfocused, 180 s after the last turn end and at
 * least 2 s after the blur, when the session holds 3 user messages (prompts and tool results) and 2 since
 * its last summary; skipped when its prompt cache is cold by then (0.9 of a 5-minute cache: 270 s); written
 * into the transcript as `system/away_summary` (2.1.112, 2.1.126 and 2.1.330 seen).
 */
export const CLAUDE_AWAY_SUMMARY_RULE: OwnRecapRule = {
  when: 'while-away', delayMs: 180_000, from: 'turn-end', minBlurMs: 2000, staleAfterMs: 270_000,
  counts: 'user-messages', minCount: 3, minSinceLast: 2, writes: true,
};

const FALSY = /^(0|false|no|off)$/i;
const TRUTHY = /^(1|true|yes|on)$/i;

function setting(file: string): boolean | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const value = (JSON.parse(readFileSync(file, 'utf8')) as { awaySummaryEnabled?: unknown }).awaySummaryEnabled;
    return typeof value === 'boolean' ? value : undefined;
  } catch {
    return undefined; // An unreadable settings file: Claude Code reports it itself.
  }
}

export function claudeAwaySummaryState(ctx: AgentContext): OwnRecapState {
  const rule = CLAUDE_AWAY_SUMMARY_RULE;
  const env = ctx.env[CLAUDE_AWAY_SUMMARY_ENV];
  if (env !== undefined && FALSY.test(env.trim())) return { on: false, why: `${CLAUDE_AWAY_SUMMARY_ENV}=${env}`, rule };
  if (env !== undefined && TRUTHY.test(env.trim())) return { on: true, why: `${CLAUDE_AWAY_SUMMARY_ENV}=${env}`, rule };
  // The most specific settings file that sets it: local, then project, then the user's.
  const files = [join(ctx.cwd, '.claude', 'settings.local.json'), join(ctx.cwd, '.claude', 'settings.json'), join(getClaudeDir(ctx.env, ctx.home), 'settings.json')];
  for (const file of files) {
    const value = setting(file);
    if (value !== undefined) return { on: value, why: `awaySummaryEnabled: ${value} in ${file}`, rule };
  }
  return { on: true, why: 'default', rule };
}

export const claudeOwnRecap: OwnRecapSpec = {
  name: 'away summary',
  state: claudeAwaySummaryState,
  off: { env: { [CLAUDE_AWAY_SUMMARY_ENV]: '0' } },
  setting: '"awaySummaryEnabled": false in ~/.claude/settings.json (or /config)',
};
