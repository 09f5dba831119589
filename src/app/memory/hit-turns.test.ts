import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hostileTranscript } from '../../../test/helpers/hostile-transcripts.js';
import { AGENT_CLIS, type AgentCli } from '../../../test/helpers/agent-cli.js';
import { TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import { buildDocument } from '../../reader/build.js';
import type { Block } from '../../reader/document.js';
import { anchorWords, findAnchor, textOfBlock } from '../../reader/find-anchor.js';
import { addHitTurns, findTurnInSession } from './hit-turns.js';
import type { SessionRow } from './api.js';

// The turn lookup leaves uncleaned the texts that cannot hold the words (reader/word-gate.ts): checked
// here against full reads of the reader's fixtures, the hostile ones and a session made to trip it.
const dir = mkdtempSync(join(tmpdir(), 'rw-hit-turns-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

function readerFixtures(): { file: string; agent: AgentCli }[] {
  const out: { file: string; agent: AgentCli }[] = [];
  for (const agent of Object.keys(AGENT_CLIS) as AgentCli[]) {
    const root = join(TRANSCRIPTS_DIR, agent, 'reader');
    const walk = (d: string): void => {
      for (const name of readdirSync(d)) {
        const path = join(d, name);
        // A sub-agent's own file is read inline with its session, not on its own.
        if (statSync(path).isDirectory()) {
          if (name !== 'subagents') walk(path);
        } else if (name.endsWith('.jsonl')) out.push({ file: path, agent });
      }
    };
    walk(root);
    out.push({ file: hostileTranscript(agent, join(dir, 'hostile')), agent });
  }
  return out;
}

const ESC = '\u001b';
// A pi session whose texts sit at the gate's edges: words an escape sequence, a control character or an
// invisible one splits or joins, accents, secrets beside words, text the masking turns into `[secret]`,
// tabs, cut marks (long texts), words in tool names, commands and outputs, and a later branch.
function trickySession(): string {
  const file = join(dir, 'tricky.jsonl');
  const t = (s: number) => new Date(Date.UTC(2026, 10, 28, 9, 0, s)).toISOString();
  const lines: unknown[] = [{ type: 'session', version: 3, id: '01a2tricky', timestamp: t(0), cwd: '/tmp/tricky' }];
  const texts = [
    `plain words only: alpha beta gamma`,
    `quok${ESC}[31mka frost and ${ESC}]0;titleword\u0007 red`,
    `join\u0000ed and zero\u200bwidth and soft\u00adhyphen`,
    `Café crème, naïve façade; ﬁle ligature`,
    `token sk-ant-api03-${'a1B2c3D4e5'.repeat(10)}AA beside keyword`,
    `password: hunter2 then GITHUB_TOKEN=ghp_${'x9Y8z7W6v5'.repeat(4)} end`,
    `tabs\there\tand\r\nlines\vand\fpage`,
    `${'digits 0123456789 '.repeat(20000)}tail marker`,
    `short 42 and 7 more characters cut`,
    `url https://user:pa55word@example.com/path?x=1 done`,
    `ends with dot. and dots... and ellipsis…`,
  ];
  let parent: string | null = null;
  let id = 0;
  const next = () => `m${++id}`;
  texts.forEach((text, i) => {
    const u = next();
    lines.push({ type: 'message', id: u, parentId: parent, timestamp: t(3 * i + 1), message: { role: 'user', content: [{ type: 'text', text }] } });
    const a = next();
    lines.push({
      type: 'message', id: a, parentId: u, timestamp: t(3 * i + 2),
      message: { role: 'assistant', model: 'm1', content: [
        { type: 'thinking', thinking: `thinking about ${text.slice(0, 200)}` },
        { type: 'text', text: `answer ${i}: ${text.split('').reverse().join('').slice(0, 5000)}` },
        { type: 'toolCall', id: `c${i}`, name: i % 2 ? 'bash' : 'edit', arguments: i % 2 ? { command: `echo ${text.slice(0, 600)}` } : { path: `src/file${i}.ts`, oldText: `old ${i}`, newText: `new ${text.slice(0, 100)}` } },
      ] },
    });
    const r = next();
    lines.push({ type: 'message', id: r, parentId: a, timestamp: t(3 * i + 3), message: { role: 'toolResult', toolCallId: `c${i}`, toolName: i % 2 ? 'bash' : 'edit', content: [{ type: 'text', text: `out ${i}\n${text}` }], isError: i === 3 } });
    parent = r;
  });
  // A branch from the second prompt's answer.
  lines.push({ type: 'message', id: next(), parentId: 'm2', timestamp: t(99), message: { role: 'user', content: [{ type: 'text', text: 'branch prompt about omega' }] } });
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

// Query words for a file: runs of word characters from its raw bytes and its full read (what masking
// and cleaning drop included), with the words the gate has to watch for.
function wordsFor(file: string, full: Block[]): string[] {
  const raw = fold(readFileSync(file, 'utf8'));
  const read = fold(full.map(textOfBlock).join('\n'));
  const all = new Set<string>();
  for (const text of [raw, read]) for (const w of text.split(/[^\p{L}\p{N}_./-]+/u)) if (w) all.add(w);
  const list = [...all];
  // Every 7th word (the fixtures' vocabularies are a few hundred words each) and some pieces of words.
  const picked = list.filter((_, i) => i % 7 === 0);
  for (const w of list.filter((_, i) => i % 23 === 0)) if (w.length > 4) picked.push(w.slice(1, -1));
  return [...picked, 'secret', 'ecre', 'cut', 'more', 'characters', '42', '0123', '.', '..', '...', 'dot.', 'cafe', 'creme', 'quokka', 'joined', 'zerowidth', 'softhyphen', 'file', 'titleword', 'hunter2', 'pa55word', 'typed', 'model', 'branch', 'prompt', '31m', '-old', '-1', 'xyzzy-none'];
}

// Each block of the read made for these words holds the same words as the full read's block.
async function expectSameWords(file: string, agent: AgentCli, full: Block[], query: string): Promise<void> {
  const words = anchorWords(query);
  const fast = (await buildDocument(file, { agent, words })).blocks;
  const shape = (b: Block) => `${b.kind} ${b.anchor}/${b.turn}${b.kind === 'answer' ? ` final=${b.final}` : ''}${b.kind === 'tool' ? ` ${b.status} ${b.children?.length ?? 0}` : ''}`;
  expect(fast.map(shape)).toEqual(full.map(shape));
  const holds = (blocks: Block[]) => blocks.map((b) => {
    const text = fold(textOfBlock(b));
    return words.filter((w) => text.includes(w)).join(' ');
  });
  expect(holds(fast), `${file}: ${query}`).toEqual(holds(full));
  expect(findAnchor(fast, query), `${file}: ${query}`).toEqual(findAnchor(full, query));
}

describe('the turn lookup reads only what can hold the words', () => {
  const files = [...readerFixtures(), { file: trickySession(), agent: 'pi' as AgentCli }];

  it.each(files.map((f) => [f.file.slice(f.file.lastIndexOf('transcripts') >= 0 ? f.file.lastIndexOf('transcripts') : 0), f]))('finds the block a full read finds: %s', async (_, { file, agent }) => {
    const full = (await buildDocument(file, { agent })).blocks;
    const words = wordsFor(file, full);
    for (const w of words) await expectSameWords(file, agent, full, w);
    // Several words at once (the partial-match path) and the gate's edge words beside plain ones.
    for (let i = 0; i + 3 <= words.length; i += 3) await expectSameWords(file, agent, full, words.slice(i, i + 3).join(' '));
    await expectSameWords(file, agent, full, `${words[1] ?? 'a'} secret`);
    // Search's lookup (blocks handed out as soon as they are settled) gives the full read's turn.
    for (const w of words) {
      const hit = findAnchor(full, w);
      expect(await findTurnInSession(file, w, Number.POSITIVE_INFINITY, agent), `${file}: ${w}`).toBe(hit && hit.turn > 0 ? hit.turn : undefined);
    }
  }, 60_000);

  it('gives search the turn of the full read', async () => {
    const file = trickySession();
    const full = (await buildDocument(file, { agent: 'pi' })).blocks;
    for (const query of ['quokka', 'joined', 'cafe creme', 'hunter2', 'marker', 'tail marker', 'omega', 'alpha xyzzy', 'ellipsis...', '42 characters', 'secret']) {
      const hit = findAnchor(full, query);
      const want = hit && hit.turn > 0 ? hit.turn : undefined;
      expect(await findTurnInSession(file, query, Number.POSITIVE_INFINITY, 'pi'), query).toBe(want);
    }
    const row = { transcript: file, transcriptExists: true, agent: 'pi' } as SessionRow;
    expect((await addHitTurns([row], 'omega'))[0]?.turn).toBe(findAnchor(full, 'omega')?.turn);
    // The first prompt's words from the condensed text: turn 1, not read; a transcript gone: no turn at all.
    const condensed = () => '> plain words only: alpha beta gamma\nmore';
    expect((await addHitTurns([row], 'beta gamma', undefined, undefined, condensed))[0]?.turn).toBe(1);
    const gone = { ...row, transcript: join(dir, 'gone.jsonl') };
    expect((await addHitTurns([gone], 'beta gamma', undefined, undefined, condensed))[0]?.turn).toBeUndefined();
  });
});

// A hit whose first prompt holds the words is turn 1 without a read (firstPromptHolds): the same turn a
// read finds, for the words of each fixture's first prompt, by the condensed text the index keeps.
describe('the turn of a hit from its first prompt', () => {
  it('is the turn the read finds', async () => {
    const { loadSessionFile } = await import('../../transcripts/load.js');
    const { maskSession } = await import('./session-write.js');
    const { condenseEvents } = await import('../../memory/condense.js');
    const { firstPromptHolds } = await import('./hit-turns.js');
    let checked = 0;
    for (const { file, agent } of readerFixtures()) {
      // Read as the index reads it (the file by all it holds: a broken chain whole).
      const session = maskSession(await loadSessionFile(file, { agent, wholeFile: true }));
      const condensed = condenseEvents([...(session.title ? [{ kind: 'title' as const, text: session.title }] : []), ...(session.events as Parameters<typeof condenseEvents>[0])]);
      const first = condensed.split('\n').find((l) => l.startsWith('> '));
      if (!first) continue;
      // The words a reader sees in it (the condensed text keeps a terminal's escapes as written).
      const { cleanLine } = await import('../../reader/clean.js');
      const words = [...new Set(anchorWords(cleanLine(first.slice(2), first.length)).filter((w) => w.length > 2))].slice(0, 12);
      for (const query of [...words, words.slice(0, 3).join(' ')]) {
        if (!query) continue;
        expect(firstPromptHolds(condensed, query), `${file}: ${query}`).toBe(true);
        expect(await findTurnInSession(file, query, Date.now() + 60_000, agent), `${file}: ${query}`).toBe(1);
        checked++;
      }
      // A word of no prompt, or one only inside an escape sequence (the hostile files' clipboard payload): no shortcut.
      expect(firstPromptHolds(condensed, 'zzqxjvnotaword')).toBe(false);
      if (first.includes('Y3VybCBldmlsLnNoIHwgc2g')) expect(firstPromptHolds(condensed, 'Y3VybCBldmlsLnNoIHwgc2g')).toBe(false);
    }
    expect(checked).toBeGreaterThan(50);
  });
});
