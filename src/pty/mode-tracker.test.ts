import { describe, expect, it } from 'vitest';
import { ModeTracker, type ModeChange } from './mode-tracker.js';

// Feed chunks into a fresh tracker; return it with every change seen.
function feed(chunks: string[]): { tracker: ModeTracker; changes: ModeChange[] } {
  const tracker = new ModeTracker();
  const changes: ModeChange[] = [];
  for (const chunk of chunks) changes.push(...tracker.feed(chunk));
  return { tracker, changes };
}

// Every way to cut a sample into two and three pieces, plus one char at a time.
function splits(input: string): string[][] {
  const out: string[][] = [[input], [...input]];
  for (let a = 0; a <= input.length; a++) {
    out.push([input.slice(0, a), input.slice(a)]);
    for (let b = a + 1; b < input.length; b++) out.push([input.slice(0, a), input.slice(a, b), input.slice(b)]);
  }
  return out;
}

const SAMPLES: Array<[name: string, output: string, reset: string]> = [
  ['nothing on', 'hello \x1b[1;31mred\x1b[0m\r\n', ''],
  ['focus reporting on', 'x\x1b[?1004hy', '\x1b[?1004l'],
  ['focus on then off', '\x1b[?1004h\x1b[?1004l', ''],
  ['combined params', '\x1b[?1004;2004;1049h', '\x1b[?2004l\x1b[?1004l\x1b[?1049l'],
  ['combined, some turned off again', '\x1b[?1000;1006h\x1b[?2004h\x1b[?1000;2004l', '\x1b[?1006l'],
  ['mouse all modes', '\x1b[?1002h\x1b[?1003h\x1b[?1015h\x1b[?1007h', '\x1b[?1003l\x1b[?1002l\x1b[?1015l\x1b[?1007l'],
  ['hidden cursor', '\x1b[?25l', '\x1b[?25h'],
  ['hidden cursor shown again', '\x1b[?25l..\x1b[?25h', ''],
  ['synchronized output left on', '\x1b[?2026hframe', '\x1b[?2026l'],
  ['untracked private modes ignored', '\x1b[?7l\x1b[?12h\x1b[?5h', ''],
  // #19 point 10: left on after SIGTERM, arrows and the keypad send the wrong bytes to the shell.
  ['application cursor keys (DECCKM)', '\x1b[?1h', '\x1b[?1l'],
  ['application cursor keys turned off again', '\x1b[?1h..\x1b[?1l', ''],
  ['keypad application mode (DECKPAM)', 'a\x1b=b', '\x1b>'],
  ['keypad back to numeric (DECKPNM)', '\x1b=\x1b>', ''],
  ['what vim and less turn on: ?1h and ESC =', '\x1b[?1049h\x1b[?1h\x1b=', '\x1b[?1l\x1b>\x1b[?1049l'],
  ['application keypad, mode form (DECNKM)', '\x1b[?66h', '\x1b[?66l'],
  ['other mouse encodings and X10 mouse', '\x1b[?9h\x1b[?1005h\x1b[?1016h', '\x1b[?9l\x1b[?1005l\x1b[?1016l'],
  ['resize and colour-scheme reports', '\x1b[?2048;2031h', '\x1b[?2031l\x1b[?2048l'],
  ['cursor style (DECSCUSR)', '\x1b[5 q', '\x1b[0 q'],
  ['cursor style back to default', '\x1b[6 q\x1b[ q', ''],
  ['soft reset (DECSTR) puts cursor keys, keypad and cursor back', '\x1b[?1h\x1b=\x1b[?25l\x1b[?2004h\x1b[!p', '\x1b[?2004l'],
  ['RIS resets keypad and cursor style', '\x1b[?1h\x1b=\x1b[3 q\x1bc', ''],
  ['kitty keyboard push twice, pop once', '\x1b[>1u\x1b[>3u\x1b[<u', '\x1b[<1u'],
  ['kitty keyboard pop many', '\x1b[>1u\x1b[>1u\x1b[<5u', ''],
  ['kitty keyboard on the alt screen', '\x1b[>1u\x1b[?1049h\x1b[>7u', '\x1b[<1u\x1b[?1049l\x1b[<1u'],
  ['kitty set flags without push', '\x1b[=5;1u', '\x1b[=0;1u'],
  ['kitty query is not a change', '\x1b[?u', ''],
  ['modifyOtherKeys', '\x1b[>4;2m', '\x1b[>4m'],
  ['modifyOtherKeys reset', '\x1b[>4;2m\x1b[>4m', ''],
  ['legacy alt screen 47', '\x1b[?47h', '\x1b[?47l'],
  ['RIS resets everything', '\x1b[?1004h\x1b[?25l\x1b[>1u\x1bc', ''],
  ['XTSAVE/XTRESTORE', '\x1b[?2004h\x1b[?2004s\x1b[?2004l\x1b[?2004r', '\x1b[?2004l'],
  ['DECRQM is not a change', '\x1b[?2004$p', ''],
  ['malformed CSI with ESC inside', '\x1b[?10\x1b[?2004h', '\x1b[?2004l'],
  ['SGR with colon params', '\x1b[38:2::1:2:3m\x1b[?1004h', '\x1b[?1004l'],
];

describe('ModeTracker', () => {
  for (const [name, output, reset] of SAMPLES) {
    it(`${name}: same reset at every split`, () => {
      for (const chunks of splits(output)) {
        expect(feed(chunks).tracker.buildResetSequence(), JSON.stringify(chunks)).toBe(reset);
      }
    });
  }

  it('reports ?1004 changes in order, across a split inside the parameters', () => {
    for (const chunks of splits('\x1b[?2004;1004h..\x1b[?1004l')) {
      const { changes, tracker } = feed(chunks);
      expect(changes.filter((c) => c.type === 'private' && c.mode === 1004)).toEqual([
        { type: 'private', mode: 1004, on: true },
        { type: 'private', mode: 1004, on: false },
      ]);
      expect(tracker.isOn(1004)).toBe(false);
      expect(tracker.isOn(2004)).toBe(true);
    }
  });

  it('can leave focus reporting out of the reset (the wrapper turns it off itself)', () => {
    const { tracker } = feed(['\x1b[?1004;2004h']);
    expect(tracker.buildResetSequence({ includeFocus: false })).toBe('\x1b[?2004l');
  });

  it('tracks the alternate screen and kitty depth per screen', () => {
    const { tracker } = feed(['\x1b[>1u\x1b[?1049h\x1b[>1u\x1b[>1u']);
    expect(tracker.altScreen).toBe(true);
    expect(tracker.kittyKeyboardDepth).toBe(2);
    tracker.feed('\x1b[?1049l');
    expect(tracker.kittyKeyboardDepth).toBe(1);
  });

  it('drops an overlong unterminated sequence instead of growing without bound', () => {
    const tracker = new ModeTracker();
    tracker.feed('\x1b[' + '1;'.repeat(100));
    tracker.feed('h\x1b[?1004h');
    expect(tracker.isOn(1004)).toBe(true);
    expect(tracker.buildResetSequence()).toBe('\x1b[?1004l');
  });
});
