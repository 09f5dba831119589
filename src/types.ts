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

// How to run an agent's CLI for one answer to one prompt: the contract between a transcript adapter, which
// describes its agent's one-off mode as data and pure functions, and the recap layer's agent provider,
// which runs whatever it is given (the two layers may not import each other).

/** What one run gives a spec's functions: the prompt in both forms, the model, and its private paths. */
export interface OneShotRun {
  /** The request alone, for agents whose one-off mode takes the instructions in a flag of their own. */
  prompt: string;
  /** The instructions, for that flag. */
  systemPrompt: string;
  /** Instructions and request as one text, for agents with no system-prompt flag. */
  combinedPrompt: string;
  /** The user's model, else the spec's `defaultModel`; undefined leaves the agent's own default. */
  model?: string;
  /** A path in the run's own temp folder (removed afterwards) for an agent that writes its answer to a file. */
  answerFile: string;
  /** The run's own temp folder (0700, removed afterwards): the answer file, and what `prepare` writes. */
  tempDir: string;
  /**
   * The folder the agent runs in: recapwrap's own, private (0700) and empty, never a session's folder,
   * so no project's settings, hooks, MCP servers or context files apply to a one-off call (#40 item 12).
   */
  folder: string;
  /** A fresh UUID, for an agent that must be told a session id so what it records can be found and removed. */
  sessionId: string;
  env: Env;
  home: string;
}

/** One agent's one-off mode. Every function but `cleanup` is pure. */
export interface OneShotCommand {
  /** The agent's small, fast model, used when the user chose none; absent: the agent's own default. */
  defaultModel?: string;
  /** The arguments after the command: tools, saved sessions and project context off, the prompt, the model. */
  args(run: OneShotRun): string[];
  /** Variables added to the run's environment. */
  env?: Readonly<Record<string, string>>;
  /**
   * What the agent needs to start in the run's empty folder with its own trust check still on (Gemini
   * CLI refuses to start headless in a folder it does not trust): written into `tempDir`, and the
   * variables that point the agent at it returned. Never a switch that turns the check off. May do I/O.
   */
  prepare?(run: OneShotRun): Promise<Record<string, string>>;
  /** Where the answer is: stdout (default), or the file `answerFile` named in the arguments. */
  answerFrom?: 'stdout' | 'answer-file';
  /** The answer's text from that output (default: the output as it is). */
  readAnswer?(output: string): string;
  /** Remove what the run recorded in spite of its flags. May do I/O; its failures are ignored. */
  cleanup?(run: OneShotRun): Promise<void>;
}

/** How a `recapwrap doctor` check came out. */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** One line of `recapwrap doctor`: the app's own checks and an adapter's checks of its agent's settings. */
export interface CheckResult {
  name: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
}

/**
 * An agent's rule for its own automatic recap (Claude Code's away summary, Qwen Code's away recap, Codex's
 * conversation recap), as its source has it (docs/agent-recaps.md). The transcript adapter that knows the
 * agent declares it; the recap layer decides from it whether a return is the agent's to recap.
 */
export interface OwnRecapRule {
  /** 'while-away': made while the terminal is unfocused (Claude Code, Codex); 'on-return': made when focus comes back (Qwen Code). */
  readonly when: 'while-away' | 'on-return';
  /**
   * while-away: made this long after the later of the last turn end and the blur (`from: 'turn-or-blur'`,
   * Codex) or after the turn end, but never before `minBlurMs` of blur (`from: 'turn-end'`, Claude Code);
   * on-return: made on a return after at least this long away.
   */
  readonly delayMs: number;
  readonly from?: 'turn-end' | 'turn-or-blur';
  /** Claude Code: the blur lasts at least this long before it makes one. */
  readonly minBlurMs?: number;
  /** Claude Code: none when it would be made more than this long after the turn end (its prompt cache is cold by then). */
  readonly staleAfterMs?: number;
  /** What the session must hold: `user-messages` (prompts and tool results), `prompts`, or completed `turns`. */
  readonly counts: 'user-messages' | 'prompts' | 'turns';
  /** At least this many of them in the session... */
  readonly minCount: number;
  /** ...and this many since its last own recap. */
  readonly minSinceLast: number;
  /** It writes its recap into its session file (then that record, not this rule, says whether it made one). */
  readonly writes: boolean;
}

/** Whether an agent's own automatic recap is on, why (its setting, an environment variable, the default), and its rule with the user's settings applied. */
export interface OwnRecapState {
  on: boolean;
  why: string;
  rule: OwnRecapRule;
}
