// #36: a row the overlay repaints from its screen copy (after a resize, or taking the bar off) must stay
// the soft-wrapped continuation of the row above, as the agent wrote it: tmux marks a line as wrapped
// only when the cursor wraps off its end, and `capture-pane -J` joins such lines. Written with cursor
// moves, the row lost that mark and -J showed a line break the agent never wrote. The bytes go straight
// into a real tmux pane's terminal (its tty), and the same bytes into the screen copy.
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ScreenMirror } from '../../src/display/screen-mirror.js';
import { pollUntil } from '../helpers/poll.js';
import { TmuxServer, tmuxAvailable } from '../helpers/tmux.js';

const hasTmux = tmuxAvailable();
const caughtUp = (m: ScreenMirror) => new Promise<void>((resolve) => m.whenCaughtUp(resolve));

describe.skipIf(!hasTmux)('rows repainted from the screen copy keep their soft wraps in tmux', () => {
  const server = TmuxServer.create('rw-softwrap');
  afterAll(() => server.kill());
  let n = 0;

  // A pane of cols×rows that runs nothing but a sleep; `put` writes bytes to its terminal and waits until tmux has them.
  function pane(cols: number, rows: number) {
    const name = `p${n++}`;
    const id = server.newSession({ name, cols, rows, command: ['sleep', '600'] });
    const tty = server.run(['display', '-p', '-t', id, '#{pane_tty}']).trim();
    let step = 0;
    const put = async (bytes: string) => {
      const title = `step-${++step}`;
      writeFileSync(tty, bytes + `\x1b]2;${title}\x07`);
      await pollUntil(() => server.run(['display', '-p', '-t', id, '#{pane_title}']).trim() === title, { description: `tmux has ${title}` });
    };
    // Trailing blanks trimmed: -J keeps them, and cells erased by the bar's removal count as blanks there.
    const joined = () => server.run(['capture-pane', '-p', '-J', '-S', '-', '-t', id]).replace(/[ \t]+$/gm, '').replace(/\n+$/, '\n');
    const resize = (c: number, r: number) => server.run(['resize-window', '-t', name, '-x', String(c), '-y', String(r)]);
    return { put, joined, resize };
  }

  // The pane grown from 20×8 to 60×12 with a two-row bar on its last rows (tmux reflows the bar's text
  // with the agent's), then repainted from the copy; and the same pane grown without the bar.
  it('after a resize with the bar up and the repaint of the whole screen', async () => {
    const agent = '\x1b[2J\x1b[H> explain the repaint\r\n' + 'The row under the bar is written again from the copy, then the next one.\r\nok\r\n' + 'And the last line wraps under the bar too. › ';
    const plain = pane(20, 8);
    await plain.put(agent);
    plain.resize(60, 12);
    await plain.put('');
    const barred = pane(20, 8);
    const mirror = new ScreenMirror({ cols: 20, rows: 8, cursorAtStart: { row: 0, col: 0 } });
    mirror.feed(agent);
    await barred.put(agent);
    await caughtUp(mirror);
    const bar = mirror.frame(['recap: one', 'two'], 'bottom');
    if (!('draw' in bar)) throw new Error(`expected a bar, got ${JSON.stringify(bar)}`);
    await barred.put(bar.draw);
    barred.resize(60, 12);
    mirror.resize(60, 12);
    await caughtUp(mirror);
    const result = mirror.repaint();
    if (!('repaint' in result)) throw new Error(`expected a repaint, got ${JSON.stringify(result)}`);
    await barred.put(result.repaint);
    expect(plain.joined()).toContain('The row under the bar is written again from the copy, then the next one.');
    expect(barred.joined()).toBe(plain.joined());
    mirror.dispose();
  });

  it('after the bar comes off rows that continue a wrapped line', async () => {
    const { put, joined } = pane(20, 6);
    const mirror = new ScreenMirror({ cols: 20, rows: 6, cursorAtStart: { row: 0, col: 0 } });
    // The long line ends on the last two rows, under a two-row bar.
    const agent = '\x1b[2J\x1b[H> go\r\nok\r\n' + 'x'.repeat(10) + ' ' + 'wrapped line that runs on to the bottom';
    mirror.feed(agent);
    await put(agent);
    await caughtUp(mirror);
    const before = joined();
    expect(before).toContain('xxxxxxxxxx wrapped line that runs on to the bottom');
    const result = mirror.frame(['recap: first row', 'second row'], 'bottom');
    if (!('draw' in result)) throw new Error(`expected a bar, got ${JSON.stringify(result)}`);
    await put(result.draw);
    expect(joined()).toContain('recap: first row');
    await put(result.restore);
    expect(joined()).toBe(before);
    mirror.dispose();
  });

  // The picker's rows come off by deleting the lines under them (fresh lines, as the agent's were): tmux
  // then clears the mark of the line above them, which only a wrap from that line sets again.
  it('after the picker comes off rows that continue a wrapped line', async () => {
    const { put, joined } = pane(20, 6);
    const mirror = new ScreenMirror({ cols: 20, rows: 6, cursorAtStart: { row: 0, col: 0 } });
    const agent = '\x1b[2J\x1b[H> go\r\nok\r\n' + 'a line that wraps over the rows the picker covers › ';
    mirror.feed(agent);
    await put(agent);
    await caughtUp(mirror);
    const before = joined();
    expect(before).toContain('a line that wraps over the rows the picker covers ›');
    const rows = ['picker row one', 'picker row two'].map((t) => t.padEnd(20) + '\x1b[0m');
    const result = mirror.cover(rows);
    if (!('draw' in result)) throw new Error(`expected the picker, got ${JSON.stringify(result)}`);
    await put(result.draw);
    expect(joined()).toContain('picker row two');
    await put(result.restore);
    expect(joined()).toBe(before);
    mirror.dispose();
  });
});
