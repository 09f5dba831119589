import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote } from './shell-quote.js';

describe('shellQuote', () => {
  it('leaves plain words alone and quotes the rest', () => {
    expect(shellQuote('/usr/bin/node')).toBe('/usr/bin/node');
    expect(shellQuote('KEY=a,b:c@d%e+f')).toBe('KEY=a,b:c@d%e+f');
    expect(shellQuote('')).toBe("''");
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
  });

  it('gives a real shell back each word exactly', () => {
    const words = ['plain', '', 'two words', "it's", '$HOME `x` "q" \\ *', 'tab\there', 'line\nbreak', 'ünï ✦ 日本'];
    const script = `printf '%s\\0' ${words.map(shellQuote).join(' ')}`;
    const out = execFileSync('sh', ['-c', script], { encoding: 'utf8' });
    expect(out.split('\0').slice(0, -1)).toEqual(words);
  });
});
