// Where the branches of one day met in the memory commands: what one command's JSON says of a session
// the others say alike. Real SQLite under a temp state folder, the command's own code (runMemoryCommand).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexFile } from '../../app/memory/api.js';
import { openStore } from '../../memory/open-store.js';
import type { SessionWrite } from '../../memory/types.js';
import { runMemoryCommand, type MemoryDeps } from './memory-run.js';

const root = mkdtempSync(join(tmpdir(), 'rw-mem-seams-'));
const home = join(root, 'home');
const env = { HOME: home, RECAPWRAP_STATE_DIR: join(root, 'state'), RECAPWRAP_GENERATOR: 'heuristic' };
const NOW = Date.parse('2026-11-25T12:00:00Z');
const deps: MemoryDeps = { env, cwd: home, now: NOW, columns: 120, color: false };

function write(id: string, task: string, over: Partial<SessionWrite> = {}): SessionWrite {
  const transcript = join(root, 't', `${id}.jsonl`);
  writeFileSync(transcript, '{}\n');
  return {
    id, agent: 'pi', transcript, cwd: '/srv/shop', project: 'shop', headline: task, line: 'recap: x', updatedAt: NOW - 60_000,
    counts: { prompts: 1, turns: 1, toolCalls: 0 }, status: 'idle', language: 'en', tags: [], generator: { type: 'heuristic' },
    done: [], next: [], artifacts: [], text: `> ${task}`, nameHints: { task, files: [], commands: [] }, mark: { size: 3, mtimeMs: 1, entry: 's' }, ...over,
  };
}

beforeAll(() => {
  mkdirSync(join(root, 't'), { recursive: true });
  mkdirSync(home, { recursive: true });
  const opened = openStore(indexFile(env));
  if (!opened.ok) throw new Error(opened.error);
  opened.store.upsert(write('parent-0001', 'migrate the zebrafish tables'));
  // pi names its parent by the parent's file path.
  opened.store.upsert(write('child-0002', 'finish the zebrafish migration', { parent: join(root, 't', 'parent-0001.jsonl'), updatedAt: NOW }));
  opened.store.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the memory commands where the branches met', () => {
  it('search --json names a fork\'s parent as sessions --json does: its id and name', async () => {
    const listed = JSON.parse((await runMemoryCommand('sessions', [], { json: true }, deps)).out) as Array<{ id: string; parent?: string; parentName?: string }>;
    const child = listed.find((r) => r.id === 'child-0002');
    expect(child).toMatchObject({ parent: 'parent-0001', parentName: expect.stringContaining('zebrafish') });
    const hits = JSON.parse((await runMemoryCommand('search', ['zebrafish'], { json: true }, deps)).out) as Array<{ id: string; parent?: string; parentName?: string }>;
    expect(hits.find((h) => h.id === 'child-0002')).toMatchObject({ parent: child?.parent, parentName: child?.parentName });
  });
});
