import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDocument } from './build.js';
import type { Block, ReaderDocument, ToolBlock } from './document.js';
import { findAnchor } from './find-anchor.js';
import { renderOutline } from './outline.js';
import { renderTerminal } from './terminal.js';

const FIXTURES = 'test/fixtures/transcripts';
// Real files the agents wrote (reader fixtures made with the real CLIs, and the older two-turn ones).
const SESSIONS = {
  'pi-branches': `${FIXTURES}/pi/reader/branches.jsonl`,
  'claude-compact-subagent': `${FIXTURES}/claude/reader/compact-subagent/41e0c0de-0000-4000-8000-00000000c1a0.jsonl`,
  'claude-broken-chain': `${FIXTURES}/claude/reader/broken-chain.jsonl`,
  'codex-patch-exec': `${FIXTURES}/codex/reader/patch-exec.jsonl`,
  'qwen-edit-shell': `${FIXTURES}/qwen/reader/edit-shell.jsonl`,
  'gemini-2turns': `${FIXTURES}/gemini/interactive-2turns.jsonl`,
  'gemini-edit-shell-compress': `${FIXTURES}/gemini/reader/edit-shell-compress.jsonl`,
} as const;

const tools = (doc: ReaderDocument): ToolBlock[] => doc.blocks.filter((b): b is ToolBlock => b.kind === 'tool');
const kinds = (blocks: readonly Block[]) => blocks.map((b) => b.kind);

describe('golden text per view', () => {
  for (const [name, file] of Object.entries(SESSIONS)) {
    it(name, async () => {
      const doc = await buildDocument(file);
      for (const view of ['focused', 'default', 'full'] as const) {
        const text = renderTerminal(doc, { view, width: 100, color: false, timeZone: 'UTC' });
        await expect(text).toMatchFileSnapshot(`./__golden__/${name}.${view}.txt`);
      }
      await expect(renderOutline(doc, { width: 120, timeZone: 'UTC' })).toMatchFileSnapshot(`./__golden__/${name}.outline.txt`);
    });
  }
});

