/**
 * Codex's own recap, the "Conversation recap" history cell (docs/agent-recaps.md): on unless
 * `[tui] auto_recap = false` in config.toml; a TUI cell only, never written to the rollout file. recapwrap
 * turns it off for one run with Codex's documented config override, `-c tui.auto_recap=false`. Its config
 * file is only read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OwnRecapRule, OwnRecapState } from '../../types.js';
import type { AgentContext, OwnRecapSpec } from '../types.js';
import { getCodexHome } from './paths.js';

/**
 * From codex-rs/tui/src/app/recap.rs: made while the terminal is unfocused, at the later of the blur and the
 * last turn end plus RECAP_DELAY (30 min in the source read; earlier versions used 3 min), with 3 completed
 * turns and 2 since its last recap. 0.169.0 has it (its binary holds "Conversation recap" and `auto_recap`).
 */
export const CODEX_RECAP_RULE: OwnRecapRule = { when: 'while-away', delayMs: 30 * 60_000, from: 'turn-or-blur', counts: 'turns', minCount: 3, minSinceLast: 2, writes: false };

// `[tui]` … `auto_recap = false`, or `tui.auto_recap = false` at the top level (comments and other keys skipped).
export function codexAutoRecapSetting(toml: string): boolean | undefined {
  let section = '';
  let found: boolean | undefined;
  for (const raw of toml.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      section = header[1] as string;
      continue;
    }
    const kv = /^([A-Za-z0-9_.]+)\s*=\s*(true|false)\s*$/.exec(line);
    if (!kv) continue;
    const key = section ? `${section}.${kv[1]}` : (kv[1] as string);
    if (key === 'tui.auto_recap') found = kv[2] === 'true';
  }
  return found;
}

export function codexRecapState(ctx: AgentContext): OwnRecapState {
  const rule = CODEX_RECAP_RULE;
  const file = join(getCodexHome(ctx.env, ctx.home), 'config.toml');
  let value: boolean | undefined;
  try {
    value = existsSync(file) ? codexAutoRecapSetting(readFileSync(file, 'utf8')) : undefined;
  } catch {
    value = undefined; // Unreadable: Codex says so itself.
  }
  return value === undefined ? { on: true, why: 'default', rule } : { on: value, why: `tui.auto_recap = ${value} in ${file}`, rule };
}

export const codexOwnRecap: OwnRecapSpec = {
  name: 'conversation recap',
  state: codexRecapState,
  off: { args: ['-c', 'tui.auto_recap=false'] },
  setting: '[tui] auto_recap = false in ~/.codex/config.toml',
};
