/**
 * Where tests find real agent files.
 * - The project's own fixtures, in the repo: test/fixtures/transcripts/<agent>/ (session files) and
 *   test/fixtures/screens/ (terminal captures), made by the real agent CLIs against the fake model
 *   (test/fixtures/make-fixtures.ts, README there).
 * - Third-party transcripts in ../shared/recap-corpus: other people's sessions, read at test time and never
 *   copied into the repo. A clone without ../shared skips the tests that need them (vitest.config.ts
 *   says so in one line); under CI (CI=true) they must be there, so those tests run and fail loudly.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES_DIR = join(REPO_DIR, 'test', 'fixtures');
/** Real session files of each agent: `<agent>/print-2turns.jsonl`, `interactive-2turns.jsonl`, … */
export const TRANSCRIPTS_DIR = join(FIXTURES_DIR, 'transcripts');
/** Raw terminal output of each agent's TUI: `<agent>-interactive.raw`. */
export const SCREENS_DIR = join(FIXTURES_DIR, 'screens');

export const SHARED_DIR = process.env.RECAPWRAP_SHARED_DIR ?? resolve(REPO_DIR, '..', 'shared');
export const RECAP_CORPUS_DIR = join(SHARED_DIR, 'recap-corpus');
/**
 * @deprecated The agent fixtures of ../shared, absent from a fresh clone: use TRANSCRIPTS_DIR or
 * SCREENS_DIR. Kept so tests written before the move still compile.
 */
export const AGENT_FIXTURES_DIR = join(SHARED_DIR, 'agents', 'fixtures');

/** Whether the third-party recap corpus is here. */
export function hasCorpus(): boolean {
  return existsSync(RECAP_CORPUS_DIR);
}

/**
 * Run the tests that read ../shared/recap-corpus only when it is here: a user's clone has no ../shared,
 * also when their CI sets CI=true (vitest.config.ts says in one line that they are skipped).
 */
export const corpusPresent = hasCorpus();

/** @deprecated Same as hasCorpus() (the agent fixtures now live in the repo). */
export function hasShared(): boolean {
  return hasCorpus();
}
