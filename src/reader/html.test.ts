import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { hostileDocument, sampleDocument } from '../../test/helpers/reader-documents.js';
import type { Block } from './document.js';
import { contentSecurityPolicy, escapeHtml, HTML_REST_MAX_CHARS, renderAgentMarkdown, renderHtml } from './html.js';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function toolDoc(text: string, extra: Partial<Extract<Block, { kind: 'tool' }>['output']> = {}) {
  const doc = sampleDocument();
  doc.blocks = [
    { kind: 'prompt', anchor: 't1', turn: 1, text: 'go' },
    { kind: 'tool', anchor: 't1.1', turn: 1, name: 'Bash', summary: 'cat', status: 'ok', output: { text, totalLines: text.split('\n').length, totalChars: text.length, ...extra } },
  ];
  return doc;
}

describe('renderHtml', () => {
  test('the CSP comes first in <head>, allows nothing by default, and names our one style and one script by hash', () => {
    const html = renderHtml(sampleDocument(), { view: 'default' });
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(head.indexOf('<title>'));
    const csp = /content="([^"]+)"/.exec(head.slice(head.indexOf('Content-Security-Policy')))![1]!;
    expect(csp).toBe(contentSecurityPolicy());
    expect(csp).toMatch(/^default-src 'none'; /);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(1);
    expect(scripts).toHaveLength(1);
    expect(csp).toContain(`style-src ${hash(styles[0]!)}`);
    expect(csp).toContain(`script-src ${hash(scripts[0]!)}`);
    // No style attribute (the CSP would refuse it): markdown tables align by class.
    expect(html).not.toMatch(/ style=/);
    expect(html).toContain('<th class="al-right">state</th>');
  });

  test('a hostile transcript stays text: one script and one style (ours), no tag, handler or unsafe link of its own', () => {
    const html = renderHtml(hostileDocument(), { view: 'full', thinking: true });
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html.match(/<style/gi)).toHaveLength(1);
    expect(html).not.toMatch(/<(img|iframe|svg|link|object|embed|base|form|meta http-equiv="refresh")\b/i);
    expect(html).not.toMatch(/\son\w+\s*=\s*["']?window/i);
    expect(html).not.toMatch(/href="(?!#|https?:|mailto:)/i);
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;window.__recapwrapPwned=1&lt;/script&gt;');
    expect(html).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  });

  test('a 10 MB single line is cut to its preview: the page stays small and quick', () => {
    const start = performance.now();
    const html = renderHtml(hostileDocument(), { view: 'default' });
    expect(performance.now() - start).toBeLessThan(2_000);
    expect(html.length).toBeLessThan(60_000);
    expect(html).toContain('not kept in this file');
  });

  test('the rest of an output is one click away only when small', () => {
    const small = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const smallHtml = renderHtml(toolDoc(small), { view: 'default' });
    expect(smallHtml).toContain('<details class="rest"><summary>… 26 more lines</summary><pre class="out" dir="auto">line 4\n');
    const big = Array.from({ length: 2000 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
    expect(big.length).toBeGreaterThan(HTML_REST_MAX_CHARS);
    const bigHtml = renderHtml(toolDoc(big), { view: 'default' });
    expect(bigHtml).not.toContain('line 1999');
    expect(bigHtml).toContain('… 1996 more lines (');
    // What the builder already cut is never offered as "the rest".
    const cutHtml = renderHtml(toolDoc('a\nb\nc\nd\ne\nf\ng', { totalLines: 500, cut: true }), { view: 'default' });
    expect(cutHtml).not.toContain('<details class="rest">');
  });

  test('blocks carry the views that hide them; the page opens in the view and thinking state asked', () => {
    const html = renderHtml(sampleDocument(), { view: 'focused', thinking: true });
    expect(html).toContain('<body class="v-focused th">');
    expect(html).toContain('<div class="b tool no-f err" id="t1.3">');
    expect(html).toContain('<div class="b answer no-f" id="t1.2">');
    expect(html).toContain('<div class="b answer final" id="t1.5">');
    expect(html).toContain('<div class="b prompt" id="t12">');
    expect(html).toContain('<a class="mark" href="#t12">› 12/14</a>');
  });

  test('markdown: raw HTML stays text, only http/https/mailto links, images become links, no linkify', () => {
    expect(renderAgentMarkdown('<b>x</b>')).toBe('<p>&lt;b&gt;x&lt;/b&gt;</p>\n');
    expect(renderAgentMarkdown('[a](https://x.test/) [b](javascript:alert(1)) [c](mailto:a@b.test) [d](file:///etc/passwd) [e](/rel)'))
      .toBe('<p><a href="https://x.test/" rel="noopener noreferrer nofollow">a</a> [b](javascript:alert(1)) <a href="mailto:a@b.test" rel="noopener noreferrer nofollow">c</a> [d](file:///etc/passwd) [e](/rel)</p>\n');
    expect(renderAgentMarkdown('![pic](https://x.test/p.png)')).toBe('<p><a class="img" href="https://x.test/p.png" rel="noopener noreferrer nofollow">[image: pic]</a></p>\n');
    expect(renderAgentMarkdown('see https://x.test/ now')).toBe('<p>see https://x.test/ now</p>\n');
  });

  test('escapeHtml escapes the five characters and shows reordering characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    expect(escapeHtml('a\u202Eb')).toBe('a⟨U+202E⟩b');
  });
});
