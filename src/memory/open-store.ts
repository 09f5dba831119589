/**
 * Opening `<state>/index.db` safely: the folder is private (0700, ours, no link), the file is a regular
 * file of ours (never a planted symlink), 0600, WAL with a busy timeout so concurrent writers wait rather
 * than fail. A corrupt or unreadable database is moved aside (kept), reported in one warning, and rebuilt.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, constants, existsSync, lstatSync, openSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ensurePrivateDir, UnsafeFolderError } from '../util/safe-fs.js';
import { readForgotten } from './forgotten.js';
import { migrate } from './schema.js';
import { Store } from './store.js';

/** How long a writer waits for another's lock before giving up (20 wrappers at once wait, never fail). */
export const BUSY_TIMEOUT_MS = 15_000;

export type OpenStoreResult = { ok: true; store: Store; warning?: string } | { ok: false; error: string };

function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

// Why this path may not be opened, or undefined; creates the file (0600, no link followed) when missing.
function checkFile(file: string): string | undefined {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    let st;
    try {
      st = lstatSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return `cannot use ${path}: ${(error as NodeJS.ErrnoException).code}`;
      if (path === file) {
        try {
          closeSync(openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600));
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return `cannot create ${file}: ${(e as NodeJS.ErrnoException).code}`;
          return checkFile(file); // another process created it first
        }
      }
      continue;
    }
    if (st.isSymbolicLink()) return `${path} is a symbolic link; recapwrap opens only a real file of yours there`;
    if (!st.isFile()) return `${path} is not a regular file`;
    const uid = currentUid();
    if (uid !== undefined && st.uid !== uid) return `${path} belongs to uid ${st.uid}, not to you (uid ${uid})`;
    if ((st.mode & 0o077) !== 0) chmodSync(path, 0o600);
  }
  return undefined;
}

function isCorrupt(error: unknown): boolean {
  const code = String((error as { code?: unknown }).code ?? '');
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';
}

/** The schema step from which every stored text was masked before any cut (#33; step 8 reads again the files still there). */
const REMASKED_AT = 8;
/** The schema step from which every stored text was masked by the rules of issue 40 (step 9). */
const MASK_RULES_AT = 9;
/** The schema step that added each session's vocabulary (the rows no refresh reads again get it from their kept text). */
const WORDS_AT = 10;

/** The forgotten list beside the index (forgotten.ts). */
export const forgottenFileOf = (file: string) => join(dirname(file), 'forgotten');

// better-sqlite3 finds its addon through the `bindings` package, which require()s one candidate path after
// another: loading it and the failed requires (with their errors) before build/Release cost ~2-3 ms of every
// command that opens the index. Where the addon is build/Release/'s and neither place bindings tries
// before it holds one, it is named instead (the file bindings would load); else bindings looks as before.
let addonPath: string | null | undefined;
function nativeAddon(): string | undefined {
  if (addonPath === undefined) {
    addonPath = null;
    try {
      const root = dirname(dirname(createRequire(import.meta.url).resolve('better-sqlite3')));
      const release = join(root, 'build', 'Release', 'better_sqlite3.node');
      if (!existsSync(join(root, 'build', 'better_sqlite3.node')) && !existsSync(join(root, 'build', 'Debug', 'better_sqlite3.node')) && existsSync(release)) addonPath = release;
    } catch {
      // Not found from here: bindings looks for it.
    }
  }
  return addonPath ?? undefined;
}

function connect(file: string, busyMs: number): Store {
  const addon = nativeAddon();
  const db = new Database(file, addon === undefined ? { timeout: busyMs } : { timeout: busyMs, nativeBinding: addon });
  const store = new Store(db, { index: file, forgotten: forgottenFileOf(file) });
  try {
    db.pragma(`busy_timeout = ${busyMs}`);
    // A new file gives its freed pages back to the disk when asked (Store.compact after a merge of the text
    // indexes): only an empty database takes this, before its first page is written (WAL mode writes one).
    if (db.pragma('page_count', { simple: true }) === 0) db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('secure_delete = ON');
    db.pragma('foreign_keys = OFF');
    // A new index (the first, or one rebuilt after corruption or a deletion) starts with the forgotten list's
    // marks: no rebuild indexes a forgotten session again.
    migrate(db, undefined, {
      fresh: () => {
        const mark = db.prepare("INSERT INTO files(transcript, size, mtime, state) VALUES (?, 0, 0, 'forgotten') ON CONFLICT(transcript) DO UPDATE SET state = 'forgotten'");
        for (const e of readForgotten(forgottenFileOf(file))) mark.run(e.transcript);
      },
      // Written before every text was masked before any cut: the rows no refresh reads again, masked again.
      // Written under older masking rules: every row masked again in place (a read finds none of what the
      // new rules mask, without waiting for a sweep to read every file again).
      upgraded: (from) => {
        if (from < MASK_RULES_AT) store.remask('all');
        else if (from < REMASKED_AT) store.remask('unread');
        if (from < WORDS_AT) store.fillWordsUnread();
      },
    });
    db.prepare('SELECT count(*) FROM sessions').get();
    return store;
  } catch (error) {
    db.close();
    throw error;
  }
}

function moveAside(file: string, now: number): string {
  const aside = `${file}.corrupt-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
  renameSync(file, aside);
  for (const suffix of ['-wal', '-shm']) {
    try {
      renameSync(file + suffix, aside + suffix);
    } catch {
      // not there: nothing to keep
    }
  }
  return aside;
}

/** Open (creating or migrating) the index at `file`; never throws. */
export function openStore(file: string, opts: { now?: number; busyMs?: number } = {}): OpenStoreResult {
  const now = opts.now ?? Date.now();
  const busyMs = opts.busyMs ?? BUSY_TIMEOUT_MS;
  try {
    ensurePrivateDir(dirname(file));
  } catch (error) {
    return { ok: false, error: error instanceof UnsafeFolderError ? error.message : `cannot use ${dirname(file)}: ${(error as Error).message}` };
  }
  const problem = checkFile(file);
  if (problem) return { ok: false, error: problem };
  try {
    return { ok: true, store: connect(file, busyMs) };
  } catch (error) {
    if ((error as { code?: string }).code === 'RECAPWRAP_NEWER') return { ok: false, error: (error as Error).message };
    if (!isCorrupt(error)) return { ok: false, error: `cannot open the session index ${file}: ${(error as Error).message}` };
    let aside: string;
    try {
      aside = moveAside(file, now);
    } catch (e) {
      return { ok: false, error: `the session index ${file} is unreadable and could not be moved aside: ${(e as Error).message}` };
    }
    const warning = `the session index ${file} was unreadable (${(error as { code?: string }).code}); kept it as ${aside} (\`recapwrap forget\` deletes such copies) and started a new one`;
    const again = checkFile(file);
    if (again) return { ok: false, error: again };
    try {
      return { ok: true, store: connect(file, busyMs), warning };
    } catch (e) {
      return { ok: false, error: `cannot open the session index ${file}: ${(e as Error).message}` };
    }
  }
}
