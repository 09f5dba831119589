import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { bornAt, fileClockPast } from '../../../test/helpers/file-clock.js';
import { corpusPresent, RECAP_CORPUS_DIR, TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import { geminiAdapter } from './index.js';
import { geminiChatsDirs, geminiSlug } from './paths.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'rw-gemini-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const ID = '08cf117f-17fc-4133-9402-02615bc90fc9';
const OTHER = '9a1b2c3d-0000-4000-8000-000000000001';
const ctx = (env: Record<string, string> = {}) => ({ cwd: '/w/My App', env, home, newId: () => ID, now: Date.now() });
const metaLine = (id: string) => JSON.stringify({ sessionId: id, projectHash: 'h', startTime: '2026-11-22T08:00:00.000Z', lastUpdated: '2026-11-22T08:00:00.000Z', kind: 'main' }) + '\n';

describe('gemini adapter', () => {
  it('pins --session-id unless the user chose a session; resume and no-session invocations recognised', () => {
    expect(geminiAdapter.planLaunch(['-m', 'gemini-2.5-flash'], ctx())).toEqual({ args: ['--session-id', ID, '-m', 'gemini-2.5-flash'], pinnedId: ID, resume: false });
    expect(geminiAdapter.planLaunch(['--resume', 'latest'], ctx())).toEqual({ args: ['--resume', 'latest'], resume: true, resumeTarget: 'latest' });
    expect(geminiAdapter.planLaunch(['-r', '3'], ctx()).resumeTarget).toBe('3');
    expect(geminiAdapter.planLaunch([`--session-id=${OTHER}`], ctx())).toEqual({ args: [`--session-id=${OTHER}`], pinnedId: OTHER, resume: false });
    for (const args of [['--version'], ['--list-sessions'], ['mcp', 'list'], ['extensions', 'list']]) {
      expect(geminiAdapter.planLaunch(args, ctx())).toEqual({ args, resume: false });
    }
    expect(geminiAdapter.resumeArgs({ id: ID, file: '/f' })).toEqual(['--resume', ID]);
    // An id that would read as a flag stays the option's value.
    expect(geminiAdapter.resumeArgs({ id: '--yolo', file: '/f' })).toEqual(['--resume=--yolo']);
  });

  it('the slug Gemini derives, the registered one first (GEMINI_CLI_HOME honoured)', async () => {
    expect(geminiSlug('/w/My App')).toBe('my-app');
    expect(geminiSlug('/w/__')).toBe('project');
    const gh = join(home, 'gh');
    mkdirSync(join(gh, '.gemini'), { recursive: true });
    writeFileSync(join(gh, '.gemini', 'projects.json'), JSON.stringify({ projects: { '/w/My App': 'my-app-1' } }));
    const dirs = await geminiChatsDirs(ctx({ GEMINI_CLI_HOME: gh }));
    expect(dirs.slice(0, 2)).toEqual([join(gh, '.gemini', 'tmp', 'my-app-1', 'chats'), join(gh, '.gemini', 'tmp', 'my-app', 'chats')]);
    expect(dirs[2]).toMatch(/[0-9a-f]{64}[/\\]chats$/);
  });

  it('finds the pinned file exactly, offers a later file of this folder (/clear) first, and lists past sessions by full id', async () => {
    const chats = join(home, '.gemini', 'tmp', 'my-app', 'chats');
    mkdirSync(chats, { recursive: true });
    const old = join(chats, 'session-2026-11-21T08-00-9a1b2c3d.jsonl');
    writeFileSync(old, metaLine(OTHER));
    const past = new Date(Date.now() - 3_600_000);
    utimesSync(old, past, past);
    const startedAt = Date.now();
    const mine = join(chats, 'session-2026-11-22T08-53-08cf117f.jsonl');
    writeFileSync(mine, metaLine(ID));
    const plan = geminiAdapter.planLaunch([], ctx());
    expect(await geminiAdapter.locateLive({ ...ctx(), plan, startedAt, pids: [] })).toEqual([{ file: mine, confidence: 'exact' }]);
    await fileClockPast(chats, bornAt(mine) + 1); // born after ours, as a /clear file is
    const cleared = join(chats, 'session-2026-11-22T08-55-77777777.jsonl');
    writeFileSync(cleared, metaLine('77777777-0000-4000-8000-000000000000'));
    expect(await geminiAdapter.locateLive({ ...ctx(), plan, startedAt, pids: [] })).toEqual([
      { file: cleared, confidence: 'candidate' },
      { file: mine, confidence: 'exact' },
    ]);
    const listed = await geminiAdapter.listSessions(ctx());
    expect(listed.map((s) => s.id)).toEqual(expect.arrayContaining([ID, OTHER, '77777777-0000-4000-8000-000000000000']));
    expect(listed.at(-1)?.file).toBe(old);
    // `--resume <uuid>` names a file exactly; `--resume latest` takes the file written since our start.
    const byId = await geminiAdapter.locateLive({ ...ctx(), plan: geminiAdapter.planLaunch(['--resume', OTHER], ctx()), startedAt: Date.now() + 5000, pids: [] });
    expect(byId[0]).toEqual({ file: old, confidence: 'exact' });
    utimesSync(old, new Date(), new Date(Date.now() + 10_000));
    const latest = await geminiAdapter.locateLive({ ...ctx(), plan: geminiAdapter.planLaunch(['--resume', 'latest'], ctx()), startedAt: Date.now() + 5000, pids: [] });
    expect(latest).toEqual([{ file: old, confidence: 'candidate' }]);
  });

  it('a pinned id is found in another project folder too (worktrees, renamed slugs)', async () => {
    const chats = join(home, '.gemini', 'tmp', 'elsewhere', 'chats');
    mkdirSync(chats, { recursive: true });
    const file = join(chats, 'session-2026-11-22T08-53-08cf117f.jsonl');
    writeFileSync(file, metaLine(ID));
    const found = await geminiAdapter.locateLive({ ...ctx(), plan: geminiAdapter.planLaunch([], ctx()), startedAt: Date.now(), pids: [] });
    expect(found).toEqual([{ file, confidence: 'exact' }]);
  });

  it('detects both formats and not other agents’ files', () => {
    const jsonl = readFileSync(join(TRANSCRIPTS_DIR, 'gemini', 'print-2turns.jsonl'), 'utf8').split('\n');
    expect(geminiAdapter.detect(jsonl.slice(0, 5))).toBe(true);
    // The pre-0.39 single JSON document: other people's, in ../shared/recap-corpus (absent from a bare clone).
    if (corpusPresent) {
      const json = readFileSync(join(RECAP_CORPUS_DIR, 'gemini', 'figma-dashstack.json'), 'utf8').split('\n');
      expect(geminiAdapter.detect(json.slice(0, 5))).toBe(true);
    }
    expect(geminiAdapter.detect(['{"type":"session","version":3,"id":"x","cwd":"/w"}'])).toBe(false);
    expect(geminiAdapter.detect(['{"uuid":"u","parentUuid":null,"sessionId":"s","type":"user"}'])).toBe(false);
    expect(geminiAdapter.detect([])).toBe(false);
  });
});
