// The scan finds every agent's session files in every folder, under the default homes and wherever the
// agents' environment variables move them (real files: the project's fixtures laid out as each agent would).
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { layOutSession } from '../../../test/helpers/agent-homes.js';
import { TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import { AGENT_IDS } from '../../transcripts/types.js';
import { allowedFolders, folderAllowed, listAllSessionFiles } from './scan.js';

const root = mkdtempSync(join(tmpdir(), 'rw-scan-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * The lines of a pi session over TAIL_READ_MIN_BYTES (a big file: read from its mark once indexed) in a
 * home of its own under `root`: its header, the first prompt "port the parser to rust", then assistant
 * steps. `msg` makes more lines of it, `last` is the id the chain goes on from, `at` the next time.
 */
async function bigPiSession(name: string) {
  const { TAIL_READ_MIN_BYTES } = await import('./scan.js');
  const { encodePiCwd } = await import('../../transcripts/pi/paths.js');
  const home = join(root, name);
  const cwd = `/work/${name}`;
  const dir = join(home, '.pi', 'agent', 'sessions', encodePiCwd(cwd));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `2026-11-20T10-00-00-000Z_${name}.jsonl`);
  const t = (i: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, 0) + i * 1000).toISOString();
  const msg = (id: string, parent: string | null, role: string, text: string, i: number) =>
    JSON.stringify({ type: 'message', id, parentId: parent, timestamp: t(i), message: role === 'user' ? { role, content: [{ type: 'text', text }], timestamp: i } : { role, content: [{ type: 'text', text }], provider: 'x', model: 'm', stopReason: 'stop', timestamp: i } });
  const lines = [JSON.stringify({ type: 'session', version: 3, id: name, timestamp: t(0), cwd }), msg('u0', null, 'user', 'port the parser to rust', 1)];
  let last = 'u0';
  let at = 2;
  const filler = 'lorem ipsum '.repeat(400);
  while (lines.join('\n').length < TAIL_READ_MIN_BYTES + 100_000) {
    lines.push(msg(`a${at}`, last, 'assistant', `step ${at}: ${filler}`, at));
    last = `a${at++}`;
  }
  return { home, cwd, file, msg, lines, last, at };
}

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
  it('adds only the words of the new texts of a small file that grew from where its words were whole (words_at)', async () => {
    const { openStore } = await import('../../memory/open-store.js');
    const { refreshIndex } = await import('./scan.js');
    const { defaultOptions } = await import('../../config/options-table.js');
    const { encodePiCwd } = await import('../../transcripts/pi/paths.js');
    const home = join(root, 'grown');
    const dir = join(home, '.pi', 'agent', 'sessions', encodePiCwd('/work/grown'));
    mkdirSync(dir, { recursive: true });
    const file = join(dir, '2026-11-20T10-00-00-000Z_grown.jsonl');
    const t = (i: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, 0) + i * 1000).toISOString();
    const msg = (id: string, parent: string | null, role: string, text: string, i: number) =>
      JSON.stringify({ type: 'message', id, parentId: parent, timestamp: t(i), message: role === 'user' ? { role, content: [{ type: 'text', text }], timestamp: i } : { role, content: [{ type: 'text', text }], provider: 'x', model: 'm', stopReason: 'stop', timestamp: i } });
    writeFileSync(file, [JSON.stringify({ type: 'session', version: 3, id: 'grown', timestamp: t(0), cwd: '/work/grown' }), msg('u0', null, 'user', 'port the parser to rust', 1), msg('a0', 'u0', 'assistant', 'the zorblax crate builds; zorblax again', 2)].join('\n') + '\n');
    const opened = openStore(join(root, 'grown-state', 'index.db'));
    if (!opened.ok) throw new Error(opened.error);
    const store = opened.store;
    const ctx = { env: { HOME: home }, home, cwd: root, folders: [], options: defaultOptions() };
    const parts = () => store.db.prepare('SELECT word_parts, words_at FROM sessions WHERE transcript = ?').get(file) as { word_parts: number; words_at: number };
    await refreshIndex(store, ctx);
    const size1 = statSync(file).size;
    expect(parts()).toEqual({ word_parts: 1, words_at: size1 });
    appendFileSync(file, [msg('u1', 'a0', 'user', 'now benchmark the quokka allocator', 3), msg('a1', 'u1', 'assistant', 'ran the wibbletron bench, wibbletron is fast', 4)].join('\n') + '\n');
    expect(await refreshIndex(store, ctx)).toMatchObject({ read: 1, indexed: 1 });
    const size2 = statSync(file).size;
    // The new part's words added (a second part), the row's words whole up to the new size.
    expect(parts()).toEqual({ word_parts: 2, words_at: size2 });
    for (const w of ['quokka', 'wibbletron', 'zorblax', 'rust']) expect(store.search(w), w).toMatchObject({ hits: [expect.objectContaining({ transcript: file })] });
    expect(store.byTranscript(file)).toMatchObject({ counts: { prompts: 2 } });
    // Each word in the part of the texts it came from: the old texts were not taken apart again.
    const partsOf = (w: string) => (store.db.prepare('SELECT rowid FROM session_words WHERE session_words MATCH ?').pluck().all(w) as number[]).map((r) => Math.floor(r / 2 ** 32));
    expect(partsOf('zorblax')).toEqual([0]);
    expect(partsOf('wibbletron')).toEqual([1]);
    expect(partsOf('quokka')).toEqual([1]);
    // Words not known to be whole (a live write's, of parsed events only): the next growth writes them all again.
    store.db.prepare('UPDATE sessions SET words_at = 0 WHERE transcript = ?').run(file);
    appendFileSync(file, msg('u2', 'a1', 'user', 'and the flimflam cache', 5) + '\n');
    await refreshIndex(store, ctx);
    expect(parts()).toEqual({ word_parts: 1, words_at: statSync(file).size });
    for (const w of ['flimflam', 'wibbletron', 'zorblax']) expect(store.search(w), w).toMatchObject({ hits: [expect.objectContaining({ transcript: file })] });
    // A rebuild reads every word again, in one part.
    appendFileSync(file, msg('u3', 'u2', 'user', 'last one', 6) + '\n');
    await refreshIndex(store, ctx, { rebuild: true });
    expect(parts()).toEqual({ word_parts: 1, words_at: statSync(file).size });
    store.close();
  });

  it('reads only what was appended to a big session file, keeping what the row knew', async () => {
    const { openStore } = await import('../../memory/open-store.js');
    const { refreshIndex } = await import('./scan.js');
    const { defaultOptions } = await import('../../config/options-table.js');
    const { appendFileSync, readFileSync, writeFileSync, statSync } = await import('node:fs');
    const { home, file, msg, lines, last: parent } = await bigPiSession('big');
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

  it('a big grown file: its card is made from the appended part and the window before it, as a whole read makes it', async () => {
    const { openStore } = await import('../../memory/open-store.js');
    const { refreshIndex } = await import('./scan.js');
    const { defaultOptions } = await import('../../config/options-table.js');
    const { loadSessionFile, loadSessionTail } = await import('../../transcripts/load.js');
    const { createEngine } = await import('../recaps/recap-engine.js');
    const { sessionWrite, tailWrite, CARD_WINDOW_BYTES } = await import('./session-write.js');
    const { appendFileSync, writeFileSync, statSync } = await import('node:fs');
    const { home, file, msg, lines, last: parent, at } = await bigPiSession('window');
    let i = at;
    // The turn before the mark, well inside the window: the task the card should still name.
    lines.push(msg('u1', parent, 'user', 'benchmark the quokka allocator against the wombat one and report the numbers', i++));
    lines.push(msg('a-report', 'u1', 'assistant', 'The quokka allocator is 3x faster than the wombat allocator on the churn test.', i++));
    writeFileSync(file, lines.join('\n') + '\n');
    const opened = openStore(join(root, 'window-state', 'index.db'));
    if (!opened.ok) throw new Error(opened.error);
    const store = opened.store;
    const ctx = { env: { HOME: home }, home, cwd: root, folders: [], options: defaultOptions() };
    await refreshIndex(store, ctx);
    const before = store.byTranscript(file);
    if (!before) throw new Error('not indexed');
    // The next turn says little of its own.
    appendFileSync(file, [msg('u2', 'a-report', 'user', 'ok', i), msg('a-ok', 'u2', 'assistant', 'Good.', i + 1)].join('\n') + '\n');
    expect(await refreshIndex(store, ctx)).toMatchObject({ read: 1, indexed: 1 });
    const grown = store.byTranscript(file);
    expect(grown?.mark.size).toBe(statSync(file).size);
    expect(grown?.mark.size).toBeGreaterThan(before.mark.size + 0);
    expect(statSync(file).size - before.mark.size).toBeLessThan(CARD_WINDOW_BYTES);
    const engine = createEngine({ options: { ...defaultOptions(), llm: false, generator: 'heuristic' }, agent: 'pi', env: {} });
    const size = { size: statSync(file).size, mtimeMs: statSync(file).mtimeMs };
    const whole = sessionWrite(await loadSessionFile(file, { agent: 'pi', wholeFile: true }), engine, size);
    const tail = await loadSessionTail(file, { agent: 'pi', from: before.mark.size, wholeFile: true });
    if (!tail) throw new Error('no tail');
    const alone = tailWrite(before, tail.snapshot, engine, size, '');
    // The appended turn alone makes another card (so this test tells the two apart); the row's is the whole read's.
    expect(alone.line).not.toBe(whole.line);
    expect(grown).toMatchObject({ line: whole.line, headline: whole.headline, status: whole.status, next: whole.next });
    expect(whole.line).toMatch(/quokka/);
    store.close();
  });

  it('a refresh with many files to read says so in the index while it reads them (a read elsewhere then leaves them to it)', async () => {
    const { openStore } = await import('../../memory/open-store.js');
    const { refreshIndex, refreshingElsewhere, ANNOUNCE_MIN_FILES, REFRESH_STALE_MS } = await import('./scan.js');
    const { defaultOptions } = await import('../../config/options-table.js');
    const { encodePiCwd } = await import('../../transcripts/pi/paths.js');
    const home = join(root, 'announce');
    const dir = join(home, '.pi', 'agent', 'sessions', encodePiCwd('/work/many'));
    mkdirSync(dir, { recursive: true });
    const write = (i: number) => {
      const t = new Date(Date.UTC(2026, 10, 20, 10, 0, i)).toISOString();
      const lines = [
        { type: 'session', version: 3, id: `s${i}`, timestamp: t, cwd: '/work/many' },
        { type: 'message', id: 'u', parentId: null, timestamp: t, message: { role: 'user', content: [{ type: 'text', text: `task ${i}` }], timestamp: i } },
      ];
      writeFileSync(join(dir, `2026-11-20T10-00-${String(i).padStart(4, '0')}_s${i}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    };
    for (let i = 0; i < ANNOUNCE_MIN_FILES - 1; i++) write(i);
    const opened = openStore(join(root, 'announce-state', 'index.db'));
    if (!opened.ok) throw new Error(opened.error);
    const store = opened.store;
    const ctx = { env: { HOME: home }, home, cwd: root, folders: [], options: defaultOptions() };
    const seen = new Set<string>();
    const look = () => seen.add(JSON.stringify(store.refreshesSince(0)));
    // One file short of the bound: not announced. It wrote the whole index: merged once every file is read.
    const steps: string[] = [];
    expect(await refreshIndex(store, ctx, { onProgress: (done, total) => (look(), steps.push(`${done}/${total}`)), onMerge: () => steps.push('merge') })).toMatchObject({ indexed: ANNOUNCE_MIN_FILES - 1 });
    expect([...seen]).toEqual(['[]']);
    expect(steps.slice(-2)).toEqual([`${ANNOUNCE_MIN_FILES - 1}/${ANNOUNCE_MIN_FILES - 1}`, 'merge']);
    expect(steps.filter((s) => s === 'merge')).toHaveLength(1);
    // As many new files as the bound: announced while read (this process, beat now), gone after.
    for (let i = ANNOUNCE_MIN_FILES; i < 2 * ANNOUNCE_MIN_FILES; i++) write(i);
    seen.clear();
    const started = Date.now();
    expect(await refreshIndex(store, ctx, { full: true, onProgress: () => {
      look();
      const beats = store.db.prepare('SELECT beat FROM refreshes').pluck().all() as number[];
      for (const b of beats) expect(b).toBeGreaterThanOrEqual(started);
    } })).toMatchObject({ indexed: ANNOUNCE_MIN_FILES });
    expect([...seen]).toContain(JSON.stringify([process.pid]));
    expect(store.refreshesSince(0)).toEqual([]);
    // This process's own refresh is never "elsewhere"; a live other one is while heard from, a dead one never.
    store.beatRefresh(process.pid, Date.now());
    expect(refreshingElsewhere(store)).toBeUndefined();
    store.beatRefresh(process.ppid, Date.now());
    expect(refreshingElsewhere(store)).toBe(process.ppid);
    expect(refreshingElsewhere(store, Date.now() + REFRESH_STALE_MS + 1000)).toBeUndefined();
    const { spawnSync } = await import('node:child_process');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    store.endRefresh(process.ppid);
    store.beatRefresh(Number(gone.stdout), Date.now());
    expect(refreshingElsewhere(store)).toBeUndefined();
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
    // A few sessions written: nothing merged (Store.compact is for a first index, a rebuild).
    let merged = 0;
    expect(await refreshIndex(opened.store, ctx, { onMerge: () => merged++ })).toMatchObject({ files: 3, read: 2 });
    expect(merged).toBe(0);
    expect(opened.store.count()).toBe(3);
    opened.store.close();
  });
});

// pi session files written directly (header, one prompt and answer per `prompts` word), their times set.
function piHome(name: string) {
  const home = join(root, name);
  const sessions = join(home, '.pi', 'agent', 'sessions');
  const t = (i: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, 0) + i * 1000).toISOString();
  const line = (id: string, parent: string | null, role: string, text: string, i: number) =>
    JSON.stringify({ type: 'message', id, parentId: parent, timestamp: t(i), message: role === 'user' ? { role, content: [{ type: 'text', text }], timestamp: i } : { role, content: [{ type: 'text', text }], provider: 'x', model: 'm', stopReason: 'stop', timestamp: i } });
  let n = 0;
  return {
    home,
    write(folder: string, id: string, words: string[], ageMs: number): string {
      const dir = join(sessions, `--${folder.replace(/\//g, '-')}--`);
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `2026-11-20T10-00-00-000Z_${id}.jsonl`);
      const lines = [JSON.stringify({ type: 'session', version: 3, id, timestamp: t(0), cwd: folder })];
      let parent: string | null = null;
      for (const w of words) {
        lines.push(line(`u${++n}`, parent, 'user', `please look at the ${w} module`, n));
        lines.push(line(`a${n}`, `u${n}`, 'assistant', `Done with ${w}.`, n));
        parent = `a${n}`;
      }
      writeFileSync(file, lines.join('\n') + '\n');
      const when = new Date(Date.now() - ageMs);
      utimesSync(file, when, when);
      return file;
    },
    append(file: string, word: string): void {
      const last = (JSON.parse(readFileSync(file, 'utf8').trimEnd().split('\n').pop() as string) as { id: string }).id;
      appendFileSync(file, line(`u${++n}`, last, 'user', `now the ${word} module`, n) + '\n');
    },
    // Every session folder's time put a minute back (kept listings need a time over 2 s old).
    settle(): void {
      const old = new Date(Date.now() - 60_000);
      for (const d of readdirSync(sessions)) utimesSync(join(sessions, d), old, old);
    },
  };
}

async function openScan(name: string, home: string, busyMs?: number) {
  const { openStore } = await import('../../memory/open-store.js');
  const { defaultOptions } = await import('../../config/options-table.js');
  const opened = openStore(join(root, `${name}-state`, 'index.db'), { busyMs });
  if (!opened.ok) throw new Error(opened.error);
  return { store: opened.store, ctx: { env: { HOME: home }, home, cwd: root, folders: [], options: defaultOptions() } };
}

describe('refreshIndex: quick refreshes and full sweeps', () => {
  it('a read stats only folders that moved and recent sessions; an old session grown in place waits for the next full sweep', async () => {
    const { refreshIndex, SWEEP_MS, RECENT_MS } = await import('./scan.js');
    const h = piHome('quick');
    const day = 86_400_000;
    const old1 = h.write('/work/one', 'old1', ['alpha'], 3 * day);
    const old2 = h.write('/work/two', 'old2', ['beta'], 3 * day);
    const fresh = h.write('/work/two', 'fresh', ['gamma'], 60_000);
    h.settle();
    const { store, ctx } = await openScan('quick', h.home);
    const t0 = Date.now();
    // No full sweep recorded yet: the first refresh is one.
    expect(await refreshIndex(store, ctx, { now: t0 })).toMatchObject({ full: true, files: 3, read: 3, indexed: 3 });
    // Nothing moved: the quick refresh stats the one recent session only, reads nothing.
    expect(await refreshIndex(store, ctx, { now: t0 + 1000 })).toMatchObject({ full: false, files: 1, read: 0 });
    // The recent session grew: seen at once.
    h.append(fresh, 'delta');
    expect(await refreshIndex(store, ctx, { now: t0 + 2000 })).toMatchObject({ full: false, read: 1, indexed: 1 });
    expect(store.byTranscript(fresh)?.counts.prompts).toBe(2);
    // An old session resumed outside recapwrap (appended in place: its folder's time does not move) …
    h.append(old1, 'epsilon');
    expect(await refreshIndex(store, ctx, { now: t0 + 3000 })).toMatchObject({ full: false, read: 0 });
    expect(store.byTranscript(old1)?.counts.prompts).toBe(1);
    // … is seen by the first read SWEEP_MS after the last full sweep (a full one), or by `index` (full) at once.
    expect(await refreshIndex(store, ctx, { now: t0 + SWEEP_MS })).toMatchObject({ full: true, files: 3, read: 1, indexed: 1 });
    expect(store.byTranscript(old1)?.counts.prompts).toBe(2);
    // A new session in a folder, and a deleted one: the folders' times moved, so a quick refresh sees both.
    const added = h.write('/work/one', 'added', ['zeta'], 2 * RECENT_MS);
    rmSync(old2);
    expect(await refreshIndex(store, ctx, { now: t0 + SWEEP_MS + 1000 })).toMatchObject({ full: false, read: 1, indexed: 1, gone: 1 });
    expect(store.byTranscript(added)).toBeDefined();
    expect(store.byTranscript(old2)?.transcriptExists).toBe(false);
    // `full` always sweeps; with nothing changed it reads nothing.
    expect(await refreshIndex(store, ctx, { full: true, now: t0 + SWEEP_MS + 2000 })).toMatchObject({ full: true, files: 3, read: 0, gone: 0 });
    store.close();
  });

  it('a whole session folder removed: its sessions are marked gone by a quick refresh', async () => {
    const { refreshIndex } = await import('./scan.js');
    const h = piHome('vanish');
    const file = h.write('/work/away', 'away1', ['omega'], 3 * 86_400_000);
    h.write('/work/stay', 'stay1', ['kappa'], 3 * 86_400_000);
    h.settle();
    const { store, ctx } = await openScan('vanish', h.home);
    const t0 = Date.now();
    await refreshIndex(store, ctx, { now: t0 });
    rmSync(dirname(file), { recursive: true });
    expect(await refreshIndex(store, ctx, { now: t0 + 1000 })).toMatchObject({ full: false, gone: 1 });
    expect(store.byTranscript(file)?.transcriptExists).toBe(false);
    expect(await refreshIndex(store, ctx, { now: t0 + 2000 })).toMatchObject({ gone: 0 });
    store.close();
  });
});

describe('refreshIndex: a write that fails (a full disk, a lock held too long)', () => {
  it('marks no file, says what failed, and the next refresh after space returns indexes every session', async () => {
    const { refreshIndex } = await import('./scan.js');
    const h = piHome('full-disk');
    // More than one write batch (50), so a batch is written in the middle of the scan as well as at its end.
    const files = Array.from({ length: 60 }, (_, i) => h.write(`/work/p${i % 2}`, `s${i}`, ['lorem '.repeat(400) + i], 60_000 * (i + 1)));
    h.settle();
    const { store, ctx } = await openScan('full-disk', h.home);
    // A real SQLITE_FULL: the database may not grow past the pages it has now.
    store.db.pragma(`max_page_count = ${store.db.pragma('page_count', { simple: true }) as number}`);
    const failed = await refreshIndex(store, ctx, { full: true });
    expect(failed.error).toMatch(/could not be written.*full/i);
    for (const f of files) expect(store.fileMark(f)?.state).not.toBe('unreadable');
    store.db.pragma('max_page_count = 1073741823');
    expect(await refreshIndex(store, ctx, { full: true })).toMatchObject({ indexed: 60 });
    const again = await refreshIndex(store, ctx, { full: true });
    expect(again).toMatchObject({ read: 0 });
    expect(again.error).toBeUndefined();
    for (const f of files) expect(store.byTranscript(f)).toBeDefined();
    store.close();
  });

  it('another writer holding the lock past the busy timeout: the same', async () => {
    const { refreshIndex } = await import('./scan.js');
    const h = piHome('busy');
    const files = Array.from({ length: 3 }, (_, i) => h.write(`/work/b${i}`, `b${i}`, ['busy'], 60_000));
    h.settle();
    const { store, ctx } = await openScan('busy', h.home, 50);
    const other = new Database(join(root, 'busy-state', 'index.db'));
    other.prepare('BEGIN IMMEDIATE').run();
    const failed = await refreshIndex(store, ctx, { full: true });
    expect(failed.error).toMatch(/could not be written.*locked/i);
    other.prepare('ROLLBACK').run();
    other.close();
    expect(await refreshIndex(store, ctx)).toMatchObject({ indexed: 3 });
    for (const f of files) expect(store.byTranscript(f)).toBeDefined();
    store.close();
  });
});

describe('refreshIndex: every word a session holds, never a secret (issue 42)', () => {
  it('a secret inside a tool output never lands in session_words; the output words around it do', async () => {
    const { openStore } = await import('../../memory/open-store.js');
    const { refreshIndex } = await import('./scan.js');
    const { defaultOptions } = await import('../../config/options-table.js');
    // Fake secrets, put together here; the part of each a vocabulary would keep unmasked is a plain word.
    const token = 'sk-proj-' + 'wombatlantern1harbourfjord';
    const password = 'hunter2' + 'zebramango';
    const key = ['-----BEGIN OPENSSH ' + 'PRIVATE KEY-----', 'cormorantvelvetmarmalade', '-----END OPENSSH ' + 'PRIVATE KEY-----'].join('\n');
    const output = ['building the quokkafrost bundle', `export OPENAI_API_KEY=${token}`, `DB_PASSWORD=${password} ./migrate`, key, 'quokkafrost bundle built'].join('\n');
    const source = join(TRANSCRIPTS_DIR, 'claude', 'interactive-2turns.jsonl');
    const lines = readFileSync(source, 'utf8').split('\n').map((line) => {
      if (!line.includes('(Bash completed with no output)')) return line;
      const entry = JSON.parse(line) as { message: { content: Array<{ content: string }> }; toolUseResult: { stdout: string } };
      (entry.message.content[0] as { content: string }).content = output;
      entry.toolUseResult.stdout = output;
      return JSON.stringify(entry);
    });
    const edited = join(root, 'secret-output.jsonl');
    writeFileSync(edited, lines.join('\n'));
    const home = join(root, 'secret-home');
    await layOutSession(home, 'claude', edited);
    const opened = openStore(join(root, 'secret-state', 'index.db'));
    if (!opened.ok) throw new Error(opened.error);
    const store = opened.store;
    expect(await refreshIndex(store, { env: { HOME: home }, home, cwd: root, folders: [], options: defaultOptions() })).toMatchObject({ indexed: 1 });
    store.close();
    const db = new Database(join(root, 'secret-state', 'index.db'), { readonly: true });
    const terms = new Set(db.prepare('SELECT term FROM session_words_vocab').pluck().all() as string[]);
    db.close();
    expect(terms.has('quokkafrost')).toBe(true);
    expect(terms.has('openai_api_key')).toBe(true);
    for (const piece of ['wombatlantern1harbourfjord', 'hunter2zebramango', 'cormorantvelvetmarmalade']) expect([...terms].filter((t) => t.includes(piece))).toEqual([]);
  });
});

// The read pool's worker, bundled from the sources for these tests with the build's settings
// (rolldown.config.mjs: CommonJS, the same packages left out) into a fresh folder, laid out as in dist/
// (cli/, chunks/, util/string-width.cjs). So the tests run real worker threads on the code under test,
// with no `npm run build` first and no stale dist/ to pass against.
async function bundleIndexWorker(): Promise<URL> {
  const { rolldown } = await import('rolldown');
  const { pathToFileURL, fileURLToPath } = await import('node:url');
  const src = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
  const out = join(root, 'worker-bundle');
  const bundle = await rolldown({
    input: { 'cli/index-worker': src('app/memory/index-worker.ts'), 'util/string-width': src('util/string-width-lib.ts') },
    platform: 'node',
    transform: { target: 'node20.11' },
    external: ['node-pty', '@xterm/headless', 'commander', 'blessed', 'better-sqlite3'],
    logLevel: 'warn',
  });
  try {
    await bundle.write({ dir: out, format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs' });
  } finally {
    await bundle.close();
  }
  return pathToFileURL(join(out, 'cli', 'index-worker.cjs'));
}

describe('refreshIndex: the read pool (issue 42)', () => {
  let workerUrl: URL;
  // A home of 56 session files: every agent's real fixtures, pi sessions of which several in one folder
  // share their task (their names are told apart in write order), sessions outside the allowed folders,
  // and files with nothing to index.
  const h = piHome('pool');
  const files: string[] = [];
  const folders = ['/work/in', '/home'];
  const build = async () => {
    workerUrl = await bundleIndexWorker();
    for (const agent of AGENT_IDS) for (const f of ['print-2turns.jsonl', 'interactive-2turns.jsonl']) files.push((await layOutSession(h.home, agent, join(TRANSCRIPTS_DIR, agent, f))).file);
    for (let i = 0; i < 36; i++) files.push(h.write(`/work/in/p${i % 3}`, `in${i}`, i % 4 === 0 ? ['billing'] : ['billing', `step${i}`, 'lorem '.repeat(50 * i)], 60_000 * (i + 1)));
    for (let i = 0; i < 6; i++) files.push(h.write('/work/out', `out${i}`, ['secret'], 30_000 * (i + 1)));
    const junk = dirname(files[AGENT_IDS.length * 2] as string); // the first pi session's folder
    for (let i = 0; i < 4; i++) {
      const file = join(junk, `2026-11-20T10-00-0${i}-000Z_junk${i}.jsonl`);
      writeFileSync(file, i % 2 ? 'not json at all\n{"half":\n' : '\n');
      files.push(file);
    }
    h.settle();
  };
  const built = build();

  // A refresh of the home into a fresh index; what it handed the store (every write, in order) and the rows.
  async function indexWith(name: string, pool: { workerUrl?: URL; workers?: number; minFiles?: number; mainReads?: boolean }) {
    await built;
    const { refreshIndex } = await import('./scan.js');
    const { store, ctx } = await openScan(name, h.home);
    const written: Array<{ transcript: string; words?: string; name?: string }> = [];
    const upsertMany = store.upsertMany.bind(store);
    store.upsertMany = (writes, now) => {
      for (const w of writes) written.push({ transcript: w.transcript, words: w.words });
      upsertMany(writes, now);
    };
    const progress: Array<[number, number, number, number]> = [];
    const stats = await refreshIndex(store, { ...ctx, folders }, { full: true, pool, onProgress: (...p) => progress.push(p) });
    const rows = store
      .list({})
      .map((s) => ({ ...s, text: store.condensedText(s.id) }))
      .sort((a, b) => a.transcript.localeCompare(b.transcript));
    const marks = files.map((f) => [f, store.fileMark(f)?.state]);
    store.close();
    return { stats, written, rows, marks, progress };
  }

  it('indexes exactly the rows a read on one thread does: names, counts, text, words, marks, progress', async () => {
    const one = await indexWith('pool-one', { workers: 0 });
    expect(one.stats).toMatchObject({ files: files.length, read: files.length, indexed: 46, skipped: 10 });
    expect(one.stats.threads).toBeUndefined();
    // Progress by files and by bytes (the time left is reckoned from those), each file once, in order.
    const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
    expect(one.progress[0]).toEqual([0, files.length, 0, bytes]);
    expect(one.progress.at(-1)).toEqual([files.length, files.length, bytes, bytes]);
    expect(one.progress.every(([, , done], i) => i === 0 || done > (one.progress[i - 1] as number[])[2]!)).toBe(true);
    expect(one.marks.filter(([, state]) => state === 'excluded')).toHaveLength(6);
    expect(one.marks.filter(([, state]) => state === 'unreadable').map(([f]) => basename(f as string))).toEqual(['2026-11-20T10-00-00-000Z_junk0.jsonl', '2026-11-20T10-00-01-000Z_junk1.jsonl', '2026-11-20T10-00-02-000Z_junk2.jsonl', '2026-11-20T10-00-03-000Z_junk3.jsonl']);
    // Names told apart in write order: the same task in one folder got -2, -3 …
    expect(new Set(one.rows.map((r) => `${r.cwd} ${r.name}`)).size).toBe(one.rows.length);
    expect(one.rows.filter((r) => r.cwd === '/work/in/p0' && /-\d$/.test(r.name)).length).toBeGreaterThan(0);
    // The real worker, counting the files it is asked to read (so a pool whose workers read nothing fails).
    const { fileURLToPath, pathToFileURL } = await import('node:url');
    const counted = join(root, 'counting-worker.cjs');
    const asked = join(root, 'counting-worker.log');
    writeFileSync(counted, `require(${JSON.stringify(fileURLToPath(workerUrl))}); require('node:worker_threads').parentPort.on('message', () => require('node:fs').appendFileSync(${JSON.stringify(asked)}, 'x'));`);
    // The workers alone (every file read by one), then beside this thread (which reads what it gets to first).
    for (const [workers, mainReads] of [[1, false], [2, false], [1, true], [2, true]] as const) {
      writeFileSync(asked, '');
      const pooled = await indexWith(`pool-${workers}-${mainReads}`, { workerUrl: pathToFileURL(counted), workers, mainReads });
      if (!mainReads) expect(readFileSync(asked, 'utf8')).toHaveLength(files.length);
      expect(pooled.stats).toMatchObject({ ...one.stats, threads: workers, ms: pooled.stats.ms });
      expect(pooled.written).toEqual(one.written);
      expect(pooled.rows).toEqual(one.rows);
      expect(pooled.marks).toEqual(one.marks);
      expect(pooled.progress).toEqual(one.progress);
    }
    expect(one.progress.map(([done, total]) => [done, total])).toEqual(Array.from({ length: files.length + 1 }, (_, i) => [i, files.length]));
  });

  it('below POOL_MIN_FILES (and 8 MB) no worker starts', async () => {
    const { POOL_MIN_FILES } = await import('./read-pool.js');
    expect(files.length).toBeLessThan(POOL_MIN_FILES + 20);
    const few = await indexWith('pool-few', { workerUrl, workers: 1, minFiles: files.length + 1 });
    expect(few.stats.threads).toBeUndefined();
  });

  it('a worker that dies or cannot do its reads: its files are read on the main thread, no row lost, nothing marked for it', async () => {
    const one = await indexWith('pool-ref', { workers: 0 });
    const dir = join(root, 'bad-workers');
    mkdirSync(dir, { recursive: true });
    const { pathToFileURL } = await import('node:url');
    const worker = (name: string, body: string) => {
      writeFileSync(join(dir, name), body);
      return pathToFileURL(join(dir, name));
    };
    const real = JSON.stringify((await import('node:url')).fileURLToPath(workerUrl));
    const bad = [
      // Exits at its first request.
      worker('exits.cjs', `const { parentPort } = require('node:worker_threads'); parentPort.postMessage({ id: -1, kind: 'ready' }); parentPort.on('message', () => process.exit(3));`),
      // Throws (an uncaught error ends the thread) at its 5th request, having answered some.
      worker('throws.cjs', `require(${real}); let n = 0; require('node:worker_threads').parentPort.on('message', () => { if (++n === 5) throw new Error('boom'); });`),
      // Answers every request "failed" (its modules did not load).
      worker('fails.cjs', `const { parentPort } = require('node:worker_threads'); parentPort.postMessage({ id: -1, kind: 'ready' }); parentPort.on('message', (m) => parentPort.postMessage({ id: m.id, kind: 'failed', error: 'no parsers' }));`),
      // Never ready (its parsers still loading when the refresh ends): this thread reads every file.
      worker('slow.cjs', `setInterval(() => {}, 1000);`),
      // Not a worker at all.
      worker('broken.cjs', `this is not javascript`),
    ];
    for (const url of bad) {
      // The workers are sent every file they can take (this thread only what they fail), but the one never ready.
      const mainReads = url.pathname.endsWith('slow.cjs');
      const pooled = await indexWith(`pool-${basename(url.pathname)}`, { workerUrl: url, workers: 2, mainReads });
      expect(pooled.stats).toMatchObject({ ...one.stats, threads: 2, ms: pooled.stats.ms });
      expect(pooled.written).toEqual(one.written);
      expect(pooled.rows).toEqual(one.rows);
      expect(pooled.marks).toEqual(one.marks);
      expect(pooled.progress).toEqual(one.progress);
    }
  });

  it('a write that fails stops the pooled refresh: said, nothing marked; the next one indexes all', async () => {
    await built;
    const { refreshIndex } = await import('./scan.js');
    const { store, ctx } = await openScan('pool-full-disk', h.home);
    store.db.pragma(`max_page_count = ${store.db.pragma('page_count', { simple: true }) as number}`);
    const failed = await refreshIndex(store, { ...ctx, folders }, { full: true, pool: { workerUrl, workers: 2 } });
    expect(failed.error).toMatch(/could not be written.*full/i);
    expect(failed.threads).toBe(2);
    // No session file marked unreadable or indexed for it (the files with nothing in them are, as before).
    for (const f of files) if (!f.includes('junk')) expect([undefined, 'excluded']).toContain(store.fileMark(f)?.state);
    expect(store.count()).toBe(0);
    store.db.pragma('max_page_count = 1073741823');
    expect(await refreshIndex(store, { ...ctx, folders }, { full: true, pool: { workerUrl, workers: 2 } })).toMatchObject({ indexed: 46, threads: 2 });
    for (const f of files) expect(['indexed', 'excluded', 'unreadable']).toContain(store.fileMark(f)?.state);
    expect(store.count()).toBe(46);
    store.close();
  });

  it('reads a grown file as one thread does: only its new texts for words, added to the row (grownFrom)', async () => {
    await built;
    const { refreshIndex } = await import('./scan.js');
    const one = await openScan('pool-grown-one', h.home);
    const pooled = await openScan('pool-grown-pool', h.home);
    for (const s of [one, pooled]) await refreshIndex(s.store, { ...s.ctx, folders }, { full: true, pool: { workers: 0 } });
    const grown = files.filter((f) => /_in\d+\.jsonl$/.test(f));
    for (const f of grown) h.append(f, 'zanzibarite');
    const writes = async (s: Awaited<ReturnType<typeof openScan>>, pool: { workerUrl?: URL; workers?: number; mainReads?: boolean }) => {
      const written: Array<{ transcript: string; words?: string; wordsAppend?: boolean; wordsFrom?: number; wordsAt?: number }> = [];
      const upsertMany = s.store.upsertMany.bind(s.store);
      s.store.upsertMany = (ws, now) => {
        for (const w of ws) written.push({ transcript: w.transcript, words: w.words, wordsAppend: w.wordsAppend, wordsFrom: w.wordsFrom, wordsAt: w.wordsAt });
        upsertMany(ws, now);
      };
      await refreshIndex(s.store, { ...s.ctx, folders }, { full: true, pool: { ...pool, minFiles: 1 } });
      return written;
    };
    const byOne = await writes(one, { workers: 0 });
    const byPool = await writes(pooled, { workerUrl, workers: 1, mainReads: false });
    expect(byOne).toHaveLength(grown.length);
    expect(byOne.every((w) => w.wordsAppend && (w.wordsFrom ?? 0) > 0 && w.words?.includes('zanzibarite'))).toBe(true);
    expect(byPool).toEqual(byOne);
    for (const s of [one, pooled]) {
      expect(s.store.search('zanzibarite')).toMatchObject({ hits: expect.arrayContaining([expect.objectContaining({ transcript: grown[0] })]) });
      s.store.close();
    }
  });
});

describe('poolWorkers, idleCores: how many read workers a refresh starts', () => {
  it('none below 40 files and 8 MB; else one per core but one, at most 2', async () => {
    const { poolWorkers, POOL_MIN_FILES, POOL_MIN_BYTES } = await import('./read-pool.js');
    const files = (n: number, size = 1000) => Array.from({ length: n }, (_, i) => ({ file: `/s/${i}.jsonl`, agent: 'pi' as const, size, mtimeMs: 0 }));
    expect(poolWorkers(files(POOL_MIN_FILES - 1), { cores: 8 })).toBe(0);
    expect(poolWorkers(files(POOL_MIN_FILES), { cores: 8 })).toBe(2);
    // Two big files pay; one does not (a file is read by one thread).
    expect(poolWorkers(files(2, POOL_MIN_BYTES / 2), { cores: 8 })).toBe(2);
    expect(poolWorkers(files(1, POOL_MIN_BYTES * 4), { cores: 8 })).toBe(0);
    expect(poolWorkers(files(100), { cores: 1 })).toBe(0);
    expect(poolWorkers(files(100), { cores: 2 })).toBe(1);
    expect(poolWorkers(files(100), { cores: 2, workers: 2 })).toBe(2);
  });

  it('a worker per core other processes left idle, less one for the main thread', async () => {
    const { idleCores } = await import('./read-pool.js');
    const at = (ms: number, own: number, ...busy: number[]) => ({ at: ms, own, busy });
    // 2 cores over 200 ms: this process busy on one (and a little of the other), no one else: one worker.
    expect(idleCores(at(0, 0, 0, 0), at(200, 300, 200, 100), 2)).toBe(1);
    // Another process holding the other core: none.
    expect(idleCores(at(0, 0, 0, 0), at(200, 200, 200, 190), 2)).toBe(0);
    expect(idleCores(at(0, 0, 0, 0, 0, 0), at(200, 220, 200, 20, 0, 140), 4)).toBe(2);
    expect(idleCores(at(0, 0, 0, 0, 0, 0, 0, 0, 0, 0), at(200, 200, ...Array<number>(8).fill(200)), 8)).toBe(0);
    // A container given 2 of the host's 8 CPUs, the host's other processes an eighth busy.
    expect(idleCores(at(0, 0, 0, 0, 0, 0, 0, 0, 0, 0), at(100, 100, 100, 100, 0, 0, 0, 0, 0, 0), 2)).toBe(1);
    // Nothing measured (no time passed): every core but this thread's.
    expect(idleCores(at(5, 0, 0, 0), at(5, 0, 0, 0), 2)).toBe(1);
  });
});
