/**
 * Where Gemini CLI keeps chats: `<home>/.gemini/tmp/<project slug>/chats/session-<UTC YYYY-MM-DDTHH-MM>-<first
 * 8 chars of the session id>.jsonl` (`.json` before 0.39). `<home>` is `$GEMINI_CLI_HOME`, else the user's
 * home. The slug is registered in `~/.gemini/projects.json` (`{"projects": {"/abs/root": "slug"}}`); before
 * 0.29 the folder was the sha256 of the project root.
 */
import { readdirSync } from 'node:fs';
import { readSmallFile } from '../regular-file.js';
import { basename, join } from 'node:path';
import type { AgentContext, Env } from '../types.js';
import { nodeRequire } from '../../util/node-require.js';

export const GEMINI_HOME_ENV = 'GEMINI_CLI_HOME';

export function getGeminiDir(env: Env, home: string): string {
  return join(env[GEMINI_HOME_ENV] || home, '.gemini');
}

export function getGeminiTmpDir(env: Env, home: string): string {
  return join(getGeminiDir(env, home), 'tmp');
}

/** The slug Gemini derives from a project root's base name (before a `-N` added on collision). */
export function geminiSlug(root: string): string {
  return basename(root).toLowerCase().replace(/[^a-z0-9]/g, '-').replace(/-+/g, '-').replace(/^-|-$/g, '') || 'project';
}

/** The slug registered for this folder in projects.json, if any. */
export async function registeredSlug(ctx: AgentContext): Promise<string | undefined> {
  try {
    const reg = JSON.parse((await readSmallFile(join(getGeminiDir(ctx.env, ctx.home), 'projects.json'), 16 * 1024 * 1024)) ?? '') as { projects?: Record<string, unknown> };
    const slug = reg.projects?.[ctx.cwd];
    return typeof slug === 'string' && slug && !slug.includes('/') ? slug : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The chats folders that may hold this folder's sessions, best first: the registered slug, the slug Gemini
 * would pick when none is registered yet, and the pre-0.29 hash folder.
 */
export async function geminiChatsDirs(ctx: AgentContext): Promise<string[]> {
  const tmp = getGeminiTmpDir(ctx.env, ctx.home);
  // node:crypto on first use only: importing it costs every process that loads the adapters ~2 MB of RSS.
  const { createHash } = nodeRequire<typeof import('node:crypto')>('node:crypto');
  const slugs = [await registeredSlug(ctx), geminiSlug(ctx.cwd), createHash('sha256').update(ctx.cwd).digest('hex')];
  return [...new Set(slugs.filter((s): s is string => s !== undefined))].map((s) => join(tmp, s, 'chats'));
}

/** Every project's chats folder (a pinned id is found wherever Gemini put it: worktrees, renamed slugs). */
export function allGeminiChatsDirs(env: Env, home: string): string[] {
  const tmp = getGeminiTmpDir(env, home);
  try {
    return readdirSync(tmp, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(tmp, d.name, 'chats'));
  } catch {
    return [];
  }
}

/** `session-2026-11-22T08-53-08cf117f.jsonl` → `08cf117f` (the session id's first 8 characters). */
export function geminiShortIdFromFileName(name: string): string | undefined {
  return /^session-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-([0-9a-z]{8})\.jsonl?$/i.exec(name)?.[1]?.toLowerCase();
}

export function isGeminiSessionFileName(name: string): boolean {
  return geminiShortIdFromFileName(name) !== undefined;
}
