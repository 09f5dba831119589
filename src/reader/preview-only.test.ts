import { describe, expect, test } from 'vitest';
import { sampleDocument } from '../../test/helpers/reader-documents.js';
import { DocumentAssembler } from './assemble.js';
import type { ReaderDocument, ToolBlock } from './document.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { renderOutline } from './outline.js';

// A session of one prompt and one shell call with this output, assembled with or without previewOnly.
function docOf(output: string, previewOnly: boolean): ReaderDocument {
  const a = new DocumentAssembler({ previewOnly });
  a.push({ id: 'u1', parentId: null, events: [{ kind: 'user', text: 'run it', sourceId: 'u1', ts: 1000 }] });
  a.push({ id: 'a1', parentId: 'u1', events: [{ kind: 'tool-call', name: 'Bash', callId: 'c1', args: 'command=run', command: 'run', paths: [], sourceId: 'a1', ts: 2000 }] });
  a.push({ id: 'r1', parentId: 'a1', events: [{ kind: 'tool-result', callId: 'c1', ok: true, text: output, sourceId: 'r1', ts: 3000 }] });
  return { meta: { ...sampleDocument().meta, prompts: 1 }, blocks: a.finish() };
}

const outputOf = (doc: ReaderDocument) => (doc.blocks.find((b) => b.kind === 'tool') as ToolBlock).output;
const secret = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const line = (i: number) => `row ${i}: ${'x'.repeat(60)}`;
const long = (n: number, first = '') => [first, ...Array.from({ length: n }, (_, i) => line(i))].filter(Boolean).join('\n');

describe('previewOnly', () => {
  const cases: [string, string, boolean][] = [
    ['a long output', long(2000), true],
    ['a long output with a secret in its preview', long(2000, `token=${secret}`), true],
    ['a long output whose first line is longer than the preview region', `${'y'.repeat(5000)}\n${long(2000)}`, false],
    ['a long output of four lines', `${'z'.repeat(30000)}\na\nb\nc`, false],
    ['a long output with carriage returns', long(2000).replace(/\n/g, '\r\n'), false],
    ['a long output with an escape sequence', `\x1b]0;title\n${long(2000)}`, false],
    ['a long output after blank lines', ` \n\n${long(2000)}`, false],
    ['a long output that is mostly blank lines at its end', `${long(6)}\n${'\n'.repeat(30000)}`, false],
    ['a short output', long(10), false],
  ];
  test.each(cases)('%s: the markdown and the page are those of the whole output', (_, output, shortened) => {
    const whole = docOf(output, false);
    const part = docOf(output, true);
    for (const view of ['default', 'focused'] as const) {
      expect(renderMarkdown(part, { view, timeZone: 'UTC' })).toBe(renderMarkdown(whole, { view, timeZone: 'UTC' }));
      expect(renderHtml(part, { view, timeZone: 'UTC' })).toBe(renderHtml(whole, { view, timeZone: 'UTC' }));
    }
    const [p, w] = [outputOf(part), outputOf(whole)];
    expect(p && w && p.text.length < w.text.length).toBe(shortened);
    expect(renderMarkdown(part, { view: 'default', timeZone: 'UTC' })).not.toContain(secret);
  });
});

describe('lean (the outline)', () => {
  const session = (prompt: string, lean: boolean): ReaderDocument => {
    const a = new DocumentAssembler({ lean });
    a.push({ id: 'u1', parentId: null, events: [{ kind: 'user', text: prompt, sourceId: 'u1', ts: 1000 }] });
    a.push({ id: 'a1', parentId: 'u1', events: [{ kind: 'tool-call', name: 'Bash', callId: 'c1', args: 'command=run', command: `run ${secret}`, paths: [], sourceId: 'a1', ts: 2000 }] });
    return { meta: { ...sampleDocument().meta, prompts: 1 }, blocks: a.finish() };
  };
  test.each([
    ['a long prompt', `${secret} ${'word '.repeat(4000)}`],
    ['a long prompt of wide characters', `${secret} ${'語'.repeat(20000)}`],
    ['a long prompt of invisible characters', `a${'\u200b'.repeat(9800)}b ${secret} ${'c'.repeat(9000)}`],
    ['a short prompt', `fix ${secret} now`],
  ])('%s: the outline is the one of the whole document, masked', (_, prompt) => {
    for (const width of [20, 80, 1000]) {
      const lean = renderOutline(session(prompt, true), { width, timeZone: 'UTC' });
      expect(lean).toBe(renderOutline(session(prompt, false), { width, timeZone: 'UTC' }));
      expect(lean).not.toContain(secret.slice(0, 12));
    }
  });
  test('a long prompt is cut to the line as the whole prompt is', () => {
    const line = renderOutline(session(`fix the parser ${'and the tests '.repeat(600)}`, true), { width: 60, timeZone: 'UTC' });
    expect(line).toBe('› 1/1  1970-01-01 00:00  fix the parser and…  · Bash · 1.0s\n');
  });
});
