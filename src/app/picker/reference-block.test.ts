import { describe, expect, it } from 'vitest';
import { formatReferenceBlock, pasteBytes, PASTE_BEGIN, PASTE_END, type ReferenceSource } from './reference-block.js';

const card: ReferenceSource = {
  id: '0f3c9a',
  name: 'billing-fk-fix',
  agent: 'claude',
  cwd: '/home/u/src/billing',
  updatedAt: '2026-11-20T14:03:11.000Z',
  headline: 'Migrated 4 of 7 billing tables to the v2 schema',
  done: ['migrated invoices', 'migrated payments'],
  next: ['fix the foreign key on line 142'],
  transcript: '/home/u/.claude/projects/x/0f3c9a.jsonl',
  transcriptExists: true,
};

describe('formatReferenceBlock', () => {
  it('names the session, agent, date, folder, headline, done, next and transcript', () => {
    expect(formatReferenceBlock(card)).toBe(
      [
        'Earlier session @@billing-fk-fix (claude, 2026-11-20 14:03 UTC)',
        'folder: /home/u/src/billing',
        'headline: Migrated 4 of 7 billing tables to the v2 schema',
        'done: migrated invoices; migrated payments',
        'next: fix the foreign key on line 142',
        'transcript: /home/u/.claude/projects/x/0f3c9a.jsonl',
      ].join('\n'),
    );
  });

  it('says when the transcript is gone and leaves out empty done/next', () => {
    const text = formatReferenceBlock({ ...card, done: [], next: undefined, transcriptExists: false });
    expect(text).not.toMatch(/^(done|next):/m);
    expect(text).toContain('0f3c9a.jsonl (gone)');
  });

  it('sanitizes every field: no escape sequence, CR or paste end can come from the index', () => {
    const text = formatReferenceBlock({ ...card, name: 'x\x1b[201~y', headline: 'a\rb\x1b]52;c;ZXZpbA==\x07', next: ['1\n2\x1b[201~\r'] });
    expect(text).not.toMatch(/[\x1b\r\x07]/);
    expect(text.split('\n')).toHaveLength(6);
  });
});

describe('pasteBytes', () => {
  it('with bracketed paste: one paste, lines joined by LF, never a CR', () => {
    const bytes = pasteBytes(formatReferenceBlock(card), true);
    expect(bytes.startsWith(PASTE_BEGIN)).toBe(true);
    expect(bytes.endsWith(PASTE_END)).toBe(true);
    expect(bytes.split(PASTE_BEGIN)).toHaveLength(2);
    expect(bytes).not.toContain('\r');
  });

  it('without it: one line with no CR or LF (a bare LF would submit in readline-style prompts)', () => {
    const bytes = pasteBytes('a\nb\r\nc', false);
    expect(bytes).toBe('a | b | c');
  });
});
