/**
 * The transcript layer's contract: the normalized event model every adapter produces, the
 * incremental parser interface, and the adapter interface (pinning, locating, listing sessions).
 * Other layers see only these plain types, passed through src/app.
 */
import type { ActivityState, CheckResult, Env, OneShotCommand, OutputSignal, OwnRecapState } from '../types.js';

/**
 * The agent ids (the registry's order). The id union stays here, not in registry.ts: the contract's own
 * types name it (SessionSnapshot.agent), and the start-up path (agent-ids.ts) reads the ids without loading
 * any adapter. The registry's Record<AgentId, …> keeps the two lists one.
 */
export const AGENT_IDS = ['pi', 'qwen', 'claude', 'codex', 'gemini'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

/** Cap on text kept per event by parsers (memory bound); consumers cut further for display. */
export const EVENT_TEXT_MAX_CHARS = 4000;
/** Cap on compact tool-call args kept by parsers. */
export const TOOL_ARGS_MAX_CHARS = 1000;
/** Cap on tool-result text kept by parsers: what the recap context uses, no more (memory of long sessions). */
export const TOOL_RESULT_MAX_CHARS = 400;
/** Cap on thinking text kept by parsers: it is never shown nor sent, only counted (`chars`) and flagged. */
export const THINKING_MAX_CHARS = 80;

interface EventBase {
  /** Id of the source record (entry id, uuid, call id, or `L<line>` when the record has none). */
  sourceId: string;
  /** Epoch milliseconds, when the record had a timestamp. */
  ts?: number;
}

/**
 * Text typed by a person (not injected, meta, synthetic, hook or command output). A slash command the
 * user typed is an event too: its text is the command and its arguments as typed; the command's local
 * output stays out. One that tends the session or is given no words to work on (`/compact`, `/model
 * opus`, `/init`) has `command` set: readers treat it as no prompt (not counted, not numbered by `read`,
 * never a session's subject, name or title). One given the task's words (a skill or custom command:
 * `/review the login flow`) is a prompt like any other (shared-parse.ts slashCommandIsTask).
 */
export interface UserPromptEvent extends EventBase {
  kind: 'user';
  text: string;
  command?: boolean;
  /** Typed while a turn ran and taken into it (Qwen Code's mid-turn messages): not a prompt that opens a turn. */
  midTurn?: boolean;
}
export interface AssistantTextEvent extends EventBase { kind: 'assistant'; text: string }
/** Model reasoning: kept for completeness, never shown nor sent to a recap model. */
export interface ThinkingEvent extends EventBase {
  kind: 'thinking';
  /** The start of the reasoning (≤ THINKING_MAX_CHARS). */
  text: string;
  /** Length of the whole reasoning text, when the parser saw it. */
  chars?: number;
}
export interface ToolCallEvent extends EventBase {
  kind: 'tool-call';
  callId?: string;
  /** Tool name as the agent reports it (`bash`, `Edit`, `exec_command`, `write_file`, …). */
  name: string;
  /** Compact one-line rendering of the arguments (≤ TOOL_ARGS_MAX_CHARS). */
  args: string;
  /** Shell command when the tool runs one (for "tests run", "commits"). */
  command?: string;
  /** Files the call writes or edits (edit/write/patch tools), as written in the call. */
  paths: string[];
  /** The call's arguments as the agent wrote them, whole: only in a full read (`ParserOptions.full`, the reader). */
  input?: unknown;
  /**
   * The call needs the user's approval before it runs (Codex `sandbox_permissions: "require_escalated"`,
   * a confirmation the agent's file records). Until its result arrives the agent waits for the user.
   */
  approval?: boolean;
}
export interface ToolResultEvent extends EventBase {
  kind: 'tool-result';
  callId?: string;
  name?: string;
  ok: boolean;
  /** Short text of the output (≤ TOOL_RESULT_MAX_CHARS; whole in a full read). */
  text: string;
  /** The command's exit status, when the record says (full read). */
  exitCode?: number;
}
/**
 * Compaction or branch summary: the agent's own account of what came before. A compaction summary
 * stands where the compaction happened: the events before it are the history it compacted.
 */
export interface SummaryEvent extends EventBase { kind: 'summary'; source: 'compaction' | 'branch'; text: string }
/** A turn finished normally (the agent is waiting for the user). */
export interface TurnEndEvent extends EventBase { kind: 'turn-end'; reason?: string }
/** A turn was interrupted by the user or cut off. */
export interface AbortedEvent extends EventBase { kind: 'aborted'; text?: string }
/** API or provider error (rate limit, auth, overload, credit, …). */
export interface ErrorEvent extends EventBase { kind: 'error'; text: string }
export interface ModelChangeEvent extends EventBase { kind: 'model'; model: string; provider?: string }
export interface TitleEvent extends EventBase { kind: 'title'; text: string }
/**
 * The agent's own recap of the session (Claude Code's away summary, Qwen Code's away recap), as the agent
 * wrote it into its file, without the agent's UI hint. It stands after the turn it follows: a prompt after
 * it makes it stale (docs/agent-recaps.md).
 */
export interface AgentRecapEvent extends EventBase {
  kind: 'agent-recap';
  text: string;
  /** The record it follows, as the agent wrote it (its parent: the end of the turn it recaps), when it says. */
  after?: string;
}
/** The session was closed: the user left (`/exit`, `/quit`) or the file records the agent ending. */
export interface ExitEvent extends EventBase { kind: 'exit'; text?: string }

export type TranscriptEvent =
  | UserPromptEvent
  | AssistantTextEvent
  | ThinkingEvent
  | ToolCallEvent
  | ToolResultEvent
  | SummaryEvent
  | TurnEndEvent
  | AbortedEvent
  | ErrorEvent
  | ModelChangeEvent
  | TitleEvent
  | AgentRecapEvent
  | ExitEvent;

export type TranscriptEventKind = TranscriptEvent['kind'];

/** What a parser knows after the lines fed so far. */
export interface SessionSnapshot {
  agent: AgentId;
  /** Session id from the file (header, sessionId field, rollout id); file name stem when none. */
  id: string;
  cwd?: string;
  title?: string;
  model?: string;
  /** The git branch the agent recorded (Claude Code per entry, Codex in session_meta), when it did. */
  gitBranch?: string;
  /**
   * The session this one was forked or branched from, as the file names it: pi's header `parentSession`
   * (a file path); Claude Code's `requestSessionId` / `forkedFrom.sessionId` on copied entries, Qwen
   * Code's `forkedFrom.sessionId`, Codex's `session_meta.forked_from_id` (ids).
   */
  parent?: string;
  /** Events of the active branch, oldest first. */
  events: TranscriptEvent[];
  /**
   * Events of the other branches the file holds (entries off the active one: pi's /tree, a rewind), in
   * file order; absent when there are none. Counted in the session's counts, which are of every branch
   * like `read`'s; never recapped.
   */
  offBranch?: TranscriptEvent[];
  /**
   * Changes whenever the summarized state changes (leaf id + event count, or last entry id); equal
   * stamps mean a recap of one is a recap of the other.
   */
  stamp: string;
  /** Lines that were not JSON, not this agent's, or of a record type the adapter does not know. */
  skipped: number;
  /**
   * Events left out to keep memory bounded in a very long session (history.ts): the middle of the history.
   * The first prompts, the summaries and the recent window stay. Absent when nothing was dropped.
   */
  dropped?: number;
  startedAt?: number;
  updatedAt?: number;
}

export interface Session extends SessionSnapshot {
  file: string;
}

/** How much history a parser holds before it drops the middle (history.ts). */
export interface HistoryLimits {
  /** Most events held before the middle of the history is dropped. */
  maxEvents: number;
  /** Most estimated bytes (history.ts eventWeight) held before the middle is dropped. */
  maxWeight: number;
}

export interface ParserOptions {
  /** Bounds of the history kept; the default holds a 100 MB transcript whole (history.ts HISTORY_LIMITS). */
  limits?: HistoryLimits;
  /**
   * A full read (the reader, #41): texts are kept whole (no EVENT_TEXT/TOOL_RESULT/THINKING caps), tool
   * calls carry their arguments (`input`). The recap path never sets it.
   */
  full?: boolean;
  /**
   * Each entry of the file as it is read, in file order, with its events: every branch, not only the active
   * one (the reader streams a session from these). `parentId` is null for a root and undefined for a format
   * with no parent links (the entry follows the one before). An entry may come again with the same id
   * (Gemini CLI rewrites a message): the later one replaces it. The parser does not keep the events it
   * hands out this way (its snapshot then has the session's facts and no events from them).
   */
  onEntry?: (entry: ParsedEntry) => void;
  /** Read sidechain entries as the conversation (a Claude Code sub-agent's own file, `subagents/agent-*.jsonl`). */
  sidechain?: boolean;
  /**
   * Every text a record holds, whole (before any cap), reasoning left out (shared-parse.ts recordTexts):
   * the session index's vocabulary of every word a session holds. Called once per text, in file order.
   */
  onText?: (text: string) => void;
  /**
   * Read the file by all it holds (the session index): an entry whose parent the file lacks (a broken
   * chain) continues from the entry before it instead of ending the active branch there. The live view
   * leaves it off and follows the chain as written.
   */
  wholeFile?: boolean;
}

/** One record of a session file as a full read sees it (ParserOptions.onEntry). */
export interface ParsedEntry {
  id: string;
  parentId?: string | null;
  events: TranscriptEvent[];
  /** A sub-agent's entry written inline in the main file (Claude Code's older `isSidechain` lines). */
  sidechain?: boolean;
}

/**
 * Incremental parser for one session file. Feed complete lines in file order; ask for a snapshot
 * whenever needed. Never throws: bad lines are counted in `skipped`.
 */
export interface TranscriptParser {
  push(line: string): void;
  snapshot(): SessionSnapshot;
}

export type { Env };

export interface AgentContext {
  cwd: string;
  env: Env;
  home: string;
  /**
   * The session files of one folder, for listAllSessions (default: every accepted non-empty file, stat'ed):
   * the session index's refresh lists a folder itself, answering from what it kept where nothing moved.
   */
  sessionFilesIn?: SessionFolderLister;
}

/** The session files in `dir` whose names `accept` takes, with their ids (idOf), times and sizes. */
export type SessionFolderLister = (agent: AgentId, dir: string, accept: (name: string) => boolean, idOf: (file: string) => string) => SessionFileInfo[];

/** How to launch the agent so recapwrap can find its session file exactly. */
export interface LaunchPlan {
  /** Arguments to pass to the agent (the user's, plus any pin flag recapwrap added). */
  args: string[];
  /** The file recapwrap pinned (pi `--session <path>`), if any. */
  pinnedFile?: string;
  /** The session id recapwrap pinned (qwen/gemini `--session-id`), if any. */
  pinnedId?: string;
  /** The user asked to continue or resume an existing session. */
  resume: boolean;
  /** The id/path the user named with a resume flag, when they named one. */
  resumeTarget?: string;
}

export interface LiveLocateContext extends AgentContext {
  plan: LaunchPlan;
  /** When the child was spawned (epoch ms). Files created before this are not ours (unless resuming). */
  startedAt: number;
  /** Pids of the wrapped child and all its descendants, refreshed by the caller. */
  pids: readonly number[];
}

export interface SessionCandidate {
  file: string;
  /** exact: pinned or from the agent's own live record for our pid; candidate: discovered, may be another process's. */
  confidence: 'exact' | 'candidate';
}

export interface SessionFileInfo {
  agent: AgentId;
  file: string;
  id: string;
  mtimeMs: number;
  size: number;
}

export interface TranscriptAdapter {
  readonly id: AgentId;
  readonly label: string;
  createParser(options?: ParserOptions): TranscriptParser;
  /**
   * For formats that are one JSON document rather than JSON lines (Gemini CLI before 0.39): parse the
   * whole content. The loader calls it when the file's first line is not a complete JSON object.
   */
  parseWhole?(content: string, options?: ParserOptions): SessionSnapshot;
  /** True when these first lines of a file look like this agent's transcript. */
  detect(firstLines: readonly string[]): boolean;
  /** Pure: add pin flags unless the user passed session/continue/resume flags of their own. */
  planLaunch(args: readonly string[], ctx: AgentContext & { newId: () => string; now: number }): LaunchPlan;
  /** Folders where this agent's session files for ctx.cwd appear (to watch); may not exist yet. */
  sessionDirs(ctx: AgentContext): string[];
  /** The file the live process writes, best first; [] when nothing is known yet. Called again on folder changes. */
  locateLive(ctx: LiveLocateContext): Promise<SessionCandidate[]>;

  // --- Live output signals (#20): what the agent tells its terminal, read by the wrapper. ---
  /** A busy signal the agent writes into its terminal output; the wrap flow reads it for activity. */
  readonly outputSignal?: OutputSignal;
  // --- end of live output signals ---

  /** Past sessions for ctx.cwd, newest first. */
  listSessions(ctx: AgentContext): Promise<SessionFileInfo[]>;
  /**
   * Every session file of this agent in every folder (the session index's scan), in no order; no file is
   * opened (ids come from file names; the index reads the id from the file). Missing folders give [].
   */
  listAllSessions(ctx: AgentContext): Promise<SessionFileInfo[]>;
  /** The project folder of a session file whose content does not name it (from the agent's own records). */
  folderOfFile?(file: string, ctx: AgentContext): Promise<string | undefined>;
  /** Arguments that make the agent resume exactly this session. */
  resumeArgs(session: { id: string; file: string }): string[];
  /**
   * Arguments that resume this session as a new one branched from it, through the agent's own fork
   * (`resume REF --fork`); absent when the agent's CLI has none (Gemini CLI).
   */
  forkArgs?(session: { id: string; file: string }): string[];

  // What recapwrap runs or checks of the agent itself: nothing outside the adapter names these.
  /** The command that runs the agent, as found on PATH (`doctor` looks for it; a one-off recap runs it). */
  readonly command: string;
  /** The agent's one-off mode, for a model-written recap (the recap layer's agent provider runs it). */
  readonly oneShot?: OneShotCommand;
  /** Checks of the agent's own settings that `doctor` reports after the agent's line; [] when none applies. */
  doctorChecks?(ctx: AgentContext): CheckResult[];
  /** The agent's own automatic recap (docs/agent-recaps.md), when it has one. */
  readonly ownRecap?: OwnRecapSpec;
}

/** An agent's own automatic recap: whether it is on, and the documented switch that turns it off for one run. */
export interface OwnRecapSpec {
  /** Its name in the agent's words ("away summary"). */
  readonly name: string;
  /** On or off for a session started in ctx (the agent's settings files and environment, read only), with its rule. */
  state(ctx: AgentContext): OwnRecapState;
  /** What turns it off for the session recapwrap launches (agentRecaps: replace); absent when the agent has no such switch. */
  readonly off?: { readonly env?: Readonly<Record<string, string>>; readonly args?: readonly string[] };
  /** The setting that turns it off for good (doctor's fix). */
  readonly setting: string;
}

/** What the agent is doing (declared with the other shared plain types), derived here. */
export type { ActivityState };

/** An adapter's parts that parse nothing (each agent's sessions.ts): listing its sessions and resuming one. */
export type AgentSessions = Pick<TranscriptAdapter, 'listAllSessions' | 'resumeArgs' | 'forkArgs' | 'command'>;
