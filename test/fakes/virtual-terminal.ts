/**
 * A test terminal on @xterm/headless standing in for the user's terminal: receives bytes, and reports
 * what a person would see, cell by cell (character and attributes) plus the cursor.
 */
import { createRequire } from 'node:module';
import type { Terminal as HeadlessTerminal } from '@xterm/headless';
import { sgrOf } from '../../src/display/screen-mirror.js';

const { Terminal } = createRequire(import.meta.url)('@xterm/headless') as { Terminal: typeof HeadlessTerminal };

export interface ScreenSnapshot {
  /** Each row as text (trailing blanks trimmed). */
  text: string[];
  /** Each row as `sgr+char` per cell, to compare attributes too. */
  cells: string[];
  cursor: { x: number; y: number };
  altScreen: boolean;
}

export class VirtualTerminal {
  readonly term: HeadlessTerminal;
  private queue: Promise<void> = Promise.resolve();

  constructor(public cols: number, public rows: number) {
    this.term = new Terminal({ cols, rows, scrollback: 0, allowProposedApi: true });
  }

  write(data: string | Uint8Array): Promise<void> {
    if (!data) return this.queue;
    this.queue = this.queue.then(() => new Promise<void>((resolve) => this.term.write(data, resolve)));
    return this.queue;
  }

  /** Resize as a terminal window does (xterm.js reflows wrapped lines), in order with the writes. */
  resize(cols: number, rows: number): Promise<void> {
    this.queue = this.queue.then(() => {
      this.term.resize(cols, rows);
      this.cols = cols;
      this.rows = rows;
    });
    return this.queue;
  }

  /** Resolves once everything written so far is parsed. */
  settled(): Promise<void> {
    return this.queue;
  }

  row(y: number): string {
    return this.term.buffer.active.getLine(y)?.translateToString(true) ?? '';
  }

  snapshot(): ScreenSnapshot {
    const b = this.term.buffer.active;
    const cell = b.getNullCell();
    const text: string[] = [];
    const cells: string[] = [];
    for (let y = 0; y < this.rows; y++) {
      const line = b.getLine(b.viewportY + y);
      text.push(line?.translateToString(true) ?? '');
      let s = '';
      for (let x = 0; x < this.cols && line; x++) {
        line.getCell(x, cell);
        s += `${sgrOf(cell)}${cell.getChars() || ' '}|`;
      }
      cells.push(s);
    }
    return { text, cells, cursor: { x: b.cursorX, y: b.cursorY }, altScreen: b.type === 'alternate' };
  }

  dispose(): void {
    this.term.dispose();
  }
}
