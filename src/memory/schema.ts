/**
 * The index's schema as numbered migrations: a database at version N runs N+1… in one write
 * transaction; a fresh one runs them all. Never edit a shipped step: add one (names users gave survive
 * because no step drops or rewrites the sessions table).
 */
import type Database from 'better-sqlite3';

export const MIGRATIONS: readonly string[] = [
  // 1: sessions, their condensed text (FTS5), and the files the scan has seen.
  `CREATE TABLE sessions (
     rowid INTEGER PRIMARY KEY,
     id TEXT NOT NULL,
     agent TEXT NOT NULL,
     transcript TEXT NOT NULL UNIQUE,
     cwd TEXT NOT NULL,
     project TEXT NOT NULL,
     name TEXT NOT NULL,
     user_named INTEGER NOT NULL DEFAULT 0,
     title TEXT,
     headline TEXT NOT NULL DEFAULT '',
     line TEXT NOT NULL DEFAULT '',
     created_at INTEGER,
     updated_at INTEGER NOT NULL,
     model TEXT,
     git_branch TEXT,
     prompts INTEGER NOT NULL DEFAULT 0,
     turns INTEGER NOT NULL DEFAULT 0,
     tool_calls INTEGER NOT NULL DEFAULT 0,
     status TEXT NOT NULL DEFAULT 'empty',
     language TEXT NOT NULL DEFAULT 'en',
     tags TEXT NOT NULL DEFAULT '[]',
     generator TEXT NOT NULL DEFAULT '{"type":"heuristic"}',
     done TEXT NOT NULL DEFAULT '[]',
     next TEXT NOT NULL DEFAULT '[]',
     artifacts TEXT NOT NULL DEFAULT '[]',
     transcript_exists INTEGER NOT NULL DEFAULT 1,
     mark_size INTEGER NOT NULL DEFAULT 0,
     mark_mtime REAL NOT NULL DEFAULT 0,
     mark_entry TEXT NOT NULL DEFAULT '',
     indexed_at INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX sessions_updated ON sessions(updated_at DESC);
   CREATE UNIQUE INDEX sessions_cwd_name ON sessions(cwd, name);
   CREATE INDEX sessions_id ON sessions(id);
   CREATE INDEX sessions_name ON sessions(name);
   CREATE VIRTUAL TABLE session_text USING fts5(head, body, summary, tokenize = 'unicode61 remove_diacritics 2');
   CREATE TABLE files (
     transcript TEXT PRIMARY KEY,
     size INTEGER NOT NULL,
     mtime REAL NOT NULL,
     state TEXT NOT NULL
   ) WITHOUT ROWID;`,
  // 2: model summaries (description, summary, the prompts count they were written at) and the fork link.
  `ALTER TABLE sessions ADD COLUMN description TEXT;
   ALTER TABLE sessions ADD COLUMN summary TEXT;
   ALTER TABLE sessions ADD COLUMN summary_prompts INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE sessions ADD COLUMN parent TEXT;
   INSERT INTO session_text(session_text, rank) VALUES ('secure-delete', 1);`,
  // 3: FTS5's secure-delete off again: it made replacing one session's text cost ~20 ms (each of its
  // words looked up and cut out of the index at commit), 200 ms for ten grown sessions. Forgetting
  // rewrites the whole text index instead ('optimize' in store.ts), which leaves no version of a
  // forgotten session's text behind, the replaced ones included.
  `INSERT INTO session_text(session_text, rank) VALUES ('secure-delete', 0);`,
  // 4: the names in each session folder at its modification time (the refresh reads a folder again only
  // when that time changed: a stat instead of a readdir, ~900 of them on a home of 10,000 sessions).
  `CREATE TABLE dirs (
     path TEXT PRIMARY KEY,
     mtime REAL NOT NULL,
     names TEXT NOT NULL
   ) WITHOUT ROWID;`,
  // 5: the prompt count (and time) a live wrapper last asked for a model summary at, kept before the
  // detached summary starts: a later turn end (in a new memory worker, or another wrapper) asks again
  // only when the gate opens past it, not while one runs or after one failed.
  `ALTER TABLE sessions ADD COLUMN summary_asked INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE sessions ADD COLUMN summary_asked_at INTEGER NOT NULL DEFAULT 0;`,
  // 6: your own recap of a session (`recapwrap note`, generator user_edited: no rewrite replaces it) and
  // when you wrote it; the sessions forked from one found by their parent.
  `ALTER TABLE sessions ADD COLUMN user_note TEXT;
   ALTER TABLE sessions ADD COLUMN user_note_at INTEGER;
   CREATE INDEX sessions_parent ON sessions(parent);`,
  // 7: a fingerprint of the size and mtime of each session file of a folder at the last sweep that read
  // them all (a sweep compares a folder's files with the index only when it moved), and the files by
  // mtime (a read's quick refresh looks at the sessions active lately only).
  `ALTER TABLE dirs ADD COLUMN files TEXT NOT NULL DEFAULT '';
   CREATE INDEX files_mtime ON files(mtime);`,
  // 8: search that finds sessions the way people remember them (issue 32): the text index with English
  // word forms (porter) and without a copy of the text (contentless: it holds what indexText() made of
  // the text, CJK runs as bigrams); the readable condensed text in session_body (snippets are cut from
  // it; it goes with its session row). The old text is kept and indexed again as it was; every indexed
  // file is marked to be read again, whole (mtime and size 0, the row's mark too: a big file is not read
  // from its mark onto the old text; no folder's fingerprint of step 7 trusted), so the next full sweep
  // writes each session's new text.
  `CREATE TABLE session_body (rowid INTEGER PRIMARY KEY, text TEXT NOT NULL);
   INSERT INTO session_body(rowid, text) SELECT rowid, body FROM session_text;
   DROP TABLE session_text;
   CREATE VIRTUAL TABLE session_text USING fts5(head, body, summary, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2');
   INSERT INTO session_text(rowid, head, body, summary)
     SELECT s.rowid, replace(s.name, '-', ' ') || char(10) || coalesce(s.title, '') || char(10) || s.headline || char(10) || s.tags || char(10) || s.project,
       coalesce(b.text, ''), coalesce(s.user_note, '') || char(10) || coalesce(s.description, '') || char(10) || coalesce(s.summary, '') || char(10) || s.done || char(10) || s.next
     FROM sessions s LEFT JOIN session_body b ON b.rowid = s.rowid;
   CREATE TRIGGER session_body_drop AFTER DELETE ON sessions BEGIN DELETE FROM session_body WHERE rowid = old.rowid; END;
   UPDATE files SET mtime = 0, size = 0 WHERE state = 'indexed';
   UPDATE sessions SET mark_size = 0;
   UPDATE dirs SET files = '';`,
  // 9: secrets masked by the rules of issue 40 (a generated value after a secret's name at any length: long
  // hex of `openssl rand -hex 32` was kept; keypairs, seed phrases, Azure keys, .netrc, .pgpass, …). No
  // table changes: open-store.ts masks every stored text again in place, in this step's transaction.
  `SELECT 1;`,
  // 10: every word a session holds (issue 42): its vocabulary (vocabulary.ts: every distinct word of every
  // text it holds, tool output whole, secrets masked, generated tokens left out), words as typed (case
  // folded, no stems; `-` and `_` join a word) with no position (detail none: an index of which
  // session holds which word, and its vocab for the "did you mean" hint). A session's words are rows
  // rowid = part * 2^32 + its rowid (a big file read from its mark adds a part; read whole, one part 0,
  // whose rowid is the session's: close rowids keep FTS5's doclists small); word_parts counts them. Every indexed file is read again, as in step 8, so each row gets its words;
  // a row whose transcript is gone gets those of its kept text (open-store.ts).
  `CREATE VIRTUAL TABLE session_words USING fts5(words, content = '', contentless_delete = 1, detail = none, tokenize = "unicode61 remove_diacritics 2 tokenchars '-_'");
   CREATE VIRTUAL TABLE session_words_vocab USING fts5vocab(session_words, 'row');
   ALTER TABLE sessions ADD COLUMN word_parts INTEGER NOT NULL DEFAULT 0;
   UPDATE files SET mtime = 0, size = 0 WHERE state = 'indexed';
   UPDATE sessions SET mark_size = 0;
   UPDATE dirs SET files = '';`,
  // 11: how far into its transcript a session's words hold every word (the file's size when its texts were
  // read for them; 0: not known to, as words of the parsed events only). A file that grew from exactly
  // there has only its new texts' words added (scan.ts), not all of them written again.
  `ALTER TABLE sessions ADD COLUMN words_at INTEGER NOT NULL DEFAULT 0;`,
  // 12: the refreshes reading many session files now (scan.ts): each keeps its process id and the time of
  // its last batch here, so a read that finds one alive answers from the last commit instead of reading
  // the same files too (a `search` run while `index` built a 10,000-session index read them all again).
  `CREATE TABLE refreshes (pid INTEGER PRIMARY KEY, beat INTEGER NOT NULL);`,
];

