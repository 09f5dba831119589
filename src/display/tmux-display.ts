/**
 * The tmux recap display: show = display-message plus @recap; the pane's state and the recap's age are
 * kept current in @recap_state / @recap_age for status lines. Age is refreshed once a minute while a
 * recap exists (one tmux call), never faster.
 */
import { clearPaneRecapOptions, formatAge, setPaneRecapOptions, tmuxDisplayMessage, type PaneState, type TmuxTarget } from './tmux.js';

export const AGE_REFRESH_MS = 60_000;

export class TmuxRecapDisplay {
  private shownAt: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private state: PaneState | undefined;

  constructor(
    private readonly target: TmuxTarget,
    private readonly onError: (what: string) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  show(text: string): void {
    this.shownAt = this.now();
    void tmuxDisplayMessage(this.target, text).then((ok) => ok || this.onError('display-message'));
    void setPaneRecapOptions(this.target, { recap: text, age: formatAge(0) }).then((ok) => ok || this.onError('set-option'));
    if (!this.timer) {
      this.timer = setInterval(() => {
        if (this.shownAt !== undefined) void setPaneRecapOptions(this.target, { age: formatAge(this.now() - this.shownAt) });
      }, AGE_REFRESH_MS);
      this.timer.unref();
    }
  }

  /** tmux clears display-message on a key by itself; @recap stays as the latest recap. */
  clear(): void {}

  setState(state: PaneState): void {
    if (state === this.state) return;
    this.state = state;
    void setPaneRecapOptions(this.target, { state }).then((ok) => ok || this.onError('set-option'));
  }

  async dispose(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await clearPaneRecapOptions(this.target);
  }
}
