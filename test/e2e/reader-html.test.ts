// `read --html` pages in a real headless Chromium from file:// (#41): hostile transcripts run nothing and
// load nothing, and the view switch, the thinking toggle, prompt jumps, the find box and #tN work.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildDocument } from '../../src/reader/build.js';
import { renderHtml, type HtmlOptions } from '../../src/reader/html.js';
import type { ReaderDocument } from '../../src/reader/document.js';
import { chromiumAvailable, launchChromium, type TestBrowser } from '../helpers/browser.js';
import { hostileDocument, PWNED_MARK, sampleDocument } from '../helpers/reader-documents.js';

const hasChromium = chromiumAvailable();

describe.skipIf(!hasChromium)('read --html in Chromium', () => {
  let browser: TestBrowser;
  let dir: string;
  let files = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rw-html-'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  interface Opened {
    page: Page;
    url: string;
    /** Every request the page made beyond its own file. */
    requests: string[];
    dialogs: string[];
    errors: string[];
  }

  async function open(html: string, hash = ''): Promise<Opened> {
    const file = join(dir, `page-${++files}.html`);
    writeFileSync(file, html);
    const url = pathToFileURL(file).href;
    const page = await browser.context.newPage();
    const opened: Opened = { page, url, requests: [], dialogs: [], errors: [] };
    page.on('request', (request) => {
      if (request.url() !== url && request.url() !== url + hash) opened.requests.push(request.url());
    });
    page.on('dialog', (dialog) => {
      opened.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => opened.errors.push(error.message));
    await page.goto(url + hash, { waitUntil: 'load' });
    return opened;
  }

  function render(doc: ReaderDocument, opts: Partial<HtmlOptions> = {}): string {
    return renderHtml(doc, { view: 'default', timeZone: 'UTC', ...opts });
  }

  // Page-side code is given as strings: this project compiles without the DOM's types.
  const pwned = (page: Page) => page.evaluate(`window.${PWNED_MARK} ?? null`);

  test('the watchers can fail: a page without our CSP that runs a payload and loads an image is caught', async () => {
    const control = `<!doctype html><img src="http://127.0.0.1:9/x.png"><script>window.${PWNED_MARK}=1;alert(1)</script>`;
    const { page, requests, dialogs } = await open(control);
    expect(await pwned(page)).toBe(1);
    expect(dialogs).toEqual(['1']);
    expect(requests).toEqual(['http://127.0.0.1:9/x.png']);
    await page.close();
  });

  test('a hostile transcript runs nothing and requests nothing, in every view and with thinking shown', async () => {
    const { page, requests, dialogs, errors } = await open(render(hostileDocument(), { thinking: true }));
    for (const view of ['Focused', 'Full', 'Default']) {
      await page.getByRole('button', { name: view, exact: true }).click();
      await page.waitForFunction(`document.body.classList.contains('v-${view.toLowerCase()}')`);
    }
    await page.getByRole('button', { name: 'Thinking' }).click();
    // Every link a transcript made is http(s) or mailto; none is javascript: or data:.
    const hrefs = await page.$$eval('main a[href]', (as) => as.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.filter((h) => !/^(#|https?:|mailto:)/.test(h))).toEqual([]);
    // The payloads are there, as text.
    expect(await page.locator('#t1 .pt').innerText()).toContain('<img src=x onerror=');
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('main img, main iframe, main svg, main link, main style').count()).toBe(0);
    expect(await pwned(page)).toBeNull();
    expect(dialogs).toEqual([]);
    expect(requests).toEqual([]);
    expect(errors).toEqual([]);
    // Bidi controls are shown as marks, not obeyed.
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\x1b]/);
    expect(text).toContain('⟨U+202E⟩gnp.exe');
    await page.close();
  });

  test('a hostile pi session file, through the builder: nothing runs or loads, the secret is masked, escapes and bidi gone', async () => {
    const secret = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';
    const set = `window.${PWNED_MARK}=1`;
    const hostile = `\x1b[31mred\x1b]8;;https://example.invalid\x07link\x1b]8;;\x07 a\u202Etxt.exe <script>${set}</script> </script><img src=x onerror="${set}"> [x](javascript:${set}) key ${secret}`;
    const t = (s: number) => new Date(Date.UTC(2026, 10, 28, 9, 0, s)).toISOString();
    const lines = [
      { type: 'session', version: 3, id: '01a2hostile', timestamp: t(0), cwd: '/tmp/x' },
      { type: 'message', id: 'u1', parentId: null, timestamp: t(1), message: { role: 'user', content: [{ type: 'text', text: hostile }] } },
      { type: 'message', id: 'a1', parentId: 'u1', timestamp: t(2), message: { role: 'assistant', content: [
        { type: 'text', text: `# ${hostile}\n\n${hostile}` },
        { type: 'toolCall', id: 'c1', name: 'bash', arguments: { command: `echo ${hostile}` } },
      ] } },
      { type: 'message', id: 'r1', parentId: 'a1', timestamp: t(3), message: { role: 'toolResult', toolCallId: 'c1', toolName: 'bash', content: [{ type: 'text', text: `${hostile}\n${'A'.repeat(10 * 1024 * 1024)}` }] } },
    ];
    const file = join(dir, 'hostile-pi.jsonl');
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const doc = await buildDocument(file, { agent: 'pi' });
    const html = render(doc, { view: 'full', thinking: true });
    expect(html.length).toBeLessThan(200_000);
    const { page, requests, dialogs, errors } = await open(html);
    const text = await page.locator('main').innerText();
    expect(text).toContain('<script>window.');
    expect(text).toContain('A'.repeat(200)); // the 10 MB output is there, cut to its preview
    expect(text).not.toContain(secret);
    expect(text).not.toMatch(/[\x1b\u202e]/);
    expect(await pwned(page)).toBeNull();
    expect([requests, dialogs, errors]).toEqual([[], [], []]);
    await page.close();
  });

  test('the view switch shows and hides steps, tools and the rest of outputs', async () => {
    const { page } = await open(render(sampleDocument()));
    const tool = page.locator('[id="t1.3"]');
    const step = page.getByText('Let me run the tests first.');
    const rest = page.getByText('FAIL billing 40: expected invoice_id');
    await expect.poll(() => tool.isVisible()).toBe(true);
    expect(await rest.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Focused', exact: true }).click();
    await expect.poll(() => tool.isVisible()).toBe(false);
    expect(await step.isVisible()).toBe(false);
    expect(await page.locator('#t12').isVisible()).toBe(true);
    expect(await page.getByText('Table 12 holds 120 rows.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Full', exact: true }).click();
    await expect.poll(() => rest.isVisible()).toBe(true);
    expect(await step.isVisible()).toBe(true);
    // Keys do the same: 2 is the default view.
    await page.keyboard.press('2');
    await expect.poll(() => rest.isVisible()).toBe(false);
    await page.close();
  });

  test('thinking is folded to one line until toggled, by button or key', async () => {
    const { page } = await open(render(sampleDocument()));
    const thought = page.getByText('The failure is probably in the foreign key of invoices.');
    expect(await thought.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Thinking' }).click();
    await expect.poll(() => thought.isVisible()).toBe(true);
    await page.keyboard.press('t');
    await expect.poll(() => thought.isVisible()).toBe(false);
    await page.close();
  });

  test('#t12 opens at prompt 12; a link to a block the view hides switches to a view that shows it', async () => {
    const { page } = await open(render(sampleDocument()), '#t12');
    await expect.poll(() => page.locator('#t12').evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeLessThan(80);
    expect(await page.locator('#t12').evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThanOrEqual(0);
    await page.close();
    const focused = await open(render(sampleDocument(), { view: 'focused' }), '#t1.3');
    await expect.poll(() => focused.page.evaluate(`document.body.getAttribute('data-view')`)).toBe('default');
    expect(await focused.page.locator('[id="t1.3"]').isVisible()).toBe(true);
    await focused.page.close();
  });

  test('j and k jump prompt to prompt', async () => {
    const { page } = await open(render(sampleDocument()));
    const topOf = (id: string) => page.locator(`[id="${id}"]`).evaluate((el) => el.getBoundingClientRect().top);
    await page.keyboard.press('j');
    await expect.poll(async () => Math.abs((await topOf('t1')) - 60)).toBeLessThan(30);
    // The sample's second turn opens with a slash command (`/review src/billing`): no prompt, passed over.
    await page.keyboard.press('j');
    await expect.poll(async () => Math.abs((await topOf('t3')) - 60)).toBeLessThan(30);
    await page.keyboard.press('k');
    await expect.poll(async () => Math.abs((await topOf('t1')) - 60)).toBeLessThan(30);
    await page.getByRole('button', { name: '↓ Prompt' }).click();
    await expect.poll(async () => Math.abs((await topOf('t3')) - 60)).toBeLessThan(30);
    await page.close();
  });

  test('the find box finds text from file://, counts matches, steps with Enter and scrolls to each', async () => {
    const { page, requests } = await open(render(sampleDocument()));
    const found = page.locator('#found');
    await page.keyboard.press('/');
    await page.keyboard.type('table 12');
    await expect.poll(() => found.textContent()).toBe('1/2');
    await page.keyboard.press('Enter');
    await expect.poll(() => found.textContent()).toBe('2/2');
    const answer = page.getByText('Table 12 holds 120 rows.');
    await expect.poll(() => answer.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= (globalThis as unknown as { innerHeight: number }).innerHeight; })).toBe(true);
    expect(await page.evaluate(`CSS.highlights.get('find')?.size`)).toBe(2);
    // Text one click away (the rest of an output) is found, and its fold opened; text the view hides is not.
    const rest = page.getByText('FAIL billing 40: expected invoice_id');
    await page.locator('#find').fill('FAIL billing 40');
    await expect.poll(() => found.textContent()).toBe('1/1');
    await expect.poll(() => rest.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Focused', exact: true }).click();
    await expect.poll(() => found.textContent()).toBe('no match');
    // Escape in the box clears it, and the marks go with it.
    await page.locator('#find').press('Escape');
    await expect.poll(() => found.textContent()).toBe('');
    expect(await page.evaluate(`CSS.highlights.get('find')?.size ?? 0`)).toBe(0);
    expect(requests).toEqual([]);
    await page.close();
  });

  test('printed, the bar is gone and every block of every view is shown', async () => {
    const { page } = await open(render(sampleDocument(), { view: 'focused' }));
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.bar').isVisible()).toBe(false);
    expect(await page.locator('[id="t1.3"]').isVisible()).toBe(true);
    expect(await page.getByText('Let me run the tests first.').isVisible()).toBe(true);
    await page.close();
  });
});
