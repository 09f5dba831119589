/**
 * The reader's document model (#41): a past session as a reader sees it, built from an agent's session file
 * and rendered to the terminal, to markdown and to one HTML file. Plain data only: the builder (file ->
 * document) is the reader's one I/O edge; the renderers (document -> text) are pure.
 * Every text field holds transcript text masked for secrets and stripped of control characters by the
 * builder; renderers still escape for their own medium (terminal sanitizer, markdown, HTML).
 */
import type { AgentId } from '../transcripts/types.js';

/** How much a rendering shows: prompts and final answers; plus tool lines and previews; everything. */
export type ReaderView = 'focused' | 'default' | 'full';

export interface ReaderMeta {
  agent: AgentId;
  /** The session id the agent gave it. */
  id: string;
  /** The index's name (yours or generated), when the session is indexed. */
  name?: string;
  /** The machine it comes from, when not this one. */
  host?: string;
  cwd?: string;
  /** The transcript file read. */
  file: string;
  /** Models seen, in order of first use. */
  models: string[];
  title?: string;
  gitBranch?: string;
  startedAt?: number;
  updatedAt?: number;
  /** Prompts (turns) in the document: what `N` is in `› 3/N`. */
  prompts: number;
  /** Messages of the agent (answers) and tool calls, counted over every branch shown. */
  answers: number;
  toolCalls: number;
  /** Branches the file holds beyond the main line (pi /tree, Claude Code rewinds, forks inside a file). */
  branches: number;
  /** The branch the session is on (its last entry's): 0 the main line, else that branch's number. */
  currentBranch?: number;
  /** Lines of the file that were not read as anything (bad JSON, unknown records). */
  skipped: number;
  /** The card's recap line and your own note, when the index has them. */
  recap?: string;
  note?: string;
}

/** A file change, in the same form for every agent's edit, write and patch tools. */
export interface ReaderDiff {
  file: string;
  /** Unified diff text (hunks only, `@@` headers kept; no `---`/`+++` lines). */
  unified: string;
  added: number;
  removed: number;
  /** A new file written whole (`write` tools), rather than an edit. */
  created?: boolean;
}

/** Tool output: the full text is kept where small; `total*` say how much there was. */
export interface ReaderOutput {
  text: string;
  totalLines: number;
  totalChars: number;
  /** `text` is a part of the output (the builder's cap for very large outputs). */
  cut?: boolean;
}

interface BlockBase {
  /**
   * Stable anchor of this block in the document: `t3` for prompt 3 and `t3.5` for the fifth block after
   * it (`t0.N` before the first prompt). The HTML's `#t12` deep links, `read --turn`, and search's `turn`.
   */
  anchor: string;
  /** Turn this block belongs to (0 before the first prompt). */
  turn: number;
  /** When the message was sent (epoch ms), when the file says. */
  ts?: number;
}

export interface PromptBlock extends BlockBase {
  kind: 'prompt';
  text: string;
  /**
   * A slash command the user typed (`/review src/app.ts`): shown, marked, but no numbered prompt. It opens
   * no turn: its `turn` is the prompt's before it (0 before the first) and its anchor one of that turn's.
   */
  command?: boolean;
}

export interface AnswerBlock extends BlockBase {
  kind: 'answer';
  /** The agent's text, markdown as the agent wrote it. */
  text: string;
  /** The last answer of its turn: what the focused view keeps. */
  final: boolean;
}

export interface ThinkingBlock extends BlockBase {
  kind: 'thinking';
  text: string;
  chars: number;
}

export interface ToolBlock extends BlockBase {
  kind: 'tool';
  /** Tool name as the agent reports it. */
  name: string;
  /** One line: the command run, the file read or written, the query; the compact arguments otherwise. */
  summary: string;
  status: 'ok' | 'error' | 'pending';
  exitCode?: number;
  durationMs?: number;
  output?: ReaderOutput;
  diff?: ReaderDiff;
  /**
   * Every file the call changed, when it changed more than one (a Codex `apply_patch` over several files);
   * `diff` is then the first of them. Renderers that show `diffs` when set and `diff` otherwise show all.
   */
  diffs?: ReaderDiff[];
  /** Work of a sub-agent this call started, inline (its own blocks, turn numbers of the parent). */
  children?: Block[];
  /** The sub-agent's label (type or description), when `children` is set. */
  childLabel?: string;
}

/** Where the agent compacted its context, with the summary it left; the history before it stays shown. */
export interface CompactionBlock extends BlockBase {
  kind: 'compaction';
  source: 'compaction' | 'branch';
  summary: string;
}

/** The start of another branch the file holds (the blocks that follow, up to the next branch, are on it). */
export interface BranchBlock extends BlockBase {
  kind: 'branch';
  /** 1 for the first branch beyond the main line. */
  index: number;
  /** Where it leaves the main line, said for a reader ("from prompt 4"). */
  label: string;
}

/** Errors, interruptions, model switches, the agent's own recap, the session's end. */
export interface NoticeBlock extends BlockBase {
  kind: 'notice';
  tone: 'error' | 'aborted' | 'model' | 'recap' | 'exit' | 'info';
  text: string;
}

export type Block = PromptBlock | AnswerBlock | ThinkingBlock | ToolBlock | CompactionBlock | BranchBlock | NoticeBlock;

export interface ReaderDocument {
  meta: ReaderMeta;
  blocks: Block[];
}
