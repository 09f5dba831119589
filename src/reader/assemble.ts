/**
 * Pure: the reader's document from a full read's entries (ParsedEntry, in file order, every branch):
 * prompts open numbered turns, a tool call's result, exit status and duration join its line, edits become
 * diffs, compaction and errors are marked where they happened. A prompt written under an entry that
 * already has a continuation starts a branch (pi's tree, a Claude Code rewind): the file's order is kept,
 * so the first line written comes first and each branch follows as a BranchBlock. A parent that is not in
 * the file (a broken chain) is read as a continuation: every message is shown.
 * Blocks come out a turn at a time (`take`), so a caller can render them while the file is still read.
 */
import type { ParsedEntry, ToolCallEvent, TranscriptEvent } from '../transcripts/types.js';
import type { Block, ReaderOutput, ToolBlock } from './document.js';
import { cleanLine, cleanText, countLines } from './clean.js';
import { diffsOfToolCall } from './diffs.js';
import { HTML_REST_MAX_CHARS, PREVIEW_LINES } from './export-format.js';
import { createWordGate, type WordGate } from './word-gate.js';

export interface AssembleOptions {
  /** Most characters of one tool output kept (the rest counted, `cut`). */
  outputMaxChars?: number;
  /** Most characters of one prompt, answer, thinking or summary kept. */
  textMaxChars?: number;
  /**
   * Only what an outline needs (`read --outline`): prompts (their first OUTLINE_PROMPT_CHARS), tool
   * names, diffs and times; answers, thinking, outputs and tool summaries are left empty (their cleaning
   * is most of a big session's cost).
   */
  lean?: boolean;
  /**
   * The renderers show only outputs' previews (`--md` and `--html` in the default and focused views): a
   * long output is cleaned only as far as its preview needs, when that preview is sure to come out the same.
   */
  previewOnly?: boolean;
  /**
   * Only where these words are (search's `turn`: findAnchor's words, anchorWords): a text that surely
   * cannot hold any of them once cleaned is left empty instead of cleaned (word-gate.ts). Blocks, turns
   * and anchors are those of a full read, and findAnchor finds the same block in them.
   */
  words?: readonly string[];
  /** A sub-agent's blocks for the call that started it (the builder's I/O), when there is one. */
  childrenOf?: (call: ToolCallEvent) => { blocks: Block[]; label: string } | undefined;
}

export const OUTPUT_MAX_CHARS = 64 * 1024;
/** Characters of a prompt the outline folds into its line (outline.ts). */
export const OUTLINE_PROMPT_CHARS = 2000;
// lean: a prompt is cleaned to this many characters (and the mask's margin), enough for the outline's.
const LEAN_PROMPT_KEEP_CHARS = 4 * OUTLINE_PROMPT_CHARS;
export const TEXT_MAX_CHARS = 256 * 1024;
// A turn with more blocks than this is handed out before its end (all but what may still change).
const PENDING_FLUSH_BLOCKS = 256;
// Distinct tool and model names remembered cleaned (more are cleaned each time).
const NAMES_KEPT = 256;
// Claude Code's tools that start a sub-agent.
const SUBAGENT_TOOLS = new Set(['Task', 'Agent']);
const SUMMARY_KEYS = ['file_path', 'path', 'filePath', 'absolute_path', 'notebook_path', 'pattern', 'query', 'url', 'description', 'prompt'] as const;
const EXIT_CODE_TEXT = /(?:^|\n)\s*(?:Exit code|Process exited with code|Command exited with code)[:\s]+(-?\d+)/i;
// What Codex puts before a command's output (its chunk id, wall time, exit code, token count).
const CODEX_OUTPUT_HEAD = /^Chunk ID: [^\n]*\n(?:Wall time: [^\n]*\n)?(?:Process exited with code -?\d+\n)?(?:Original token count: [^\n]*\n)?Output:\n?/;
const CODEX_WALL_TIME = /^(?:Chunk ID: [^\n]*\n)?Wall time: ([\d.]+) seconds/;
// previewOnly: an output is cleaned to this many characters (and the mask's margin) when its preview's
// lines all end within the first PREVIEW_REGION_CHARS, so every secret that starts in them is read whole.
const PREVIEW_KEEP_CHARS = 16 * 1024;
const PREVIEW_REGION_CHARS = 4 * 1024;
// What can make the cleaned text's lines differ from the raw text's (escapes that swallow line breaks,
// other line breaks): an output holding one is cleaned whole.
const PREVIEW_UNSAFE = /[\x1b\x80-\x9f\r\v\f\u0085\u2028\u2029]|^\s*\n/;

