/**
 * Where Claude Code keeps sessions: `$CLAUDE_CONFIG_DIR` (default ~/.claude) /projects/<slug(cwd)>/<id>.jsonl,
 * and its live records in /sessions/<pid>.json. The slug is the cwd with every character that is not a
 * letter or digit replaced by `-` (longer than 200: cut, plus a hash we do not reproduce — such folders
 * are found by their prefix).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentContext, Env } from '../types.js';

export const CLAUDE_CONFIG_DIR_ENV = 'CLAUDE_CONFIG_DIR';
const SLUG_MAX = 200;

export function getClaudeDir(env: Env, home: string): string {
  return env[CLAUDE_CONFIG_DIR_ENV] || join(home, '.claude');
}

export function claudeSlug(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

export function getClaudeProjectDir(ctx: AgentContext): string {
  const projects = join(getClaudeDir(ctx.env, ctx.home), 'projects');
  const slug = claudeSlug(ctx.cwd);
  if (slug.length <= SLUG_MAX) return join(projects, slug);
  const prefix = slug.slice(0, SLUG_MAX) + '-';
  try {
    const found = readdirSync(projects).find((n) => n.startsWith(prefix));
    if (found) return join(projects, found);
  } catch {}
  return join(projects, slug.slice(0, SLUG_MAX));
}

export function getClaudeLiveRecordPath(env: Env, home: string, pid: number): string {
  return join(getClaudeDir(env, home), 'sessions', `${pid}.json`);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(value: string | undefined): value is string {
  return typeof value === 'string' && UUID.test(value);
}
