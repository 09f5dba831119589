// #33 item 1: the title (first prompt cut to 79 characters), the card and the condensed text were cut first
// and masked after, so a token cut short no longer fit its pattern and was stored. Real store, real engine.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultOptions } from '../../config/options-table.js';
import { openStore } from '../../memory/open-store.js';
import type { Store } from '../../memory/store.js';
import { buildDocument } from '../../reader/build.js';
import { loadSessionFile, loadSessionTail } from '../../transcripts/load.js';
import type { Session, TranscriptEvent } from '../../transcripts/types.js';
import { createEngine } from '../recaps/recap-engine.js';
import { maskSession, sessionWrite, tailWrite } from './session-write.js';

// A fake GitHub token, built here so no file holds one whole.
const TOKEN = 'ghp_' + 'Zq7Xw2Vb9Nc4Mk8Lj3Hg6Fd1Sa5Pt0Ry7Eu42';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-session-write-'));
  const opened = openStore(join(dir, 'state', 'index.db'));
  if (!opened.ok) throw new Error(opened.error);
  store = opened.store;
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function session(events: TranscriptEvent[], over: Partial<Session> = {}): Session {
  return { agent: 'claude', id: 'sess-1', file: join(dir, 'sess-1.jsonl'), cwd: join(dir, 'shop'), events, stamp: 's1', skipped: 0, ...over };
}
const engine = createEngine({ options: { ...defaultOptions(), llm: false, generator: 'heuristic' }, agent: 'claude', env: {} });
const write = (s: Session) => store.upsert(sessionWrite(s, engine, { size: 100, mtimeMs: 1 }));

// Everything the store keeps of a session, as one string.
function storedText(id: string): string {
  return JSON.stringify(store.get(id)) + '\n' + store.condensedText(id);
}

describe('sessionWrite masks before it cuts', () => {
  it('a token at the cut of the title (the first prompt cut to 79 characters) is neither stored nor findable', () => {
    const prompt = `Please push the release branch of the shop with ${TOKEN} and then tell me whether the CI run is green`;
    expect(prompt.indexOf(TOKEN)).toBeLessThan(79);
    expect(prompt.indexOf(TOKEN) + TOKEN.length).toBeGreaterThan(79); // the title's cut falls inside the token
    write(session([
      { kind: 'user', text: prompt, sourceId: 'u1', ts: 1 },
      { kind: 'assistant', text: 'Pushed; CI is green.', sourceId: 'a1', ts: 2 },
      { kind: 'turn-end', sourceId: 't1', ts: 3 },
    ]));
    const stored = store.get('sess-1');
    expect(stored?.title).toContain('[secret]');
    const kept = storedText('sess-1');
    for (let n = 8; n <= TOKEN.length; n++) expect(kept, `the token's first ${n} characters`).not.toContain(TOKEN.slice(0, n));
    const found = store.search(TOKEN.slice(0, 25));
    expect('hits' in found ? found.hits.map((h) => h.id) : found.error).not.toContain('sess-1');
    const word = store.search(TOKEN.slice(4, 25));
    expect('hits' in word ? word.hits.length : 0).toBe(0);
  });

  it('a token at the condensed text cut of a long message, at the card cut and in a command is not stored', () => {
    const long = 'The deploy works now. '.repeat(53).slice(0, 1190) + ` export GH=${TOKEN} and more words after it`;
    write(session([
      { kind: 'user', text: 'deploy the shop', sourceId: 'u1', ts: 1 },
      { kind: 'tool-call', name: 'Bash', args: `command="git push https://me:${TOKEN.slice(4)}@github.com/o/r"`, command: `git push https://me:${TOKEN.slice(4)}@github.com/o/r`, paths: [], callId: 'c1', sourceId: 'c1', ts: 2 },
      { kind: 'tool-result', ok: false, text: `remote: Invalid username or password for token ${TOKEN}`, callId: 'c1', sourceId: 'r1', ts: 3 },
      { kind: 'assistant', text: long, sourceId: 'a1', ts: 4 },
      { kind: 'turn-end', sourceId: 't1', ts: 5 },
    ]));
    const kept = storedText('sess-1');
    expect(kept).toContain('[secret]');
    for (let n = 8; n <= TOKEN.length; n++) expect(kept, `the token's first ${n} characters`).not.toContain(TOKEN.slice(0, n));
    expect(kept).not.toContain(TOKEN.slice(4, 16));
  });

  it('keeps a URL whose password was masked whole in the URLs line (its host stays searchable)', () => {
    write(session([
      { kind: 'user', text: 'clone https://me:hunter2pass@git.walrus-internal.example/o/r.git and build it', sourceId: 'u1', ts: 1 },
      { kind: 'assistant', text: 'Built.', sourceId: 'a1', ts: 2 },
      { kind: 'turn-end', sourceId: 't1', ts: 3 },
    ]));
    const urls = store.condensedText('sess-1').split('\n').find((l) => l.startsWith('urls: '));
    expect(urls).toBe('urls: https://me:[secret]@git.walrus-internal.example/o/r.git');
    expect(storedText('sess-1')).not.toContain('hunter2pass');
  });

  it('masks every text an event carries and the session title, and leaves the rest as it was', () => {
    const raw = session(
      [
        { kind: 'user', text: `use ${TOKEN}`, sourceId: 'u1' },
        { kind: 'tool-call', name: 'Bash', args: `command="curl -u me:${TOKEN}"`, command: `curl -u me:${TOKEN}`, paths: [`/tmp/${TOKEN}.txt`], sourceId: 'c1' },
        { kind: 'tool-result', ok: true, text: TOKEN, sourceId: 'r1' },
        { kind: 'summary', source: 'compaction', text: TOKEN, sourceId: 's1' },
        { kind: 'error', text: TOKEN, sourceId: 'e1' },
        { kind: 'aborted', text: TOKEN, sourceId: 'x1' },
        { kind: 'title', text: TOKEN, sourceId: 'ti1' },
        { kind: 'turn-end', sourceId: 't1' },
      ],
      { title: `about ${TOKEN}` },
    );
    const masked = maskSession(raw);
    expect(JSON.stringify(masked)).not.toContain(TOKEN.slice(4, 20));
    expect(masked.events.map((e) => e.kind)).toEqual(raw.events.map((e) => e.kind));
    expect(JSON.stringify(raw)).toContain(TOKEN); // the wrapper's own session is left as it was
  });
});