export interface DocumentCounts {
  prompts: number;
  answers: number;
  toolCalls: number;
  branches: number;
  /** The branch the file's last entry is on (the session's current one: 0 the main line, else its BranchBlock index). */
  currentBranch: number;
  models: string[];
  title?: string;
}

const SUMMARY_MAX_CHARS = 400;

function summaryOf(e: ToolCallEvent, gate: WordGate | undefined): string {
  const line = (raw: string): string => (gate?.lineCannotHold(raw, SUMMARY_MAX_CHARS) ? '' : cleanLine(raw, SUMMARY_MAX_CHARS));
  if (e.command) return line(e.command);
  if (e.paths.length > 0) return line(e.paths.length > 1 ? `${e.paths[0] as string} (+${e.paths.length - 1} more)` : (e.paths[0] as string));
  const input = e.input;
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    const rec = input as Record<string, unknown>;
    for (const k of SUMMARY_KEYS) if (typeof rec[k] === 'string' && rec[k]) return line(rec[k]);
  }
  return line(e.args);
}

export class DocumentAssembler {
  private turn = 0;
  private inTurn = 0;
  private pending: Block[] = [];
  private ready: Block[] = [];
  private readonly turnOf = new Map<string, number>();
  private readonly hasChild = new Set<string>();
  // The branch each entry is on (0: the main line), for which one the last entry, the session's leaf, is on.
  private readonly branchOf = new Map<string, number>();
  private readonly calls = new Map<string, ToolBlock>();
  private readonly unanswered: ToolBlock[] = [];
  private readonly callTs = new WeakMap<ToolBlock, number>();
  // Sub-agent calls still running (Claude Code's Task/Agent), and the inline work seen under each.
  private agentCalls: ToolBlock[] = [];
  private readonly inline = new Map<ToolBlock, DocumentAssembler>();
  private lastModel: string | undefined;
  // `words`: the turn's last answer already handed out (flushSettled), marked final when the turn ends.
  private settledAnswer: Extract<Block, { kind: 'answer' }> | undefined;
  readonly counts: DocumentCounts = { prompts: 0, answers: 0, toolCalls: 0, branches: 0, currentBranch: 0, models: [] };
  private readonly outputMax: number;
  private readonly textMax: number;
  private readonly gate: WordGate | undefined;

  constructor(private readonly options: AssembleOptions = {}) {
    this.outputMax = options.outputMaxChars ?? OUTPUT_MAX_CHARS;
    this.textMax = options.textMaxChars ?? TEXT_MAX_CHARS;
    this.gate = options.words ? createWordGate(options.words) : undefined;
  }

  /** One entry of the file, in file order. */
  push(entry: ParsedEntry): void {
    if (entry.sidechain) return this.pushSidechain(entry);
    const parent = entry.parentId;
    // An entry is on its parent's branch (on the one before it when its parent is not known), or opens one.
    let branch = (typeof parent === 'string' ? this.branchOf.get(parent) : undefined) ?? this.counts.currentBranch;
    if (typeof parent === 'string' && this.turnOf.has(parent)) {
      if (this.hasChild.has(parent) && entry.events.some(opensBranch)) {
        this.openBranch(this.turnOf.get(parent) as number);
        branch = this.counts.branches;
      }
      this.hasChild.add(parent);
    }
    this.branchOf.set(entry.id, branch);
    this.counts.currentBranch = branch;
    for (const e of entry.events) this.pushEvent(e);
    this.turnOf.set(entry.id, this.turn);
  }

  // A sub-agent's entry written inline (older Claude Code): under the latest sub-agent call still running.
  private pushSidechain(entry: ParsedEntry): void {
    const host = this.agentCalls[this.agentCalls.length - 1];
    if (!host) return; // No call to put it under: the main conversation does not show it.
    let child = this.inline.get(host);
    if (!child) this.inline.set(host, (child = new DocumentAssembler({ ...this.options, childrenOf: undefined })));
    child.push({ ...entry, sidechain: false });
  }

