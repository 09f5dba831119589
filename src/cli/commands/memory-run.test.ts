// The memory commands' own formatting: ages for --since, and snippets highlighted on a terminal only,
// always sanitized (a transcript can carry escape sequences).
import { describe, expect, it } from 'vitest';
import { HIT_END, HIT_START } from '../../memory/types.js';
import { parseAge, progressBar, progressLines, renderSnippet, timeLeft } from './memory-run.js';

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

  it('says the time a read has left at its pace so far, once it is not too early to say', () => {
    expect(timeLeft(2000, 50, 100)).toBeUndefined(); // under 3 s: the first files say little of the pace
    expect(timeLeft(10_000, 1, 100)).toBeUndefined(); // under 2 % of the bytes
    expect(timeLeft(10_000, 0, 100)).toBeUndefined();
    expect(timeLeft(10_000, 100, 100)).toBeUndefined(); // done
    expect(timeLeft(10_000, 50, 100)).toBe('about 10 s left');
    expect(timeLeft(10_000, 90, 100)).toBe('about 5 s left'); // 1.1 s: never "0 s"
    expect(timeLeft(12_000, 40, 100)).toBe('about 20 s left'); // 18 s, in steps of 5
    expect(timeLeft(30_000, 25, 100)).toBe('about 2 min left'); // 90 s
    expect(timeLeft(60_000, 25, 100)).toBe('about 3 min left');
  });

  it('draws the bar with the count, and the time left from the bytes read (not the files)', () => {
    let t = 0;
    const out: string[] = [];
    const bar = progressBar((text) => out.push(text), () => t);
    bar(0, 10, 0, 1000);
    t = 5000;
    // 5 of 10 files but a fifth of the bytes: 20 s more at this pace.
    bar(5, 10, 200, 1000);
    bar(5, 10, 200, 1000); // the same percent: not drawn again
    t = 6000;
    bar(10, 10, 1000, 1000);
    expect(out).toEqual([
      '\r\x1b[2Kindexing [..............................] 0/10',
      '\r\x1b[2Kindexing [###############...............] 5/10, about 20 s left',
      '\r\x1b[2Kindexing [##############################] 10/10',
      '\r\x1b[2K',
    ]);
  });

  it('after the bar, says the index is merging what it wrote, and clears that line at the end; says nothing for a bar never drawn', () => {
    const out: string[] = [];
    const lines = progressLines((text) => out.push(text), () => 0);
    lines.onProgress(1, 1, 10, 10);
    lines.onMerge();
    lines.end();
    expect(out).toEqual(['\r\x1b[2Kindexing [##############################] 1/1', '\r\x1b[2K', '\r\x1b[2Kindexing: merging the text indexes…', '\r\x1b[2K']);
    // A refresh with no file to read draws no bar (total 0): its merge, if any, is not said either.
    const quiet: string[] = [];
    const none = progressLines((text) => quiet.push(text), () => 0);
    none.onProgress(0, 0, 0, 0);
    none.onMerge();
    none.end();
    expect(quiet).toEqual([]);
  });
});
