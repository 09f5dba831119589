/**
 * The project files the user trusted (`recapwrap config trust`), each by its real path and the sha256 of
 * the content trusted: an edit makes the file untrusted again, as a moved file is. Kept in the user's own
 * config folder (paths.ts), written atomically (0600); read only when it is the user's and no one
 * else's to write, since it decides what a project file may make recapwrap do.
 */
import { realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ensurePrivateDir, writeFileAtomic } from '../util/safe-fs.js';
import { findProjectConfig, PROJECT_CONFIG_FILE, readConfigFileSafely, sha256Of } from './config-file.js';
import { getHomeDir, getTrustFile, type Env } from './paths.js';
import { splitProjectKeys } from './project-rule.js';

export interface TrustEntry {
  /** sha256 of the file's bytes when the user trusted it (hex). */
  sha256: string;
  /** When (ISO 8601). */
  trustedAt: string;
}

export interface TrustList {
  file: string;
  /** By real path of the project file. */
  entries: Record<string, TrustEntry>;
  /** Why the list was not read (then nothing is trusted). */
  problem?: string;
}

const LIST_VERSION = 1;
const SHA256_HEX = /^[0-9a-f]{64}$/;

export function readTrustList(env: Env): TrustList {
  const file = getTrustFile(env);
  const read = readConfigFileSafely(file, 'project');
  if (read.kind === 'missing') return { file, entries: {} };
  if (read.kind === 'refused') return { file, entries: {}, problem: `ignored the trust list: ${read.verdict.message}` };
  if (read.kind === 'unreadable') return { file, entries: {}, problem: read.message };
  const entries: Record<string, TrustEntry> = {};
  try {
    const value = JSON.parse(read.bytes.toString('utf8')) as { trusted?: unknown };
    const trusted = value && typeof value === 'object' && value.trusted && typeof value.trusted === 'object' ? (value.trusted as Record<string, unknown>) : {};
    for (const [path, raw] of Object.entries(trusted)) {
      const e = raw as Partial<TrustEntry> | null;
      // Skip malformed entries: what is left of the list still holds.
      if (e && typeof e.sha256 === 'string' && SHA256_HEX.test(e.sha256) && typeof e.trustedAt === 'string') entries[path] = { sha256: e.sha256, trustedAt: e.trustedAt };
    }
  } catch (error) {
    return { file, entries: {}, problem: `Cannot read ${file}: ${(error as Error).message}` };
  }
  return { file, entries };
}

/** Replace the list (its folder made 0700 when missing, and refused when it is not the user's alone). Throws with the reason. */
export function saveTrustList(env: Env, entries: Record<string, TrustEntry>): void {
  const file = getTrustFile(env);
  ensurePrivateDir(dirname(file));
  const sorted = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => a.localeCompare(b)));
  writeFileAtomic(file, JSON.stringify({ version: LIST_VERSION, trusted: sorted }, null, 2) + '\n');
}

/** Whether this content of this file is trusted: 'trusted', 'changed' (trusted once, edited since) or 'none'. */
export function trustOf(list: TrustList, realPath: string, sha256: string): 'trusted' | 'changed' | 'none' {
  const entry = list.entries[realPath];
  if (!entry) return 'none';
  return entry.sha256 === sha256 ? 'trusted' : 'changed';
}

/** The project file a `config trust|untrust [PATH]` means: PATH (a file, or a folder holding one), else this folder's. */
function targetFile(env: Env, cwd: string, given: string | undefined): string | { error: string } {
  if (given === undefined) {
    const found = findProjectConfig(cwd, getHomeDir(env));
    return found ?? { error: `no ${PROJECT_CONFIG_FILE} in ${cwd} or a parent (the walk stops below your home, or at the repository root); name the file` };
  }
  const path = resolve(cwd, given);
  try {
    if (statSync(path).isDirectory()) return join(path, PROJECT_CONFIG_FILE);
  } catch {
    // Not there: said by the caller, with what it meant to do.
  }
  return path;
}

export type TrustOutcome =
  | { ok: true; file: string; sha256: string; already: boolean; unlocked: Array<{ key: string; value: unknown }> }
  | { ok: false; message: string };

/**
 * `recapwrap config trust [PATH]`: trust this content of a project file, so every key of it is taken. A
 * file the rule refuses (someone else's, writable by others, in a world-writable folder) or that is no
 * JSON object cannot be trusted. The keys the trust unlocks are returned with their values, to be shown.
 */
export function trustProjectFile(env: Env, cwd: string, given: string | undefined, now = new Date()): TrustOutcome {
  const target = targetFile(env, cwd, given);
  if (typeof target !== 'string') return { ok: false, message: target.error };
  const read = readConfigFileSafely(target, 'project');
  if (read.kind === 'missing') return { ok: false, message: `no such file: ${target}` };
  if (read.kind === 'refused') return { ok: false, message: `cannot trust it: ${read.verdict.message}` };
  if (read.kind === 'unreadable') return { ok: false, message: read.message };
  if (read.linked) return { ok: false, message: `cannot trust ${target}: it is a link to ${read.realPath}, and a trust holds for a file where it lies, never through a link (put a copy there to trust it)` };
  let values: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(read.bytes.toString('utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, message: `Expected ${target} to hold a JSON object` };
    values = parsed as Record<string, unknown>;
  } catch (error) {
    return { ok: false, message: `Cannot read ${target}: ${(error as Error).message}` };
  }
  const list = readTrustList(env);
  if (list.problem) return { ok: false, message: `cannot update the trust list: ${list.problem}` };
  const sha256 = sha256Of(read.bytes);
  const already = trustOf(list, read.realPath, sha256) === 'trusted';
  if (!already) {
    try {
      saveTrustList(env, { ...list.entries, [read.realPath]: { sha256, trustedAt: now.toISOString() } });
    } catch (error) {
      return { ok: false, message: `cannot write ${list.file}: ${(error as Error).message}` };
    }
  }
  const unlocked = splitProjectKeys(Object.keys(values), 'none').held.map(({ key }) => ({ key, value: values[key] }));
  return { ok: true, file: read.realPath, sha256, already, unlocked };
}

/** `recapwrap config untrust [PATH]`: take the trust back (the file need not exist any more). */
export function untrustProjectFile(env: Env, cwd: string, given: string | undefined): { ok: true; file: string } | { ok: false; message: string } {
  const target = targetFile(env, cwd, given);
  if (typeof target !== 'string') return { ok: false, message: target.error };
  const list = readTrustList(env);
  if (list.problem) return { ok: false, message: `cannot update the trust list: ${list.problem}` };
  let real = target;
  try {
    real = realpathSync(target);
  } catch {
    // Gone: its entry is under the path it had.
  }
  const key = [real, target].find((k) => list.entries[k] !== undefined);
  if (!key) {
    const known = Object.keys(list.entries);
    return { ok: false, message: `${target} is not trusted${known.length ? ` (trusted: ${known.join(', ')})` : ' (no project file is)'}` };
  }
  const rest = { ...list.entries };
  delete rest[key];
  try {
    saveTrustList(env, rest);
  } catch (error) {
    return { ok: false, message: `cannot write ${list.file}: ${(error as Error).message}` };
  }
  return { ok: true, file: key };
}