  // The inline sub-agent's work, placed under its call once the call has its result (or the file ends).
  private settle(block: ToolBlock): void {
    this.agentCalls = this.agentCalls.filter((b) => b !== block);
    const child = this.inline.get(block);
    if (!child) return;
    this.inline.delete(block);
    const blocks = child.finish();
    if (blocks.length > 0 && !block.children) {
      block.children = reanchor(blocks, block.anchor, block.turn);
      block.childLabel ??= 'sub-agent';
    }
  }

  /** Events of a format read whole (no entries): one after the other. */
  pushEvents(events: readonly TranscriptEvent[]): void {
    for (const e of events) this.pushEvent(e);
  }

  /** Blocks complete so far (each handed out once). */
  take(): Block[] {
    if (this.pending.length > PENDING_FLUSH_BLOCKS) this.flushEarly();
    else if (this.options.words) this.flushSettled();
    const out = this.ready;
    this.ready = [];
    return out;
  }

  /** The rest, at the end of the file. */
  finish(): Block[] {
    for (const b of [...this.agentCalls]) this.settle(b);
    this.flushTurn();
    return this.take();
  }

  private anchor(): string {
    return `t${this.turn}.${++this.inTurn}`;
  }

  private add(block: Block): void {
    this.pending.push(block);
  }

  private openBranch(fromTurn: number): void {
    this.flushTurn();
    this.counts.branches++;
    const label = fromTurn === 0 ? 'from the start' : `from prompt ${fromTurn}`;
    this.ready.push({ kind: 'branch', anchor: this.anchor(), turn: this.turn, index: this.counts.branches, label });
  }

