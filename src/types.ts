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
