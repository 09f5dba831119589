// A search hit's snippet on a terminal (issue 42): cut to the width first, then highlighted, so the cut
// never falls inside an escape sequence (snippets ended in `ESC[1;…`, leaving the colour on) and a
// highlight the cut left open is closed.
import { describe, expect, it } from 'vitest';
import { HIT_END, HIT_START } from '../../memory/types.js';
import { fitSnippet } from './memory-run.js';

const HIGHLIGHT_ON = '\x1b[1;33m';
const HIGHLIGHT_OFF = '\x1b[22;39m';
// Every ESC starts a whole sequence of ours, and every one turned on is turned off.
const wellFormed = (line: string) => {
  const rest = line.replaceAll(HIGHLIGHT_ON, '').replaceAll(HIGHLIGHT_OFF, '');
  return !rest.includes('\x1b') && line.split(HIGHLIGHT_ON).length === line.split(HIGHLIGHT_OFF).length;
};
const visible = (line: string) => line.replaceAll(HIGHLIGHT_ON, '').replaceAll(HIGHLIGHT_OFF, '');

describe('a snippet cut to the terminal width', () => {
  const snippet = `the cache layer says ${HIT_START}redis${HIT_END} is down, then ${HIT_START}redis${HIT_END} again`;
  it('never cuts inside an escape sequence, whatever the width', () => {
    for (let width = 5; width <= 70; width++) {
      const line = fitSnippet('', snippet, true, width);
      expect(wellFormed(line), `width ${width}: ${JSON.stringify(line)}`).toBe(true);
      expect(visible(line).length, `width ${width}`).toBeLessThanOrEqual(width);
    }
  });
  it('keeps the highlight of a word the cut kept, closing it at the cut', () => {
    const line = fitSnippet('[redis] ', snippet, true, 31);
    expect(visible(line)).toBe('[redis] the cache layer says r…');
    expect(line.endsWith(`r${HIGHLIGHT_OFF}…`)).toBe(true);
  });
  it('leaves a snippet that fits as it was, and plain without colour', () => {
    expect(fitSnippet('', snippet, true, 200)).toBe(`the cache layer says ${HIGHLIGHT_ON}redis${HIGHLIGHT_OFF} is down, then ${HIGHLIGHT_ON}redis${HIGHLIGHT_OFF} again`);
    expect(fitSnippet('', snippet, false, 200)).toBe('the cache layer says redis is down, then redis again');
  });
});
