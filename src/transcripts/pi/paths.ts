/**
 * Where pi keeps sessions: `$PI_CODING_AGENT_DIR` (default ~/.pi/agent) /sessions/--<cwd>--/, or the folder
 * named by `$PI_CODING_AGENT_SESSION_DIR` directly; file names are `<ISO time, : and . as ->_<id>.jsonl`.
 */
import { join } from 'node:path';
import type { AgentContext, Env } from '../types.js';

export const PI_AGENT_DIR_ENV = 'PI_CODING_AGENT_DIR';
export const PI_SESSION_DIR_ENV = 'PI_CODING_AGENT_SESSION_DIR';

function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

export function getPiAgentDir(env: Env, home: string): string {
  const dir = env[PI_AGENT_DIR_ENV];
  return dir ? expandHome(dir, home) : join(home, '.pi', 'agent');
}

/** pi's folder name for a working directory: leading slash dropped, `/`, `\` and `:` as `-`, wrapped in `--`. */
export function encodePiCwd(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

// The folder pi writes this cwd's sessions to (what pi's getDefaultSessionDir computes).
export function getPiSessionDir(ctx: AgentContext): string {
  const override = ctx.env[PI_SESSION_DIR_ENV];
  if (override) return expandHome(override, ctx.home);
  return join(getPiAgentDir(ctx.env, ctx.home), 'sessions', encodePiCwd(ctx.cwd));
}

/** A new session file name in pi's own style, so pi's `--continue` and `/resume` list it normally. */
export function piSessionFileName(now: number, id: string): string {
  return `${new Date(now).toISOString().replace(/[:.]/g, '-')}_${id}.jsonl`;
}

/** The session id in a pi file name (`…_<id>.jsonl`), or the stem. */
export function piIdFromFileName(name: string): string {
  const stem = name.replace(/\.jsonl$/, '');
  const i = stem.lastIndexOf('_');
  return i >= 0 ? stem.slice(i + 1) : stem;
}
