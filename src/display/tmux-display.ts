/**
 * The tmux recap display: show = @recap (the full line, ≤ 220 cells, for status lines) plus a
 * display-message on each client that has the pane on screen, composed for that client's width and
 * labelled with the agent and folder when the pane is not the client's current one. A client looking
 * at another window is left alone. The pane's state and the recap's age are kept current in
 * @recap_state / @recap_age; age is refreshed once a minute while a recap exists (one tmux call).
 */
import { sanitizeLine } from '../util/sanitize.js';
import { displayWidth, truncateToWidth } from '../util/text-width.js';
import type { RecapView } from './recap-view.js';
import {
  clearPaneRecapOptions, formatAge, listViewingClients, setPaneRecapOptions, tmuxDisplayMessages, TMUX_MESSAGE_MS, TMUX_OPTION_MAX_WIDTH,
  type TmuxTarget,
} from './tmux.js';
import type { ActivityState } from '../types.js';

export const AGE_REFRESH_MS = 60_000;
/** The label of a recap on the client's own pane. */
const LABEL = 'recap: ';
/** A folder name in the label of another pane's recap is cut to this many cells. */
const FOLDER_MAX_CELLS = 24;
/** display-message -d takes milliseconds; 0 would mean "until a key". A 1 ms message ends at once. */
const CLEAR_MESSAGE_MS = 1;

export interface TmuxDisplayOptions {
  onError?: (what: string) => void;
  now?: () => number;
  /** Whose recap this is (agent id, working folder's name): the label when the pane is not the client's current one. */
  whose?: { agent: string; folder: string };
}

export class TmuxRecapDisplay {
  private shownAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private state: ActivityState | undefined;
  /** Clients showing our message now (until a key, a clear, or TMUX_MESSAGE_MS). */
  private messageClients: string[] = [];
  /** Counts shows: a client query answered after a newer show (or a clear) is dropped. */
  private showSeq = 0;
  private readonly onError: (what: string) => void;
  private readonly now: () => number;

  constructor(
    private readonly target: TmuxTarget,
    private readonly options: TmuxDisplayOptions = {},
  ) {
    this.onError = options.onError ?? (() => {});
    this.now = options.now ?? Date.now;
  }

  show(view: RecapView): void {
    this.setRecap(view);
    void this.showMessages(view, this.showSeq);
  }

  /** @recap (and its age) only, no message: a recap the agent shows itself, or the agent's own (#34). */
  setRecap(view: RecapView): void {
    this.shownAt = this.now();
    ++this.showSeq;
    const full = displayWidth(view.line) <= TMUX_OPTION_MAX_WIDTH ? view.line : LABEL + view.compose(TMUX_OPTION_MAX_WIDTH - LABEL.length);
    void setPaneRecapOptions(this.target, { recap: full, age: formatAge(0) }).then((ok) => ok || this.onError('set-option'));
    if (!this.timer) {
      this.timer = setInterval(() => {
        if (this.shownAt !== undefined) void setPaneRecapOptions(this.target, { age: formatAge(this.now() - this.shownAt) });
      }, AGE_REFRESH_MS);
      this.timer.unref();
    }
  }

  /**
   * Take the message off. A key clears it in tmux already; anything else (a turn ended under a
   * "working: …" line, a new turn began) replaces it with an empty message that ends at once.
   * @recap stays as the latest recap.
   */
  clear(cause: 'key' | 'other' = 'other'): void {
    this.showSeq++;
    const clients = this.messageClients;
    this.messageClients = [];
    if (cause === 'key' || clients.length === 0) return;
    if (this.shownAt !== undefined && this.now() - this.shownAt >= TMUX_MESSAGE_MS) return;
    void tmuxDisplayMessages(this.target, clients.map((client) => ({ client, text: '' })), CLEAR_MESSAGE_MS).then((ok) => ok || this.onError('display-message'));
  }

  setState(state: ActivityState): void {
    if (state === this.state) return;
    this.state = state;
    void setPaneRecapOptions(this.target, { state }).then((ok) => ok || this.onError('set-option'));
  }

  async dispose(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await clearPaneRecapOptions(this.target);
  }

  /** The message text for a client of `width` cells: label, then the recap composed for the rest. */
  messageFor(view: RecapView, width: number, current: boolean): string {
    const label = current || !this.options.whose ? LABEL : this.labelOf(this.options.whose);
    const room = width - displayWidth(label);
    if (room <= 0) return truncateToWidth(label.trimEnd(), width);
    return label + truncateToWidth(sanitizeLine(view.compose(room)), room);
  }

  private labelOf(whose: { agent: string; folder: string }): string {
    const agent = truncateToWidth(sanitizeLine(whose.agent), 12);
    const folder = truncateToWidth(sanitizeLine(whose.folder), FOLDER_MAX_CELLS);
    return `recap (${[agent, folder].filter(Boolean).join(' · ')}): `;
  }

  // Ask tmux who sees the pane, then show each of them the recap composed for its width.
  private async showMessages(view: RecapView, seq: number): Promise<void> {
    const clients = await listViewingClients(this.target);
    if (seq !== this.showSeq) return;
    if (!clients) {
      this.onError('list-clients');
      return;
    }
    this.messageClients = clients.map((c) => c.name);
    const messages = clients.filter((c) => c.width > 0).map((c) => ({ client: c.name, text: this.messageFor(view, c.width, c.current) }));
    if (!(await tmuxDisplayMessages(this.target, messages))) this.onError('display-message');
  }
}
