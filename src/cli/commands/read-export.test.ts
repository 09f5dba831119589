import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, test } from 'vitest';
import { TRANSCRIPTS_DIR } from '../../../test/helpers/shared.js';
import { runRead, type ReadCliOptions } from './read-run.js';

const FIXTURES = {
  claude: join(TRANSCRIPTS_DIR, 'claude/reader/compact-subagent/41e0c0de-0000-4000-8000-00000000c1a0.jsonl'),
  'claude broken chain': join(TRANSCRIPTS_DIR, 'claude/reader/broken-chain.jsonl'),
  codex: join(TRANSCRIPTS_DIR, 'codex/reader/patch-exec.jsonl'),
  pi: join(TRANSCRIPTS_DIR, 'pi/reader/branches.jsonl'),
  qwen: join(TRANSCRIPTS_DIR, 'qwen/reader/edit-shell.jsonl'),
  gemini: join(TRANSCRIPTS_DIR, 'gemini/interactive-2turns.jsonl'),
};

const dir = mkdtempSync(join(tmpdir(), 'rw-read-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(file: string, options: ReadCliOptions): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c));
  let err = '';
  const code = await runRead(file, options, { env: { HOME: dir, XDG_STATE_HOME: join(dir, 'state') }, cwd: dir, tty: false, stdout, stderr: (t) => (err += t) });
  return { code, out: Buffer.concat(chunks).toString('utf8'), err };
}

describe('read --md / --html', () => {
  test.each(Object.entries(FIXTURES))('%s: markdown with a table and numbered prompts; an HTML page written private', async (_agent, file) => {
    const md = await read(file, { md: true });
    expect(md.err).toBe('');
    expect(md.code).toBe(0);
    expect(md.out).toMatch(/^# .+\n\n\| \| \|\n\|---\|---\|\n\| Agent \| /);
    expect(md.out).toMatch(/\n## Prompt 1\/\d+ · /);
    expect(md.out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);

    const target = join(dir, `${_agent.replace(/\W/g, '-')}.html`);
    const html = await read(file, { html: target });
    expect(html.code).toBe(0);
    expect(html.err).toMatch(/^wrote .+\.html \(\d+ KB, \d+ prompts\): one file, no request leaves it/);
    const page = readFileSync(target, 'utf8');
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none';`);
    expect(page).toContain('<div class="b prompt" id="t1">');
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });

  test('a file under the home folder is named ~/… in the page and the markdown (a file made to be shared names no account)', async () => {
    const under = join(dir, 'sessions', 'pi.jsonl');
    mkdirSync(join(dir, 'sessions'), { recursive: true });
    copyFileSync(FIXTURES.pi, under);
    const md = await read(under, { md: true });
    expect(md.out).toContain('| File | `~/sessions/pi.jsonl` |');
    expect(md.out).not.toContain(dir);
    const page = await read(under, { html: '-' });
    expect(page.out).toContain('<code>~/sessions/pi.jsonl</code>');
    expect(page.out).not.toContain(dir);
  });

  test('--md --turn 3 starts at prompt 3; --at starts at the first message holding the words', async () => {
    const turn = await read(FIXTURES.claude, { md: true, turn: '3' });
    expect(turn.out).not.toContain('## Prompt 1/');
    // 4 prompts: its `/compact` is a command, shown but not numbered.
    expect(turn.out).toMatch(/\n## Prompt 3\/4 · [^\n]*\n\n> Ask a helper agent/);
    expect(turn.out).toMatch(/\n\*\*Command\*\* · [^\n]*: `\/compact`\n[\s\S]*\n## Prompt 4\/4 · /);
    const at = await read(FIXTURES.claude, { md: true, at: 'release plan checked' });
    expect(at.code).toBe(0);
    expect(at.out).not.toContain('## Prompt 1/');
    const none = await read(FIXTURES.claude, { md: true, turn: '9' });
    expect([none.code, none.err]).toEqual([1, 'recapwrap: no prompt 9: the session has 4 prompts\n']);
  });

  test('--full and --focused reach the markdown; --thinking shows the thinking', async () => {
    const focused = await read(FIXTURES.claude, { md: true, focused: true });
    expect(focused.out).not.toContain('🔧');
    const thinking = await read(FIXTURES.claude, { md: true, thinking: true });
    expect(thinking.out).toContain('> *Thinking*');
  });

  test('--html - writes the page to stdout', async () => {
    const html = await read(FIXTURES.qwen, { html: '-' });
    expect(html.out).toMatch(/^<!doctype html>/);
    expect(html.err).toBe('');
  });

  test.each([
    [{ md: true, html: 'x.html' }, 'use --md or --html FILE, not both'],
    [{ md: true, outline: true }, '--outline is a terminal form; drop it for --md'],
    [{ html: 'x.html', turn: '2' }, '--html writes the whole session; open the page at a message with its link (FILE#t12)'],
    [{ html: ' ' }, '`--html` needs a file to write (or - for stdout)'],
  ] as [ReadCliOptions, string][])('flags that do not fit together are refused before reading: %j', async (options, message) => {
    const result = await read(FIXTURES.claude, options);
    expect([result.code, result.err]).toEqual([2, `recapwrap: ${message}\n`]);
  });

  test('an HTML file that cannot be written is one line and exit 1', async () => {
    const result = await read(FIXTURES.claude, { html: join(dir, 'no-such-dir', 'x.html') });
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^recapwrap: cannot write .*x\.html: ENOENT/);
  });
});