// A branched pi session (the user went back with /tree and asked again: two branches in one file): `show`
// said "2 prompts" (the index counted the active branch) while `read` showed 3 (the whole file). The index
// counts every branch, as `read` does, and a grown file's appended part adds up to the same counts.
const BRANCHES = resolve('test/fixtures/transcripts/pi/reader/branches.jsonl');
const piEngine = createEngine({ options: { ...defaultOptions(), llm: false, generator: 'heuristic' }, agent: 'pi', env: {} });

describe('a branched session is counted over every branch', () => {
  it('the index counts the prompts and tool calls `read` shows, not those of the active branch alone', async () => {
    const session = await loadSessionFile(BRANCHES, { agent: 'pi', wholeFile: true });
    // The card is of the active branch: prompt 1, then the re-asked one.
    expect(session.events.filter((e) => e.kind === 'user')).toHaveLength(2);
    const write = sessionWrite(session, piEngine, { size: 1, mtimeMs: 1 });
    const doc = await buildDocument(BRANCHES);
    expect(write.counts).toEqual({ prompts: 3, turns: 3, toolCalls: 5 });
    expect(write.counts.prompts).toBe(doc.meta.prompts);
    expect(write.counts.toolCalls).toBe(doc.meta.toolCalls);
  });

  it('a file that grew by a new branch has the counts of the same file read whole', async () => {
    const lines = readFileSync(BRANCHES, 'utf8').split('\n');
    // Up to the end of the main line (prompt 2's answer); the branch summary and the re-asked prompt follow.
    const cut = lines.findIndex((l) => l.includes('"type":"branch_summary"'));
    expect(cut).toBeGreaterThan(0);
    const file = join(dir, 'grown.jsonl');
    const before = `${lines.slice(0, cut).join('\n')}\n`;
    writeFileSync(file, before);
    store.upsert(sessionWrite(await loadSessionFile(file, { agent: 'pi', wholeFile: true }), piEngine, { size: before.length, mtimeMs: 1 }));
    writeFileSync(file, readFileSync(BRANCHES));
    const prev = store.byTranscript(file);
    if (!prev) throw new Error('the first write was not stored');
    expect(prev.counts.prompts).toBe(2);
    const tail = await loadSessionTail(file, { agent: 'pi', from: Buffer.byteLength(before), wholeFile: true });
    if (!tail) throw new Error('no tail');
    const grown = tailWrite(prev, tail.snapshot, piEngine, { size: tail.end, mtimeMs: 2 }, store.condensedText(prev.id));
    const whole = sessionWrite(await loadSessionFile(file, { agent: 'pi', wholeFile: true }), piEngine, { size: tail.end, mtimeMs: 2 });
    expect(grown.counts).toEqual(whole.counts);
    expect(whole.counts.prompts).toBe(3);
  });
});
