/**
 * Every path recapwrap reads or writes of its own, and the env vars that move them.
 * Agent session folders are not here: each transcript adapter owns its agent's paths.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { Env } from '../types.js';

export const XDG_STATE_HOME_ENV = 'XDG_STATE_HOME';
export const XDG_CONFIG_HOME_ENV = 'XDG_CONFIG_HOME';
export const XDG_CACHE_HOME_ENV = 'XDG_CACHE_HOME';
export const XDG_RUNTIME_DIR_ENV = 'XDG_RUNTIME_DIR';
/** Overrides the state folder (tests, several installs side by side). */
export const RECAPWRAP_STATE_DIR_ENV = 'RECAPWRAP_STATE_DIR';
/** File that receives debug-log lines; unset means no log at all. */
export const RECAPWRAP_DEBUG_LOG_ENV = 'RECAPWRAP_DEBUG_LOG';

export type { Env };

function homeOf(env: Env): string {
  return env.HOME && env.HOME.length > 0 ? env.HOME : homedir();
}

/**
 * An XDG base folder from the environment, or undefined when unset, empty or relative: the XDG Base
 * Directory spec says relative paths are invalid and must be ignored (a relative XDG_STATE_HOME used
 * to put recapwrap's state inside the project folder).
 */
export function xdgDirFrom(env: Env, name: string): string | undefined {
  const value = env[name];
  return value && isAbsolute(value) ? value : undefined;
}

// Live wrapper records, last recaps, session claims: $XDG_STATE_HOME/recapwrap (0700).
export function getStateDir(env: Env = process.env): string {
  if (env[RECAPWRAP_STATE_DIR_ENV]) return resolve(env[RECAPWRAP_STATE_DIR_ENV] as string);
  const base = xdgDirFrom(env, XDG_STATE_HOME_ENV) ?? join(homeOf(env), '.local', 'state');
  return join(base, 'recapwrap');
}

// Control sockets: $XDG_RUNTIME_DIR/recapwrap when it exists, else <state>/sockets.
export function getRuntimeDir(env: Env = process.env): string {
  const runtime = xdgDirFrom(env, XDG_RUNTIME_DIR_ENV);
  if (runtime && !env[RECAPWRAP_STATE_DIR_ENV]) return join(runtime, 'recapwrap');
  return join(getStateDir(env), 'sockets');
}

export function getConfigDir(env: Env = process.env): string {
  const base = xdgDirFrom(env, XDG_CONFIG_HOME_ENV) ?? join(homeOf(env), '.config');
  return join(base, 'recapwrap');
}

export function getConfigFile(env: Env = process.env): string {
  return join(getConfigDir(env), 'config.json');
}

/**
 * The project files the user trusted (`recapwrap config trust`): beside the global config file, in the
 * user's own config folder, never in a project.
 */
export function getTrustFile(env: Env = process.env): string {
  return join(getConfigDir(env), 'trusted-projects.json');
}

// Recap cache, keyed by (session, stamp, generator).
export function getCacheDir(env: Env = process.env): string {
  const base = xdgDirFrom(env, XDG_CACHE_HOME_ENV) ?? join(homeOf(env), '.cache');
  return join(base, 'recapwrap');
}

export function getHomeDir(env: Env = process.env): string {
  return homeOf(env);
}