  // The turn is over: its last answer is the final one (one handed out early, when none is left).
  private flushTurn(): void {
    let last = this.settledAnswer;
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const b = this.pending[i] as Block;
      if (b.kind === 'answer') {
        last = b;
        break;
      }
    }
    if (last) last.final = true;
    this.settledAnswer = undefined;
    this.ready.push(...this.pending);
    this.pending = [];
  }

  // `words` (search's turn): the turn's blocks up to its first call still waiting for its result can no
  // longer change (a prompt's, answer's or notice's text is whole when made, a call's once its result is
  // in), so they are handed out at once: the lookup stops at the block holding the words, not at the next
  // prompt. The last answer handed out is remembered to be marked final at the turn's end.
  private flushSettled(): void {
    let upTo = this.pending.findIndex((b) => b.kind === 'tool' && b.status === 'pending');
    if (upTo === -1) upTo = this.pending.length;
    if (upTo === 0) return;
    const settled = this.pending.splice(0, upTo);
    for (const b of settled) if (b.kind === 'answer') this.settledAnswer = b;
    this.ready.push(...settled);
  }

  // A very long turn: hand out what can no longer change (before its last answer and its first call without a result).
  private flushEarly(): void {
    let upTo = this.pending.length;
    for (let i = this.pending.length - 1; i >= 0; i--) {
      if ((this.pending[i] as Block).kind === 'answer') {
        upTo = i;
        break;
      }
    }
    const open = this.pending.findIndex((b) => b.kind === 'tool' && b.status === 'pending');
    if (open !== -1) upTo = Math.min(upTo, open);
    if (upTo === 0) return;
    this.ready.push(...this.pending.splice(0, upTo));
  }

  // Tool and model names repeat through a session: each is cleaned once (cleanLine is pure).
  private readonly names = new Map<string, string>();
  private name(raw: string): string {
    let clean = this.names.get(raw);
    if (clean === undefined) {
      clean = cleanLine(raw, 200);
      if (this.names.size < NAMES_KEPT) this.names.set(raw, clean);
    }
    return clean;
  }

  private text(raw: string): string {
    if (this.gate?.textCannotHold(raw, this.textMax)) return '';
    const { text, cut } = cleanText(raw, this.textMax);
    return cut ? `${text}\n… [cut: ${raw.length - text.length} more characters]` : text;
  }

  // The outline's prompt: its first OUTLINE_PROMPT_CHARS cleaned as this.text would (else the whole text).
  private leanPrompt(raw: string): string {
    if (raw.length <= LEAN_PROMPT_KEEP_CHARS) return this.text(raw);
    const part = cleanText(raw, LEAN_PROMPT_KEEP_CHARS);
    return part.text.length >= OUTLINE_PROMPT_CHARS ? part.text : this.text(raw);
  }

  private output(raw: string): ReaderOutput | undefined {
    if (this.options.lean || !raw.trim()) return undefined;
    // Only the words are looked for: no text, and none of the counting either.
    if (this.gate?.outputCannotHold(raw)) return undefined;
    const totalLines = countLines(raw.trim());
    if (this.options.previewOnly && raw.length > PREVIEW_KEEP_CHARS && this.outputMax > PREVIEW_KEEP_CHARS) {
      const part = cleanText(raw, PREVIEW_KEEP_CHARS);
      const text = part.text.replace(/^\n+|\s+$/g, '');
      // Cut here, the renderers show the same preview, `… N more lines` and no rest as they would of the
      // whole: the preview's lines and the line after them are in it, the line count is the raw text's, and
      // what follows the preview is longer than the page's rest (blank lines at the end are not counted).
      if (part.cut && text.length > PREVIEW_REGION_CHARS + HTML_REST_MAX_CHARS && previewEndsBy(text, PREVIEW_REGION_CHARS) && !PREVIEW_UNSAFE.test(raw.length > this.outputMax ? raw.slice(0, this.outputMax) : raw)) {
        return { text, totalLines, totalChars: raw.length, cut: true };
      }
    }
    const { text, cut } = cleanText(raw, this.outputMax);
    return { text: text.replace(/^\n+|\s+$/g, ''), totalLines, totalChars: raw.length, ...(cut ? { cut: true } : {}) };
  }

  private pushEvent(e: TranscriptEvent): void {
    switch (e.kind) {
      case 'user': {
        const text = this.options.lean && !e.midTurn ? this.leanPrompt(e.text) : this.text(e.text);
        if (e.midTurn) {
          this.add({ kind: 'notice', tone: 'info', text: `typed during the turn: ${text}`, anchor: this.anchor(), turn: this.turn, ts: e.ts });
          return;
        }
        this.flushTurn();
        // A slash command (`/compact`, `/model opus`) is shown where it was typed, marked, but it is no
        // prompt: it opens no turn and takes no number (counts agree with `show`, `sessions` and MCP).
        if (e.command) {
          this.add({ kind: 'prompt', text, anchor: this.anchor(), turn: this.turn, ts: e.ts, command: true });
          return;
        }
        this.turn++;
        this.inTurn = 0;
        this.counts.prompts++;
        this.add({ kind: 'prompt', text, anchor: `t${this.turn}`, turn: this.turn, ts: e.ts });
        return;
      }
      case 'assistant':
        this.counts.answers++;
        this.add({ kind: 'answer', text: this.options.lean ? '' : this.text(e.text), final: false, anchor: this.anchor(), turn: this.turn, ts: e.ts });
        return;
      case 'thinking': {
        const text = this.options.lean ? '' : this.text(e.text);
        this.add({ kind: 'thinking', text, chars: e.chars ?? e.text.length, anchor: this.anchor(), turn: this.turn, ts: e.ts });
        return;
      }
      case 'tool-call':
        this.toolCall(e);
        return;
      case 'tool-result':
        this.toolResult(e);
        return;
      case 'summary':
        this.add({ kind: 'compaction', source: e.source, summary: this.text(e.text), anchor: this.anchor(), turn: this.turn, ts: e.ts });
        return;
      case 'aborted':
        this.add({ kind: 'notice', tone: 'aborted', text: cleanLine(e.text ?? 'interrupted'), anchor: this.anchor(), turn: this.turn, ts: e.ts });
        return;
      case 'error':
        this.add({ kind: 'notice', tone: 'error', text: this.text(e.text), anchor: this.anchor(), turn: this.turn, ts: e.ts });
        return;
      case 'model': {
        const model = this.name(e.model);
        if (!model || model === this.lastModel) return;
        if (!this.counts.models.includes(model)) this.counts.models.push(model);
        if (this.lastModel !== undefined) this.add({ kind: 'notice', tone: 'model', text: `model: ${model}`, anchor: this.anchor(), turn: this.turn, ts: e.ts });
        this.lastModel = model;
        return;
      }
      case 'title':
        this.counts.title = cleanLine(e.text, 300);
        return;
      case 'agent-recap':
        this.add({ kind: 'notice', tone: 'recap', text: this.text(e.text), anchor: this.anchor(), turn: this.turn, ts: e.ts });
        return;
      case 'exit':
        this.add({ kind: 'notice', tone: 'exit', text: cleanLine(e.text ?? 'session ended'), anchor: this.anchor(), turn: this.turn, ts: e.ts });
        return;
      case 'turn-end':
        return;
      default:
        e satisfies never;
    }
  }

  private toolCall(e: ToolCallEvent): void {
    this.counts.toolCalls++;
    const block: ToolBlock = { kind: 'tool', name: this.name(e.name), summary: this.options.lean ? '' : summaryOf(e, this.gate), status: 'pending', anchor: this.anchor(), turn: this.turn, ts: e.ts };
    const diffs = diffsOfToolCall(e.name, e.input ?? e.args, this.gate);
    if (diffs.length > 0) block.diff = diffs[0];
    if (diffs.length > 1) block.diffs = diffs;
    // A patch run through a shell tool: the files it changes say more than the heredoc.
    if (diffs.length > 0 && !e.paths.length && !this.options.lean) block.summary = cleanLine(diffs.map((d) => d.file).join(', '), 400);
    const child = this.options.childrenOf?.(e);
    if (child && child.blocks.length > 0) {
      block.children = reanchor(child.blocks, block.anchor, block.turn);
      block.childLabel = cleanLine(child.label, 200);
    }
    if (e.ts !== undefined) this.callTs.set(block, e.ts);
    if (SUBAGENT_TOOLS.has(e.name) && !block.children) {
      this.agentCalls.push(block);
      const input = e.input as { subagent_type?: unknown; description?: unknown } | undefined;
      const label = [input?.subagent_type, input?.description].filter((x): x is string => typeof x === 'string' && x !== '').join(': ');
      if (label) block.childLabel = cleanLine(label, 200);
    }
    if (e.callId) this.calls.set(e.callId, block);
    else this.unanswered.push(block);
    this.add(block);
  }

  private toolResult(e: Extract<TranscriptEvent, { kind: 'tool-result' }>): void {
    let block: ToolBlock | undefined;
    if (e.callId) {
      block = this.calls.get(e.callId);
      if (block) this.calls.delete(e.callId);
    } else block = this.unanswered.shift();
    if (!block) {
      // A result whose call is not in the file (or was answered already): shown on its own line.
      block = { kind: 'tool', name: this.name(e.name ?? 'tool'), summary: '', status: 'pending', anchor: this.anchor(), turn: this.turn, ts: e.ts };
      this.add(block);
    } else if (block.status !== 'pending') return;
    this.settle(block);
    let raw = e.text;
    const wall = CODEX_WALL_TIME.exec(raw);
    raw = raw.replace(CODEX_OUTPUT_HEAD, '');
    const code = e.exitCode ?? (EXIT_CODE_TEXT.exec(e.text.slice(0, 4096))?.[1] !== undefined ? Number(EXIT_CODE_TEXT.exec(e.text.slice(0, 4096))?.[1]) : undefined);
    block.status = e.ok && (code === undefined || code === 0) ? 'ok' : 'error';
    if (code !== undefined) block.exitCode = code;
    const started = this.callTs.get(block);
    if (wall) block.durationMs = Math.round(Number(wall[1]) * 1000);
    else if (started !== undefined && e.ts !== undefined && e.ts > started) block.durationMs = e.ts - started;
    const output = this.output(raw);
    if (output) block.output = output;
  }
}

// The first PREVIEW_LINES lines of text end (with a line after them) within `chars` characters.
function previewEndsBy(text: string, chars: number): boolean {
  let at = -1;
  for (let i = 0; i < PREVIEW_LINES; i++) {
    at = text.indexOf('\n', at + 1);
    if (at === -1 || at >= chars) return false;
  }
  return true;
}

// A prompt (or a branch summary) opens a branch when its parent already has a continuation.
function opensBranch(e: TranscriptEvent): boolean {
  return (e.kind === 'user' && !e.midTurn) || (e.kind === 'summary' && e.source === 'branch');
}

/** Sub-agent blocks placed under the call that started them: anchors below the call's, the parent's turn. */
export function reanchor(blocks: Block[], anchor: string, turn: number): Block[] {
  return blocks.map((b, i) => {
    const a = `${anchor}.${i + 1}`;
    const moved = { ...b, anchor: a, turn } as Block;
    if (moved.kind === 'tool' && moved.children) moved.children = reanchor(moved.children, a, turn);
    return moved;
  });
}
