// The scan finds every agent's session files in every folder, under the default homes and wherever the
// agents' environment variables move them (real files: the project's fixtures laid out as each agent would).
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { layOutSession } from '../../../test/helpers/agent-homes.js';
import { TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import { AGENT_IDS } from '../../transcripts/types.js';
import { allowedFolders, folderAllowed, listAllSessionFiles } from './scan.js';

const root = mkdtempSync(join(tmpdir(), 'rw-scan-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('listAllSessionFiles', () => {
  it('finds every agent in every folder under the default homes', async () => {
    const home = join(root, 'home');
    const placed = [];
    for (const agent of AGENT_IDS) for (const f of ['print-2turns.jsonl', 'interactive-2turns.jsonl']) placed.push(await layOutSession(home, agent, join(TRANSCRIPTS_DIR, agent, f)));
    const found = await listAllSessionFiles({ env: { HOME: home }, home, cwd: root });
    expect(found.map((f) => f.file).sort()).toEqual(placed.map((p) => p.file).sort());
  });

  it('follows CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, PI_CODING_AGENT_DIR, PI_CODING_AGENT_SESSION_DIR and QWEN_HOME', async () => {
    const moved = join(root, 'moved');
    const placed = [];
    for (const agent of AGENT_IDS) placed.push(await layOutSession(moved, agent, join(TRANSCRIPTS_DIR, agent, 'print-2turns.jsonl')));
    const piOnly = join(root, 'pi-only');
    mkdirSync(piOnly);
    copyFileSync(join(TRANSCRIPTS_DIR, 'pi', 'interactive-2turns.jsonl'), join(piOnly, '2026-11-23T14-22-13-274Z_x.jsonl'));
    const emptyHome = join(root, 'empty');
    mkdirSync(emptyHome);
    const env = {
      HOME: emptyHome,
      CLAUDE_CONFIG_DIR: join(moved, '.claude'),
      CODEX_HOME: join(moved, '.codex'),
      GEMINI_CLI_HOME: moved,
      PI_CODING_AGENT_DIR: join(moved, '.pi', 'agent'),
      PI_CODING_AGENT_SESSION_DIR: piOnly,
      QWEN_HOME: join(moved, '.qwen'),
    };
    const found = await listAllSessionFiles({ env, home: emptyHome, cwd: root });
    expect(found.map((f) => f.file).sort()).toEqual([...placed.map((p) => p.file), join(piOnly, '2026-11-23T14-22-13-274Z_x.jsonl')].sort());
    expect(await listAllSessionFiles({ env: { HOME: emptyHome }, home: emptyHome, cwd: root })).toEqual([]);
  });
});

describe('memoryFolders', () => {
  it('expands ~, drops relative entries, and matches a folder and what is below it', () => {
    const folders = allowedFolders('~/work: /srv/oss/ ,relative', '/home/u');
    expect(folders).toEqual(['/home/u/work', '/srv/oss']);
    expect(folderAllowed('/home/u/work', folders)).toBe(true);
    expect(folderAllowed('/home/u/work/api', folders)).toBe(true);
    expect(folderAllowed('/home/u/workshop', folders)).toBe(false);
    expect(folderAllowed('/anything', [])).toBe(true);
  });
});