describe('buildDocument', () => {
  it('a slash command is shown, marked, but is no prompt: no number, no turn of its own (claude /clear)', async () => {
    const doc = await buildDocument(`${FIXTURES}/claude/clear-switch/second.jsonl`);
    expect(doc.meta.prompts).toBe(1);
    const prompts = doc.blocks.filter((b) => b.kind === 'prompt');
    expect(prompts.map((b) => [b.text, b.turn, b.anchor, b.kind === 'prompt' && b.command === true])).toEqual([
      ['/clear', 0, 't0.1', true],
      ['Please list them again', 1, 't1', false],
    ]);
    const text = renderTerminal(doc, { view: 'default', width: 80, color: false, timeZone: 'UTC' });
    expect(text).toMatch(/\n· \/clear {2}\(command, 2026-11-23 14:29\)\n/);
    expect(text).toMatch(/\n› 1\/1 {2}14:29\n {2}Please list them again\n/);
  });

  it('pi: both branches of the tree, the second after the main line, from the prompt it left', async () => {
    const doc = await buildDocument(SESSIONS['pi-branches']);
    expect(doc.meta.branches).toBe(1);
    // The last entry (the session's leaf) is on the branch; the header says so beside the index's counts.
    expect(doc.meta.currentBranch).toBe(1);
    const header = renderTerminal(doc, { view: 'default', width: 100, color: false });
    expect(header).toContain('counts  3 prompts · 8 answers · 5 tool calls · main line + 1 branch, now on branch 1\n');
    const branch = doc.blocks.find((b) => b.kind === 'branch');
    expect(branch).toMatchObject({ index: 1, label: 'from prompt 1' });
    // Prompts 1 and 2 on the main line, prompt 3 on the branch.
    const prompts = doc.blocks.filter((b) => b.kind === 'prompt');
    expect(prompts.map((p) => p.anchor)).toEqual(['t1', 't2', 't3']);
    expect(doc.blocks.indexOf(branch as Block)).toBeGreaterThan(doc.blocks.indexOf(prompts[1] as Block));
    expect(doc.blocks.indexOf(branch as Block)).toBeLessThan(doc.blocks.indexOf(prompts[2] as Block));
    expect(doc.blocks.some((b) => b.kind === 'compaction' && b.source === 'branch')).toBe(true);
  });

  it('Claude: compaction marked with its summary, the history before it kept, the sub-agent inline at its call', async () => {
    const doc = await buildDocument(SESSIONS['claude-compact-subagent']);
    const compaction = doc.blocks.findIndex((b) => b.kind === 'compaction');
    expect(compaction).toBeGreaterThan(0);
    expect(doc.blocks.slice(0, compaction).filter((b) => b.kind === 'prompt').length).toBeGreaterThanOrEqual(3);
    const agent = tools(doc).find((t) => t.children);
    expect(agent?.childLabel).toBe('general-purpose: Count the words');
    expect(kinds(agent?.children ?? [])).toContain('tool');
    // Sub-agent anchors sit under the call's, with the parent's turn.
    expect(agent?.children?.[0]?.anchor).toBe(`${agent?.anchor}.1`);
    expect(new Set(agent?.children?.map((c) => c.turn))).toEqual(new Set([agent?.turn]));
  });

  it('Claude: a failing Bash call has its exit status; edits are diffs', async () => {
    const doc = await buildDocument(SESSIONS['claude-compact-subagent']);
    const failed = tools(doc).find((t) => t.summary === 'ls missing-dir');
    expect(failed).toMatchObject({ status: 'error', exitCode: 2 });
    const edit = tools(doc).find((t) => t.name === 'Edit');
    expect(edit?.diff).toMatchObject({ added: 1, removed: 1 });
    expect(edit?.diff?.unified).toContain('+# Release plan');
  });

  it('Claude (older versions): a sub-agent written inline (isSidechain) goes under the Task call that started it', async () => {
    // Hand-written in Claude Code's record shape: the real fixtures are of 2.1.x, which writes sub-agents to their own files.
    const dir = mkdtempSync(join(tmpdir(), 'rw-reader-sidechain-'));
    try {
      const t = (s: number) => `2026-11-28T09:00:${String(s).padStart(2, '0')}.000Z`;
      const base = { sessionId: 's1', cwd: '/p', version: '1.0.80', type: 'user' };
      const lines = [
        { ...base, uuid: 'u1', parentUuid: null, isSidechain: false, timestamp: t(1), message: { role: 'user', content: 'count the files' } },
        { ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', isSidechain: false, timestamp: t(2), message: { role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: 'task1', name: 'Task', input: { description: 'count files', prompt: 'Count the files here.', subagent_type: 'general-purpose' } }] } },
        { ...base, uuid: 's1u', parentUuid: null, isSidechain: true, timestamp: t(3), message: { role: 'user', content: 'Count the files here.' } },
        { ...base, type: 'assistant', uuid: 's1a', parentUuid: 's1u', isSidechain: true, timestamp: t(4), message: { role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'ls | wc -l' } }] } },
        { ...base, uuid: 's1r', parentUuid: 's1a', isSidechain: true, timestamp: t(5), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b1', content: '3' }] } },
        { ...base, type: 'assistant', uuid: 's1b', parentUuid: 's1r', isSidechain: true, timestamp: t(6), message: { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'There are 3 files.' }], stop_reason: 'end_turn' } },
        { ...base, uuid: 'r1', parentUuid: 'a1', isSidechain: false, timestamp: t(7), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'task1', content: 'There are 3 files.' }] } },
        { ...base, type: 'assistant', uuid: 'a2', parentUuid: 'r1', isSidechain: false, timestamp: t(8), message: { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'Three files.' }], stop_reason: 'end_turn' } },
      ];
      const file = join(dir, 's1.jsonl');
      writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
      const doc = await buildDocument(file);
      expect(doc.meta).toMatchObject({ prompts: 1, toolCalls: 1, answers: 1 });
      const task = tools(doc)[0];
      expect(task).toMatchObject({ name: 'Task', status: 'ok', childLabel: 'general-purpose: count files' });
      expect(kinds(task?.children ?? [])).toEqual(['prompt', 'tool', 'answer']);
      expect(task?.children?.find((c) => c.kind === 'tool')).toMatchObject({ summary: 'ls | wc -l', anchor: `${task?.anchor}.2` });
      expect(doc.blocks.filter((b) => b.kind === 'answer').map((b) => b.kind === 'answer' && b.text)).toEqual(['Three files.']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a file whose parent chain is broken still shows every message', async () => {
    const broken = await buildDocument(SESSIONS['claude-broken-chain']);
    const whole = await buildDocument(SESSIONS['claude-compact-subagent']);
    expect(broken.meta.prompts).toBe(whole.meta.prompts);
    expect(broken.meta.answers).toBe(whole.meta.answers);
    expect(broken.blocks.filter((b) => b.kind === 'prompt').map((b) => b.kind === 'prompt' && b.text)).toEqual(whole.blocks.filter((b) => b.kind === 'prompt').map((b) => b.kind === 'prompt' && b.text));
    expect(broken.meta.branches).toBe(0);
  });

  it('Codex: apply_patch becomes the same diff as the other agents\' edits; exit codes and durations from the output', async () => {
    const doc = await buildDocument(SESSIONS['codex-patch-exec']);
    const patches = tools(doc).filter((t) => t.diff);
    expect(patches.map((t) => [t.diff?.file, t.diff?.added, t.diff?.removed])).toEqual([['notes.md', 5, 0], ['notes.md', 1, 1]]);
    expect(patches[0]?.diff?.created).toBe(true);
    const failing = tools(doc).find((t) => t.status === 'error');
    expect(failing?.exitCode).toBe(2);
  });

  it('Qwen and Gemini: prompts, answers, tool lines', async () => {
    const qwen = await buildDocument(SESSIONS['qwen-edit-shell']);
    expect(tools(qwen).find((t) => t.name === 'edit')?.diff).toMatchObject({ added: 1, removed: 1 });
    const gemini = await buildDocument(SESSIONS['gemini-2turns']);
    expect(gemini.meta).toMatchObject({ agent: 'gemini', prompts: 2, toolCalls: 2 });
    expect(gemini.blocks.filter((b) => b.kind === 'answer' && b.final).length).toBe(2);
  });

  it('the final answer of each turn is marked (what --focused keeps)', async () => {
    const doc = await buildDocument(SESSIONS['pi-branches']);
    const text = renderTerminal(doc, { view: 'focused', width: 100, color: false });
    expect(text).toContain('Done: the last item now reads ship it by Friday.');
    expect(text).not.toContain('Adding the deadline.');
    expect(text).not.toContain('▸ ');
  });

  it('missing, folder and unknown files: one-line errors', async () => {
    await expect(buildDocument(`${FIXTURES}/nope.jsonl`)).rejects.toThrow(/^No such file: /);
    await expect(buildDocument(FIXTURES)).rejects.toThrow(/is a folder/);
  });
});

describe('findAnchor', () => {
  it('the first block holding every word, else the one holding most', async () => {
    const doc = await buildDocument(SESSIONS['pi-branches']);
    expect(findAnchor(doc, 'MISSING-DIR failed')).toMatchObject({ all: true, turn: 2 });
    expect(findAnchor(doc, 'deadline')).toMatchObject({ anchor: 't3', all: true });
    expect(findAnchor(doc, 'deadline zzzunknown')).toMatchObject({ anchor: 't3', all: false });
    expect(findAnchor(doc, 'zzzunknown')).toBeUndefined();
    expect(findAnchor(doc.blocks, '   ')).toBeUndefined();
  });
});