/**
 * A session's rows in session_words: rowid = part * WORD_PART_STRIDE + the session's rowid (part 0's rowid
 * is the session's). FTS5 stores each word's sessions as rowid deltas: sessions side by side cost a byte
 * each (rowid * 2^20 + part, a stride of 2^20 between sessions, cost three or four).
 */
export const WORD_PART_STRIDE = 2 ** 32;
/** Most parts of one session (part * stride + rowid stays an exact integer). */
export const WORD_PARTS_MAX = 2 ** 20;

export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Bring the database to `upTo` (default: the latest); returns the version it was at. The version is read
 * first without a lock: a current database (every open but the first after an upgrade) takes no write
 * lock, so a reader never waits for a writer (in WAL mode it reads the last commit). Only a database
 * behind takes the write lock, and reads the version again inside it (another process may have migrated).
 * `fresh` runs inside that transaction when the database was new (version 0), `upgraded` when it was older.
 */
export function migrate(db: Database.Database, upTo = SCHEMA_VERSION, hooks: { fresh?: () => void; upgraded?: (from: number) => void } = {}): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) throw newerError(current);
  if (current >= upTo) return current;
  const run = db.transaction(() => {
    const at = db.pragma('user_version', { simple: true }) as number;
    if (at > SCHEMA_VERSION) throw newerError(at);
    for (let v = at; v < upTo; v++) db.exec(MIGRATIONS[v] as string);
    if (at < upTo) db.pragma(`user_version = ${upTo}`);
    // A new database (first run, or one rebuilt after corruption): its first rows, in the same transaction,
    // before any other process can write to it (the forgotten list's marks).
    if (at === 0) hooks.fresh?.();
    // An index of an older version: what the steps cannot do in SQL (masking secrets again), same transaction.
    else if (at < upTo) hooks.upgraded?.(at);
    return at;
  });
  return run.immediate();
}

function newerError(at: number): Error {
  return Object.assign(new Error(`Expected a session index of version ${SCHEMA_VERSION} or older, got version ${at} (written by a newer recapwrap)`), { code: 'RECAPWRAP_NEWER' });
}
