/**
 * The doctor's view of session memory: on or off (and what set it), the folders it keeps, the index file
 * (where, how big, how many sessions, when last written), and the SQLite that runs it (version, FTS5).
 * Reads the index read-only and never creates it; loaded only by `recapwrap doctor`.
 */
import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { resolveConfig } from '../../config/load.js';
import { getHomeDir, type Env } from '../../config/paths.js';
import type { CheckResult } from '../../types.js';
import { formatSince, shortenDir } from '../../util/age.js';
import { indexFile, memoryOffBy } from '../memory/api.js';

const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`);

// The SQLite better-sqlite3 bundles, and whether it has FTS5 (the index's full-text search needs it).
function checkSqlite(): CheckResult {
  try {
    const db = new Database(':memory:');
    try {
      const version = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
      let fts5 = true;
      try {
        db.exec('CREATE VIRTUAL TABLE t USING fts5(x)');
      } catch {
        fts5 = false;
      }
      return fts5
        ? { name: 'sqlite', status: 'ok', detail: `SQLite ${version} with FTS5 (better-sqlite3)` }
        : { name: 'sqlite', status: 'fail', detail: `SQLite ${version} without FTS5: the session index cannot search`, fix: 'reinstall recapwrap so better-sqlite3 builds its bundled SQLite (npm install in the clone)' };
    } finally {
      db.close();
    }
  } catch (error) {
    return { name: 'sqlite', status: 'fail', detail: `better-sqlite3 does not load: ${(error as Error).message}`, fix: 'npm install in the clone (better-sqlite3 builds with python3, make and a C++ compiler)' };
  }
}

export function checkMemory(env: Env, cwd: string, now = Date.now()): CheckResult[] {
  const home = getHomeDir(env);
  const { options } = resolveConfig({ env, cwd });
  const results: CheckResult[] = [];
  if (!options.memory) {
    results.push({ name: 'session memory', status: 'skip', detail: `off (${memoryOffBy(env, cwd)}): sessions, search, show, the picker and MCP have nothing to read` });
    return results;
  }
  const folders = options.memoryFolders ? `only ${options.memoryFolders.split(/[:,]/).map((f) => f.trim()).filter(Boolean).join(', ')}` : 'every folder';
  results.push({ name: 'session memory', status: 'ok', detail: `on, ${folders}` });
  const file = indexFile(env);
  const shown = shortenDir(file, home, 1000);
  if (!existsSync(file)) {
    results.push({ name: 'session index', status: 'skip', detail: `${shown}: not built yet (\`recapwrap index\` builds it; every memory command does first)` });
  } else {
    try {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      try {
        const row = db.prepare('SELECT count(*) AS n, max(indexed_at) AS last FROM sessions').get() as { n: number; last: number | null };
        const size = statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
        const last = row.last ? `, last written ${formatSince(new Date(row.last).toISOString(), now)} ago` : '';
        results.push({ name: 'session index', status: 'ok', detail: `${shown}: ${formatBytes(size)}, ${row.n} session${row.n === 1 ? '' : 's'}${last}` });
      } finally {
        db.close();
      }
    } catch (error) {
      results.push({ name: 'session index', status: 'warn', detail: `${shown} cannot be read: ${(error as Error).message}`, fix: '`recapwrap index` says what is wrong (a corrupt file is moved aside and rebuilt)' });
    }
  }
  results.push(checkSqlite());
  return results;
}
