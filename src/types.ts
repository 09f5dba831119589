/**
 * Plain types every layer shares, declared once: types only, no runtime code (eslint.config.js holds
 * this file to that), so importing it never ties one layer to another. Anything with behaviour, or
 * known to one layer only, stays in that layer.
 */

/** Returned by every `onX(listener)`: whoever registers a listener disposes it. */
export interface Disposable {
  dispose(): void;
}

/** Environment variables as read (process.env, or a copy in tests). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * What the agent is doing: working (a turn is open), waiting (for the user: a question or an
 * approval), idle (the turn ended), exited. The transcript layer derives it; the state file, tmux
 * options, recaps and attention carry it.
 */
export type ActivityState = 'working' | 'waiting' | 'idle' | 'exited';

/** A busy state an agent announces in its own terminal output (see OutputSignal). */
export type AnnouncedState = 'working' | 'idle' | 'done';

/**
 * A busy signal an agent writes into its terminal output (an escape sequence). The adapter that knows
 * the agent declares it; the wrapper only finds the marker in the output and hands over what follows.
 */
export interface OutputSignal {
  /**
   * The text (latin1) that opens the signal, starting with ESC: the wrapper looks for it only in output
   * chunks that hold an escape sequence. The last one in a chunk counts.
   */
  readonly marker: string;
  /**
   * Pure: the few characters right after the marker -> the state announced, null when the agent
   * withdraws it, undefined when they are not a signal (ignored).
   */
  parse(text: string): AnnouncedState | null | undefined;
}
