/**
 * The `board` screen (blessed, loaded only by that command): a header, one row per live session, a help
 * line, and a card overlay. Rows are laid out here with recapwrap's own width functions (CJK and emoji
 * count two cells) so blessed only draws plain, pre-cut lines. The view keeps the selection on the same
 * session across updates. It never touches state files, sockets or tmux: the app wires the actions.
 */
import blessed from 'blessed';
import { displayWidth, padToWidth, truncateToWidth } from '../util/text-width.js';
import { columnsThatFit } from './live-columns.js';

export interface BoardRow {
  /** Stable identity (the wrapper's pid). */
  key: string;
  agent: string;
  dir: string;
  state: string;
  looked: string;
  pane: string;
  recap: string;
}

export interface BoardHandlers {
  onEnter(row: BoardRow): void;
  onRecap(row: BoardRow): void;
  onQuit(): void;
  /** Compose a row's recap for the cells its column has (default: cut at the edge). */
  fitRecap?(recap: string, cells: number): string;
}

export interface BoardView {
  setRows(rows: readonly BoardRow[]): void;
  setStatus(text: string): void;
  showCard(title: string, body: string): void;
  /** Re-lay out the rows (after a resize or for fresh ages). */
  render(): void;
  destroy(): void;
}

// The widest each column may be (cells); columnWidths narrows them to their content.
const COLUMNS: Array<{ title: string; key: keyof BoardRow; width: number }> = [
  { title: 'AGENT', key: 'agent', width: 7 },
  { title: 'DIR', key: 'dir', width: 24 },
  { title: 'STATE', key: 'state', width: 13 },
  { title: 'LOOKED', key: 'looked', width: 6 },
  { title: 'PANE', key: 'pane', width: 5 },
];

/**
 * Column widths for these rows: as wide as the widest cell (or title), never wider than the column's
 * cap, so a short folder leaves its cells to the recap.
 */
export function columnWidths(rows: ReadonlyArray<Record<string, string>>, cols = Number.POSITIVE_INFINITY): number[] {
  const widths = COLUMNS.map((c) => Math.min(c.width, Math.max(displayWidth(c.title), ...rows.map((r) => displayWidth(r[c.key] ?? '')))));
  // A narrow terminal: the columns that give way (as in `ls`) get no cells.
  const kept = columnsThatFit(widths, cols);
  return widths.map((w, i) => (kept.includes(i) ? w : 0));
}

export function layoutRow(
  values: Record<string, string>,
  cols: number,
  fitRecap: (recap: string, cells: number) => string = truncateToWidth,
  widths: readonly number[] = COLUMNS.map((c) => c.width),
): string {
  let line = '';
  let used = 0;
  COLUMNS.forEach((c, i) => {
    const width = widths[i] ?? c.width;
    if (width === 0) return; // given way to the recap
    line += padToWidth(truncateToWidth(values[c.key] ?? '', width), width) + '  ';
    used += width + 2;
  });
  const rest = Math.max(0, cols - used);
  // Narrow terminals: the fixed columns alone may not fit.
  return truncateToWidth(line + fitRecap(values.recap ?? '', rest), cols);
}

export function createBoardView(handlers: BoardHandlers): BoardView {
  const screen = blessed.screen({ smartCSR: true, fullUnicode: true, title: 'recapwrap board', autoPadding: false, warnings: false });
  const header = blessed.box({ parent: screen, top: 0, left: 0, height: 1, width: '100%', style: { bold: true } });
  const list = blessed.list({
    parent: screen,
    top: 1,
    left: 0,
    bottom: 1,
    width: '100%',
    keys: true,
    vi: true,
    mouse: false,
    tags: false,
    style: { selected: { inverse: true } },
  });
  const footer = blessed.box({ parent: screen, bottom: 0, left: 0, height: 1, width: '100%' });
  let rows: readonly BoardRow[] = [];
  let status = '';
  let card: blessed.Widgets.BoxElement | undefined;

  // Plain separators: blessed maps some symbols (like the middle dot) to line-drawing characters.
  const help = '↑/↓ j/k move   Enter jump to pane (card outside tmux)   r fresh recap   q quit';

  function render(): void {
    const cols = (screen.width as number) || 80;
    const titles = { agent: 'AGENT', dir: 'DIR', state: 'STATE', looked: 'LOOKED', pane: 'PANE', recap: 'RECAP' };
    const widths = columnWidths(rows as unknown as Array<Record<string, string>>, cols);
    header.setContent(layoutRow(titles, cols, truncateToWidth, widths));
    const fit = handlers.fitRecap ?? truncateToWidth;
    const selectedKey = rows[(list as unknown as { selected: number }).selected ?? 0]?.key;
    const items = rows.length ? rows.map((r) => layoutRow(r as unknown as Record<string, string>, cols, fit, widths)) : ['  no live sessions: start one with `recapwrap <agent>` (e.g. `recapwrap claude`), or try `recapwrap demo`'];
    list.setItems(items as unknown as blessed.Widgets.BlessedElement[]);
    const keep = rows.findIndex((r) => r.key === selectedKey);
    list.select(keep >= 0 ? keep : 0);
    footer.setContent(truncateToWidth(status ? `${status}   ${help}` : help, cols));
    screen.render();
  }

  function selected(): BoardRow | undefined {
    return rows[(list as unknown as { selected: number }).selected ?? 0];
  }

  function closeCard(): boolean {
    if (!card) return false;
    card.destroy();
    card = undefined;
    list.focus();
    screen.render();
    return true;
  }

  list.key(['enter'], () => {
    const row = selected();
    if (row && !card) handlers.onEnter(row);
  });
  screen.key(['r'], () => {
    const row = selected();
    if (row && !card) handlers.onRecap(row);
  });
  screen.key(['q', 'C-c'], () => {
    if (closeCard()) return;
    handlers.onQuit();
  });
  screen.key(['escape'], () => {
    closeCard();
  });
  screen.on('resize', () => render());
  list.focus();
  render();

  return {
    setRows(next) {
      rows = next;
      render();
    },
    setStatus(text) {
      status = text;
      render();
    },
    showCard(title, body) {
      closeCard();
      const cols = (screen.width as number) || 80;
      const width = Math.min(cols - 2, 100);
      const lines = body.split('\n').map((l) => truncateToWidth(l, width - 4));
      card = blessed.box({
        parent: screen,
        top: 'center',
        left: 'center',
        width,
        height: Math.min(((screen.height as number) || 24) - 2, lines.length + 4),
        border: { type: 'line' },
        label: ` ${truncateToWidth(title, width - 6)} `,
        content: lines.join('\n') + '\n\n(Esc or q closes)',
        tags: false,
        scrollable: true,
        keys: true,
      });
      card.focus();
      card.key(['enter'], () => closeCard());
      screen.render();
    },
    render,
    destroy() {
      screen.destroy();
    },
  };
}
