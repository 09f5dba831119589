// The memory commands' own formatting: ages for --since, and snippets highlighted on a terminal only,
// always sanitized (a transcript can carry escape sequences).
import { describe, expect, it } from 'vitest';
import { HIT_END, HIT_START } from '../../memory/types.js';
import { parseAge, renderSnippet } from './memory-run.js';

describe('memory command formatting', () => {
  it('parses --since ages', () => {
    expect(parseAge('30m')).toBe(30 * 60_000);
    expect(parseAge('3d')).toBe(3 * 86_400_000);
    expect(parseAge('2w')).toBe(14 * 86_400_000);
    expect(parseAge('yesterday')).toBeUndefined();
    expect(parseAge('0d')).toBeUndefined(); // no time holds no session: a bad age, said so
    expect(parseAge('0.5h')).toBe(30 * 60_000);
    expect(parseAge('3')).toBeUndefined();
  });

  it('highlights matched words on a terminal, and only there; never passes an escape sequence through', () => {
    const snippet = `…ran ${HIT_START}vitest${HIT_END} \x1b]0;pwned\x07 then\n${HIT_START}vitest${HIT_END} again\x1b[31m`;
    const plain = renderSnippet(snippet, false);
    expect(plain).toBe('…ran vitest then vitest again');
    const color = renderSnippet(snippet, true);
    expect(color).toBe('…ran \x1b[1;33mvitest\x1b[22;39m then \x1b[1;33mvitest\x1b[22;39m again');
  });
});
