/**
 * Where Codex keeps rollouts: `$CODEX_HOME` (default ~/.codex) /sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl,
 * dated in local time and not by project: the project is in the first line (session_meta.cwd).
 */
import { promises as fsp } from 'node:fs';
import { openRegular } from '../regular-file.js';
import { namesIn } from '../session-files.js';
import { join } from 'node:path';
import type { Env } from '../types.js';

export const CODEX_HOME_ENV = 'CODEX_HOME';

export function getCodexHome(env: Env, home: string): string {
  return env[CODEX_HOME_ENV] || join(home, '.codex');
}

export function getCodexSessionsDir(env: Env, home: string): string {
  return join(getCodexHome(env, home), 'sessions');
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The day folder for a local date. */
export function codexDayDir(sessions: string, date: Date): string {
  return join(sessions, String(date.getFullYear()), pad(date.getMonth() + 1), pad(date.getDate()));
}

/** The id at the end of a rollout file name (`rollout-2026-11-22T08-50-58-<uuid>.jsonl`). */
export function codexIdFromFileName(name: string): string | undefined {
  return /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(name)?.[1];
}

/** Day folders, newest first (YYYY/MM/DD), plus the old flat layout's root; at most `limit` days. */
export async function codexDayDirs(sessions: string, limit = 400): Promise<string[]> {
  const numeric = async (dir: string) => {
    try {
      return (await fsp.readdir(dir)).filter((n) => /^\d+$/.test(n)).sort().reverse();
    } catch {
      return [];
    }
  };
  const out: string[] = [];
  for (const y of await numeric(sessions)) {
    for (const m of await numeric(join(sessions, y))) {
      for (const d of await numeric(join(sessions, y, m))) {
        out.push(join(sessions, y, m, d));
        if (out.length >= limit) return out;
      }
    }
  }
  out.push(sessions);
  return out;
}

/** Every day folder (YYYY/MM/DD, any order) plus the old flat layout's root; synchronous (the index's listing). */
export function allCodexDayDirs(sessions: string): string[] {
  const numeric = (dir: string) => namesIn(dir).filter((n) => /^\d+$/.test(n));
  const out: string[] = [];
  for (const y of numeric(sessions)) {
    for (const m of numeric(join(sessions, y))) {
      for (const d of numeric(join(sessions, y, m))) out.push(join(sessions, y, m, d));
    }
  }
  out.push(sessions);
  return out;
}

/** The first line of a file (session_meta can be tens of KB: base instructions), read in chunks. */
export async function readFirstLine(file: string, maxBytes = 1024 * 1024): Promise<string | undefined> {
  let fh;
  try {
    fh = (await openRegular(file)).handle;
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < maxBytes) {
      const buf = Buffer.alloc(64 * 1024);
      const { bytesRead } = await fh.read(buf, 0, buf.length, total);
      if (bytesRead === 0) break;
      const part = buf.subarray(0, bytesRead);
      const nl = part.indexOf(0x0a);
      if (nl >= 0) {
        chunks.push(part.subarray(0, nl));
        return Buffer.concat(chunks).toString('utf8');
      }
      chunks.push(part);
      total += bytesRead;
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    await fh?.close();
  }
}
