import { describe, expect, it } from 'vitest';
import { describeExactMiss, describeLooseMatch, namesExactly } from './loose-ref.js';

describe('what is said about a REF that only partly matches a name', () => {
  it('a reader names the session it shows; a writer the names it would have taken (at most 3, once each)', () => {
    expect(describeLooseMatch('@@codex-switch-list', 'codex-switch-list-them-again', 'showing')).toBe('no session named "codex-switch-list"; showing "codex-switch-list-them-again"');
    expect(describeExactMiss('auth', [{ name: 'auth-refactor' }])).toBe('no session named "auth"; did you mean "auth-refactor"? (give its full name)');
    expect(describeExactMiss('a', [{ name: 'a-1' }, { name: 'a-1' }, { name: 'a-2' }, { name: 'a-3' }, { name: 'a-4' }])).toBe('no session named "a"; did you mean "a-1", "a-2" or "a-3"? (give its full name)');
    expect(describeExactMiss('x\u001b[31m', [{ name: 'x\u001b]0;t\u0007' }])).not.toMatch(/\u001b/); // no escape reaches the terminal
  });

  it('a card from a host is taken only when REF names it exactly (resume across hosts)', () => {
    const row = { id: '01a208cb-2bd6-7e03', name: 'codex-switch-list-them-again' };
    for (const ref of ['01a208cb-2bd6-7e03', '01a2', 'codex-switch-list-them-again', '@@codex-switch-list-them-again', 'Codex Switch List Them Again']) expect(namesExactly(ref, row), ref).toBe(true);
    for (const ref of ['codex-switch-list', '@@codex-switch', '01a', '@@01a2']) expect(namesExactly(ref, row), ref).toBe(false);
  });
});
