// The texts a record holds, whole, for the session index's vocabulary (issue 42): reasoning left out,
// base64 blobs left out, compact JSON and long outputs kept whole, a secret's value with its name.
import { describe, expect, it } from 'vitest';
import { recordTexts } from './shared-parse.js';

const textsOf = (record: unknown) => {
  const out: string[] = [];
  recordTexts(record, (t) => out.push(t));
  return out;
};

describe('recordTexts', () => {
  it('gives every string value, a tool output whole (the parsers keep 400 characters of it)', () => {
    const output = 'line of output\n'.repeat(100) + 'No module named openpyxl';
    const texts = textsOf({ type: 'user', message: { content: [{ type: 'tool_result', content: output }] }, cwd: '/w/shop' });
    expect(texts).toContain(output);
    expect(texts).toContain('/w/shop');
  });
  it('leaves reasoning out: thinking blocks, reasoning items, thoughts, parts marked thought', () => {
    const texts = textsOf({
      content: [{ type: 'thinking', thinking: 'secret plan', signature: 'sig' }, { type: 'text', text: 'the answer' }],
      payload: { type: 'reasoning', summary: [{ text: 'codex thought' }], encrypted_content: 'xx' },
      thoughts: [{ subject: 'gemini thought' }],
      parts: [{ text: 'qwen thought', thought: true }, { text: 'qwen says' }],
    });
    expect(texts).toEqual(['text', 'the answer', 'qwen says']);
  });
  it('leaves a base64 blob out but keeps compact JSON, and gives a secret value with its name', () => {
    const blob = 'iVBORw0KGgo' + 'A'.repeat(2000);
    const json = JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ name: `chandwaniac${i}`, date: '2026-01-30' })));
    const texts = textsOf({ source: { data: blob }, url: `data:image/png;base64,${blob}`, output: json, api_key: 'abc' });
    expect(texts).toEqual([json, 'api_key=abc']);
  });
});
