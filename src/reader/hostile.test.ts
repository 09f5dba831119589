import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAKE_SECRETS, hostileTranscript, writeHugeLineTranscript } from '../../test/helpers/hostile-transcripts.js';
import { buildDocument } from './build.js';
import { renderOutline } from './outline.js';
import { renderTerminal } from './terminal.js';

// A pi session whose every text is hostile: escape sequences (CSI, OSC 8 links, 8-bit CSI), bidi
// controls, zero-width characters, HTML, secrets, and a tool output of 10 MB on one line.
const dir = mkdtempSync(join(tmpdir(), 'rw-reader-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ESC_PAYLOADS = '\x1b[2J\x1b[31mred\x1b[0m \x1b]8;;https://evil.example\x07link\x1b]8;;\x07 \x9b31m \x1bP+q\x1b\\ \x07bell';
const BIDI = 'user\u202etxt.exe \u2066iso\u2069 zero\u200bwidth';
const HTML = '<script>alert(1)</script> </script><img src=x onerror=alert(2)> [x](javascript:alert(3))';
const SECRET = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';
const AWS = 'AKIAIOSFODNN7EXAMPLE';

function line(o: unknown): string {
  return `${JSON.stringify(o)}\n`;
}

function hostileSession(): string {
  const file = join(dir, 'hostile.jsonl');
  const t = (s: number) => new Date(Date.UTC(2026, 10, 28, 9, 0, s)).toISOString();
  const big = `${'A'.repeat(5 * 1024 * 1024)} \x1b[31m${SECRET} ${'B'.repeat(5 * 1024 * 1024)}`;
  writeFileSync(
    file,
    line({ type: 'session', version: 3, id: '01a2hostile', timestamp: t(0), cwd: `/tmp/x\x1b[31m` }) +
      line({ type: 'message', id: 'u1', parentId: null, timestamp: t(1), message: { role: 'user', content: [{ type: 'text', text: `${ESC_PAYLOADS} ${BIDI} ${HTML} key ${SECRET}` }] } }) +
      line({
        type: 'message', id: 'a1', parentId: 'u1', timestamp: t(2),
        message: { role: 'assistant', model: 'm\x1b[5m', content: [
          { type: 'thinking', thinking: `think ${ESC_PAYLOADS}` },
          { type: 'text', text: `# Head ${ESC_PAYLOADS}\n\n| a | b |\n|---|---|\n| ${BIDI} | ${AWS} |\n\n\`\`\`sh\n${ESC_PAYLOADS}\n\`\`\`\n\n${HTML}` },
          { type: 'toolCall', id: 'c1', name: 'bash\x1b[31m', arguments: { command: `echo ${ESC_PAYLOADS} ${SECRET}` } },
          { type: 'toolCall', id: 'c2', name: 'edit', arguments: { path: `f\u202e.ts`, oldText: `a ${ESC_PAYLOADS}`, newText: `b ${AWS}` } },
        ] },
      }) +
      line({ type: 'message', id: 'r1', parentId: 'a1', timestamp: t(3), message: { role: 'toolResult', toolCallId: 'c1', toolName: 'bash', content: [{ type: 'text', text: big }], isError: false } }) +
      line({ type: 'message', id: 'r2', parentId: 'r1', timestamp: t(4), message: { role: 'toolResult', toolCallId: 'c2', toolName: 'edit', content: [{ type: 'text', text: `ok ${ESC_PAYLOADS}` }], isError: false } }),
  );
  return file;
}

// Our own colours only: SGR sequences ESC [ digits m.
const FOREIGN_ESCAPE = /\x1b(?!\[[0-9;]*m)|\x9b|\x07|[\u202a-\u202e\u2066-\u2069\u200b]/;

describe('hostile transcripts', () => {
  const file = hostileSession();

  it('no escape sequence, bidi control or secret from the transcript reaches the output, in every view', async () => {
    const doc = await buildDocument(file);
    expect(doc.meta.prompts).toBe(1);
    const big = doc.blocks.find((b) => b.kind === 'tool' && b.output && b.output.totalChars > 10_000_000);
    expect(big?.kind === 'tool' && big.output?.cut).toBe(true);
    for (const view of ['focused', 'default', 'full'] as const) {
      for (const color of [false, true]) {
        const text = renderTerminal(doc, { view, width: 80, color, thinking: true });
        expect(text).not.toMatch(FOREIGN_ESCAPE);
        if (!color) expect(text).not.toContain('\x1b');
        expect(text).not.toContain(SECRET.slice(10));
        expect(text).not.toContain(AWS);
      }
    }
    const full = renderTerminal(doc, { view: 'full', width: 80, color: false, thinking: true });
    // The markup is shown as text (the terminal runs nothing), the masks say where secrets were.
    expect(full).toContain('<script>alert(1)</script>');
    expect(full).toContain('[secret]');
    expect(renderOutline(doc, { width: 80 })).not.toMatch(FOREIGN_ESCAPE);
  });

  it('the secret after 5 MB on one line is cut away, and a secret at the cut is masked whole', async () => {
    const doc = await buildDocument(file, { outputMaxChars: 5 * 1024 * 1024 + 20 });
    const tool = doc.blocks.find((b) => b.kind === 'tool' && b.output?.cut);
    const text = tool?.kind === 'tool' ? (tool.output?.text ?? '') : '';
    expect(text.length).toBeLessThanOrEqual(5 * 1024 * 1024 + 20);
    // (booleans: a failure must not print 5 MB)
    expect(text.includes('sk-ant-api03-AbCd')).toBe(false);
    expect(text.endsWith('[secret]') || text.includes(' [sec')).toBe(true);
  });
});

// Every agent's hostile fixture (made from its real reader session by changing text only) and a 10 MB line in its format.
describe('hostile transcripts of every agent', () => {
  for (const agent of ['pi', 'claude', 'codex', 'qwen', 'gemini'] as const) {
    it(`${agent}: no foreign escape, bidi control or fake secret in any view; markup shown as text`, async () => {
      const doc = await buildDocument(hostileTranscript(agent, dir));
      expect(doc.meta.prompts).toBeGreaterThan(0);
      for (const view of ['focused', 'default', 'full'] as const) {
        for (const color of [false, true]) {
          const text = renderTerminal(doc, { view, width: 100, color, thinking: true });
          expect(text).not.toMatch(FOREIGN_ESCAPE);
          for (const secret of Object.values(FAKE_SECRETS)) expect(text.includes(secret.slice(0, 12))).toBe(false);
        }
      }
      const full = renderTerminal(doc, { view: 'full', width: 100, color: false });
      expect(full).toContain('[secret]');
      expect(full).toContain('alert(');
      expect(renderOutline(doc, { width: 100 })).not.toMatch(FOREIGN_ESCAPE);
    });

    it(`${agent}: a 10 MB line is read, its output cut, the rest of the session still shown`, async () => {
      const doc = await buildDocument(writeHugeLineTranscript(agent, dir));
      const cut = doc.blocks.filter((b) => b.kind === 'tool' && b.output?.cut);
      // Codex writes a command's output in two records; the helper blows up the first, its event_msg, which
      // the reader does not show (the function_call_output is).
      expect(cut.length).toBe(agent === 'codex' ? 0 : 1);
      const normal = await buildDocument(writeHugeLineTranscript(agent, join(dir, 'small'), 100));
      expect(doc.meta.prompts).toBe(normal.meta.prompts);
      expect(renderTerminal(doc, { view: 'default', width: 80, color: false }).length).toBeLessThan(200_000);
    });
  }
});
