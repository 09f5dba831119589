import MarkdownIt from 'markdown-it';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FIXTURES_DIR } from '../../test/helpers/shared.js';
import { hostileDocument, sampleDocument } from '../../test/helpers/reader-documents.js';
import type { Block, ReaderDocument } from './document.js';
import { PREVIEW_LINE_CHARS, PREVIEW_LINES } from './export-format.js';
import { fenceFor, inlineCode, renderMarkdown } from './markdown.js';

const GOLDEN_DIR = join(FIXTURES_DIR, 'reader');

function tool(output: string, extra: Partial<Block> = {}): ReaderDocument {
  const doc = sampleDocument();
  doc.blocks = [
    { kind: 'prompt', anchor: 't1', turn: 1, text: 'go' },
    { kind: 'tool', anchor: 't1.1', turn: 1, name: 'Bash', summary: 'cat x', status: 'ok', output: { text: output, totalLines: output.split('\n').length, totalChars: output.length }, ...extra } as Block,
  ];
  return doc;
}

/** The text of each fenced block as a CommonMark parser reads the markdown back. */
function fencesOf(markdown: string): string[] {
  return new MarkdownIt().parse(markdown, {}).filter((t) => t.type === 'fence').map((t) => t.content.replace(/\n$/, ''));
}

describe('renderMarkdown', () => {
  test.each(['focused', 'default', 'full'] as const)('the sample session in the %s view matches its golden', async (view) => {
    const md = renderMarkdown(sampleDocument(), { view, timeZone: 'UTC' });
    await expect(md).toMatchFileSnapshot(join(GOLDEN_DIR, `sample.${view}.md`));
  });

  test('--thinking shows the thinking text; without it, one line says how long it was', () => {
    const doc = sampleDocument();
    const folded = renderMarkdown(doc, { view: 'default', timeZone: 'UTC' });
    expect(folded).toContain('*Thinking: 56 characters, folded.*');
    expect(folded).not.toContain('probably in the foreign key');
    const shown = renderMarkdown(doc, { view: 'default', thinking: true, timeZone: 'UTC' });
    expect(shown).toContain('> The failure is probably in the foreign key of invoices.');
    expect(renderMarkdown(doc, { view: 'focused', timeZone: 'UTC' })).not.toContain('Thinking');
  });

  test('the focused view keeps prompts, final answers and the compaction mark, and drops tools and steps', () => {
    const md = renderMarkdown(sampleDocument(), { view: 'focused', timeZone: 'UTC' });
    expect(md).toContain('## Prompt 12/14 · 14:20');
    expect(md).toContain('Fixed the **foreign key**');
    expect(md).toContain('**Compacted here**');
    expect(md).toContain('## Branch 1 · from prompt 8');
    expect(md).not.toContain('Let me run the tests first.');
    expect(md).not.toContain('🔧');
  });

  test('an output is cut to the preview with "… N more lines" by default, whole in the full view', () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
    const cut = fencesOf(renderMarkdown(tool(text), { view: 'default' }));
    expect(cut).toEqual([`${text.split('\n').slice(0, PREVIEW_LINES).join('\n')}\n… ${50 - PREVIEW_LINES} more lines`]);
    expect(fencesOf(renderMarkdown(tool(text), { view: 'full' }))).toEqual([text]);
  });

  test('what the builder cut is counted in the full view too', () => {
    const doc = tool('a\nb');
    const block = doc.blocks[1] as Extract<Block, { kind: 'tool' }>;
    block.output = { text: 'a\nb', totalLines: 9000, totalChars: 1e6, cut: true };
    expect(fencesOf(renderMarkdown(doc, { view: 'full' }))).toEqual(['a\nb\n… 8998 more lines']);
  });

  test('fences are longer than any run of backticks inside, so an output cannot close its fence', () => {
    const text = 'before\n````\nnot code\n``````\nafter';
    const md = renderMarkdown(tool(text), { view: 'full' });
    expect(md).toContain('```````\nbefore');
    expect(fencesOf(md)).toEqual([text]);
    expect(fenceFor('no ticks')).toBe('```');
    expect(fenceFor('a ```` b')).toBe('`````');
  });

  test('inline code holds backticks and edges that would end it', () => {
    for (const text of ['a `b` c', '`start', 'end`', '``double``']) {
      const tokens = new MarkdownIt().parseInline(inlineCode(text), {})[0]!.children!;
      expect(tokens.map((t) => [t.type, t.content])).toEqual([['code_inline', text]]);
    }
  });

  test('a sub-agent is folded by default (one line and the start of its answer, as the terminal); full shows every level', () => {
    const doc = sampleDocument();
    const task = doc.blocks.find((b) => b.kind === 'tool' && b.children) as Extract<Block, { kind: 'tool' }>;
    task.children!.push({
      kind: 'tool', anchor: 't2.1.4', turn: 2, name: 'Task', summary: 'nested', status: 'ok', childLabel: 'deeper',
      children: [{ kind: 'answer', anchor: 't2.1.4.1', turn: 2, text: 'deep answer', final: true }],
    });
    const md = renderMarkdown(doc, { view: 'default' });
    expect(md).toContain('> **Sub-agent (code-reviewer)**: 2 tool calls; `--full` shows its work\n>\n> No drift left.');
    expect(md).not.toContain('schema.ts');
    const full = renderMarkdown(doc, { view: 'full' });
    expect(full).toContain('> 🔧 **Read** · `src/billing/schema.ts`');
    expect(full).toContain('> > deep answer');
  });

  test('a hostile transcript: no escape sequence or bidi control survives, a 10 MB line is cut, fences hold', () => {
    const start = performance.now();
    const md = renderMarkdown(hostileDocument(), { view: 'default' });
    expect(performance.now() - start).toBeLessThan(2_000);
    expect(md).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(md).toContain('⟨U+202E⟩gnp.exe');
    expect(md).toContain('⟨U+001B⟩[31mred');
    expect(md.length).toBeLessThan(20_000);
    expect(md).toContain(`${'A'.repeat(PREVIEW_LINE_CHARS)}…`);
    expect(md).not.toContain('A'.repeat(PREVIEW_LINE_CHARS + 1));
    // The prompt with ``` and ```` inside stays one quoted paragraph, not a code block.
    expect(md).toContain('> second ``` fence ```` inside');
  });

  test('metadata cells cannot break the table: pipes and newlines are escaped', () => {
    const doc = sampleDocument();
    doc.meta.recap = 'a | b\nc';
    doc.meta.note = 'back\\slash';
    const md = renderMarkdown(doc, { view: 'focused' });
    expect(md).toContain('| Recap | a \\| b c |');
    const tokens = new MarkdownIt().parse(md, {});
    const firstTable = tokens.slice(0, tokens.findIndex((t) => t.type === 'table_close'));
    expect(firstTable.filter((t) => t.type === 'tr_open')).toHaveLength(12);
  });

  test('times are shown in the time zone asked, the day only when it changes', () => {
    const md = renderMarkdown(sampleDocument(), { view: 'focused', timeZone: 'Asia/Tokyo' });
    expect(md).toContain('## Prompt 1/14 · 2026-11-28 23:02');
    // The sample's second turn opens with a slash command: marked, not a numbered prompt.
    expect(md).toContain('**Command** · 23:05: `/review src/billing`');
  });
});
