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

describe('refreshIndex', () => {
  it('reads only what was appended to a big session file, keeping what the row knew', async () => {
    const { openStore } = await import('../../memory/open-store.js');
    const { refreshIndex, TAIL_READ_MIN_BYTES } = await import('./scan.js');
    const { defaultOptions } = await import('../../config/options-table.js');
    const { appendFileSync, readFileSync, writeFileSync, statSync } = await import('node:fs');
    const { encodePiCwd } = await import('../../transcripts/pi/paths.js');
    const home = join(root, 'big');
    const dir = join(home, '.pi', 'agent', 'sessions', encodePiCwd('/work/big'));
    mkdirSync(dir, { recursive: true });
    const file = join(dir, '2026-11-20T10-00-00-000Z_big.jsonl');
    const t = (i: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, 0) + i * 1000).toISOString();
    const msg = (id: string, parent: string | null, role: string, text: string, i: number) =>
      JSON.stringify({ type: 'message', id, parentId: parent, timestamp: t(i), message: role === 'user' ? { role, content: [{ type: 'text', text }], timestamp: i } : { role, content: [{ type: 'text', text }], provider: 'x', model: 'm', stopReason: 'stop', timestamp: i } });
    const lines = [JSON.stringify({ type: 'session', version: 3, id: 'big', timestamp: t(0), cwd: '/work/big' }), msg('u0', null, 'user', 'port the parser to rust', 1)];
    let parent = 'u0';
    const filler = 'lorem ipsum '.repeat(400);
    for (let i = 0; lines.join('\n').length < TAIL_READ_MIN_BYTES + 100_000; i++) {
      lines.push(msg(`a${i}`, parent, 'assistant', `step ${i}: ${filler}`, i + 2));
      parent = `a${i}`;
    }
    writeFileSync(file, lines.join('\n') + '\n');
    const opened = openStore(join(root, 'big-state', 'index.db'));
    if (!opened.ok) throw new Error(opened.error);
    const store = opened.store;
    const ctx = { env: { HOME: home }, home, cwd: root, folders: [], options: defaultOptions() };
    await refreshIndex(store, ctx);
    const first = store.byTranscript(file);
    expect(first).toMatchObject({ cwd: '/work/big', counts: { prompts: 1 } });
    // Blank out the header: a whole re-read would lose the folder; reading from the mark keeps it.
    const text = readFileSync(file, 'utf8');
    const header = text.indexOf('\n');
    writeFileSync(file, ' '.repeat(header) + text.slice(header));
    appendFileSync(file, msg('u1', parent, 'user', 'now benchmark the quokka allocator', 99999) + '\n');
    const stats = await refreshIndex(store, ctx);
    expect(stats).toMatchObject({ read: 1, indexed: 1 });
    const grown = store.byTranscript(file);
    expect(grown).toMatchObject({ cwd: '/work/big', name: first?.name, counts: { prompts: 2 }, mark: { size: statSync(file).size } });
    expect(store.search('quokka')).toMatchObject({ hits: [expect.objectContaining({ transcript: file })] });
    expect(store.search('rust')).toMatchObject({ hits: [expect.objectContaining({ transcript: file })] });
    store.close();
  });

  it('maxFiles: reads at most that many changed files, the newest; the rest on the next refresh', async () => {
    const { openStore } = await import('../../memory/open-store.js');
    const { refreshIndex } = await import('./scan.js');
    const { defaultOptions } = await import('../../config/options-table.js');
    const home = join(root, 'bounded');
    const placed = [];
    for (const agent of ['pi', 'claude', 'codex'] as const) placed.push(await layOutSession(home, agent, join(TRANSCRIPTS_DIR, agent, 'interactive-2turns.jsonl')));
    const opened = openStore(join(root, 'bounded-state', 'index.db'));
    if (!opened.ok) throw new Error(opened.error);
    const ctx = { env: { HOME: home }, home, cwd: root, folders: [], options: defaultOptions() };
    expect(await refreshIndex(opened.store, ctx, { maxFiles: 1 })).toMatchObject({ files: 3, read: 1 });
    expect(opened.store.count()).toBe(1);
    expect(await refreshIndex(opened.store, ctx)).toMatchObject({ files: 3, read: 2 });
    expect(opened.store.count()).toBe(3);
    opened.store.close();
  });
});
