// A branched pi session (the user went back with /tree and asked again: two branches in one file): `show`
// said "2 prompts" (the index counted the active branch) while `read` showed 3 (the whole file). The index
// counts every branch, as `read` does, and a grown file's appended part adds up to the same counts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultOptions } from '../../config/options-table.js';
import { openStore } from '../../memory/open-store.js';
import type { Store } from '../../memory/store.js';
import { buildDocument } from '../../reader/build.js';
import { loadSessionFile, loadSessionTail } from '../../transcripts/load.js';
import { createEngine } from '../recaps/recap-engine.js';
import { sessionWrite, tailWrite } from './session-write.js';

const FIXTURE = resolve('test/fixtures/transcripts/pi/reader/branches.jsonl');
const engine = createEngine({ options: { ...defaultOptions(), llm: false, generator: 'heuristic' }, agent: 'pi', env: {} });

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-session-write-branches-'));
  const opened = openStore(join(dir, 'state', 'index.db'));
  if (!opened.ok) throw new Error(opened.error);
  store = opened.store;
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a branched session is counted over every branch', () => {
  it('the index counts the prompts and tool calls `read` shows, not those of the active branch alone', async () => {
    const session = await loadSessionFile(FIXTURE, { agent: 'pi', wholeFile: true });
    // The card is of the active branch: prompt 1, then the re-asked one.
    expect(session.events.filter((e) => e.kind === 'user')).toHaveLength(2);
    const write = sessionWrite(session, engine, { size: 1, mtimeMs: 1 });
    const doc = await buildDocument(FIXTURE);
    expect(write.counts).toEqual({ prompts: 3, turns: 3, toolCalls: 5 });
    expect(write.counts.prompts).toBe(doc.meta.prompts);
    expect(write.counts.toolCalls).toBe(doc.meta.toolCalls);
  });

  it('a file that grew by a new branch has the counts of the same file read whole', async () => {
    const lines = readFileSync(FIXTURE, 'utf8').split('\n');
    // Up to the end of the main line (prompt 2's answer); the branch summary and the re-asked prompt follow.
    const cut = lines.findIndex((l) => l.includes('"type":"branch_summary"'));
    expect(cut).toBeGreaterThan(0);
    const file = join(dir, 'grown.jsonl');
    const before = `${lines.slice(0, cut).join('\n')}\n`;
    writeFileSync(file, before);
    store.upsert(sessionWrite(await loadSessionFile(file, { agent: 'pi', wholeFile: true }), engine, { size: before.length, mtimeMs: 1 }));
    writeFileSync(file, readFileSync(FIXTURE));
    const prev = store.byTranscript(file);
    if (!prev) throw new Error('the first write was not stored');
    expect(prev.counts.prompts).toBe(2);
    const tail = await loadSessionTail(file, { agent: 'pi', from: Buffer.byteLength(before), wholeFile: true });
    if (!tail) throw new Error('no tail');
    const grown = tailWrite(prev, tail.snapshot, engine, { size: tail.end, mtimeMs: 2 }, store.condensedText(prev.id));
    const whole = sessionWrite(await loadSessionFile(file, { agent: 'pi', wholeFile: true }), engine, { size: tail.end, mtimeMs: 2 });
    expect(grown.counts).toEqual(whole.counts);
    expect(whole.counts.prompts).toBe(3);
  });
});
