import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { formatCommandForTerminal, shellQuote, shellQuoteForTerminal } from './shell-quote.js';

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

describe('shellQuoteForTerminal', () => {
  it('is shellQuote for a word a terminal shows as it is', () => {
    for (const word of ['/usr/bin/node', '', 'a b', "it's", 'ünï ✦ 日本']) expect(shellQuoteForTerminal(word)).toBe(shellQuote(word));
  });

  it('writes controls and invisibles as ANSI-C escapes: nothing a terminal acts on, the exact word for bash', () => {
    const words = ['x\x1b]52;c;ZXZpbA==\x07\x1b]0;t\x07\nrecapwrap: forged', "a'b\\c\x9b2J", 'bidi\u202eevil', 'tab\there'];
    const line = formatCommandForTerminal(['printf', '%s\\0', ...words]);
    expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202e]/);
    expect(shellQuoteForTerminal('a\x1bb')).toBe("$'a\\x1bb'");
    expect(shellQuoteForTerminal('a\u202eb')).toBe("$'a\\u202eb'");
    const out = execFileSync('bash', ['-c', line], { encoding: 'utf8' });
    expect(out.split('\0').slice(0, -1)).toEqual(words);
  });
});
