/**
 * Where Qwen Code keeps sessions: `<runtime dir>/projects/<cwd, every non-alphanumeric char as ->/chats/
 * <sessionId>.jsonl`. The runtime dir is `$QWEN_RUNTIME_DIR`, else `$QWEN_HOME`, else ~/.qwen; the live
 * registry `sessions/<pid>.json` is always under `$QWEN_HOME` (else ~/.qwen). The `advanced.runtimeOutputDir`
 * setting, which can also move the runtime dir, is not read.
 */
import { join, resolve } from 'node:path';
import type { AgentContext, Env } from '../types.js';

export const QWEN_HOME_ENV = 'QWEN_HOME';
export const QWEN_RUNTIME_DIR_ENV = 'QWEN_RUNTIME_DIR';

// Qwen expands a leading ~ and resolves relative values against its own cwd.
function resolveDir(dir: string, ctx: Pick<AgentContext, 'cwd' | 'home'>): string {
  if (dir === '~') return ctx.home;
  if (dir.startsWith('~/') || dir.startsWith('~\\')) return join(ctx.home, dir.slice(2));
  return resolve(ctx.cwd, dir);
}

/** Qwen's global dir (settings, the live registry). */
export function getQwenHomeDir(ctx: { env: Env; cwd: string; home: string }): string {
  const dir = ctx.env[QWEN_HOME_ENV];
  return dir ? resolveDir(dir, ctx) : join(ctx.home, '.qwen');
}

/** Qwen's runtime base dir (projects/…/chats, tmp, debug). */
export function getQwenRuntimeDir(ctx: { env: Env; cwd: string; home: string }): string {
  const dir = ctx.env[QWEN_RUNTIME_DIR_ENV];
  return dir ? resolveDir(dir, ctx) : getQwenHomeDir(ctx);
}

/** Qwen's project folder name for a working directory (lower-cased first on Windows, as qwen does). */
export function encodeQwenCwd(cwd: string, platform: string = process.platform): string {
  return (platform === 'win32' ? cwd.toLowerCase() : cwd).replace(/[^A-Za-z0-9]/g, '-');
}

/** The folder qwen writes this cwd's session files to (`cwd` overrides ctx.cwd, e.g. from a live record). */
export function getQwenChatsDir(ctx: AgentContext, cwd: string = ctx.cwd): string {
  return join(getQwenRuntimeDir(ctx), 'projects', encodeQwenCwd(cwd), 'chats');
}

/** The live-session record a running qwen keeps for its pid (the innermost node process). */
export function getQwenLiveRecordPath(ctx: AgentContext, pid: number): string {
  return join(getQwenHomeDir(ctx), 'sessions', `${pid}.json`);
}

/** Session ids are file name stems: a UUID, never a path. */
export function isQwenSessionId(id: unknown): id is string {
  return typeof id === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id);
}
