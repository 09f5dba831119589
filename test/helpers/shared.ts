/** Where ../shared is (agent fixtures, recap corpus): read at test time, never copied into the repo. */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHARED_DIR = process.env.RECAPWRAP_SHARED_DIR ?? resolve(REPO_DIR, '..', 'shared');
export const AGENT_FIXTURES_DIR = join(SHARED_DIR, 'agents', 'fixtures');
export const RECAP_CORPUS_DIR = join(SHARED_DIR, 'recap-corpus');

/** CI has ../shared; a bare clone elsewhere may not. Tests that need it fail loudly under CI. */
export function hasShared(): boolean {
  return existsSync(AGENT_FIXTURES_DIR) && existsSync(RECAP_CORPUS_DIR);
}
