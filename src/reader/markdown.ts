/**
 * A reader document as markdown (`read --md`, MCP `read_session`): for a person, or to hand a past session
 * to another agent. A metadata table, then each prompt as a numbered heading, the agent's answers as it
 * wrote them, tool calls and their cut outputs in fences no transcript text can close, edits as `diff`.
 * Pure. It does not render the agent's markdown (the reader of the file does), only frames it.
 */
import type { AnswerBlock, Block, ReaderDiff, ReaderDocument, ReaderMeta, ReaderView, ToolBlock } from './document.js';
import {
  cutOutput, describeToolStatus, DIFF_PREVIEW_LINES, diffsOf, formatClock, formatDay, isBlockShown, listMetaRows, NOTICE_LABELS, longestRun, moreLines, neutralizeControls, PREVIEW_LINES, titleOf,
} from './export-format.js';

export interface MarkdownOptions {
  view: ReaderView;
  /** Thinking in full rather than one line (and at all in the focused view). */
  thinking?: boolean;
  /** IANA time zone of the times shown (the machine's when unset). */
  timeZone?: string;
  /** Sub-agent levels shown whole outside the full view (default 0: folded, as in the terminal). */
  subagentDepth?: number;
}

/** A fence of backticks longer than any run of backticks inside `body` (at least three). */
export function fenceFor(body: string): string {
  return '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
}

function fenced(body: string, info = ''): string {
  const fence = fenceFor(body);
  return `${fence}${info}\n${body}\n${fence}`;
}

/** Inline code that holds any text on one line: delimiters longer than its backtick runs, padded when needed. */
export function inlineCode(text: string): string {
  const one = text.replace(/\s*\n\s*/g, ' ');
  const ticks = '`'.repeat(longestRun(one, '`') + 1);
  const pad = one.startsWith('`') || one.endsWith('`') || (one.startsWith(' ') && one.endsWith(' ') && one.trim() !== '') ? ' ' : '';
  return `${ticks}${pad}${one}${pad}${ticks}`;
}

/** Text for a table cell or a heading: one line, pipes and backslashes escaped. */
function cellText(text: string): string {
  return neutralizeControls(text).replace(/\s*\n\s*/g, ' ').replace(/\\/g, '\\\\').replace(/\|/g, '\\|').trim();
}

function quote(text: string): string {
  return text.split('\n').map((line) => (line === '' ? '>' : `> ${line}`)).join('\n');
}

function renderMetaTable(meta: ReaderMeta, timeZone: string | undefined): string {
  const rows = listMetaRows(meta, timeZone).map((row) => `| ${row.label} | ${row.code ? inlineCode(row.value) : cellText(row.value)} |`);
  return ['| | |', '|---|---|', ...rows].join('\n');
}

interface RenderState {
  opts: MarkdownOptions;
  thinking: boolean;
  prompts: number;
  lastDay?: string;
}

function stamp(ts: number | undefined, state: RenderState): string {
  if (ts === undefined) return '';
  const day = formatDay(ts, state.opts.timeZone);
  const clock = formatClock(ts, state.opts.timeZone);
  const withDay = day !== state.lastDay;
  state.lastDay = day;
  return withDay ? `${day} ${clock}` : clock;
}

function renderDiff(diff: ReaderDiff, state: RenderState, out: string[], named: boolean): void {
  if (named) out.push(`${inlineCode(diff.file)} · +${diff.added} −${diff.removed}${diff.created ? ' (new file)' : ''}`);
  if (diff.unified === '') return;
  const lines = neutralizeControls(diff.unified.replace(/\n$/, '')).split('\n');
  const shown = state.opts.view === 'full' ? lines : lines.slice(0, DIFF_PREVIEW_LINES);
  out.push(fenced(shown.join('\n'), 'diff'));
  if (lines.length > shown.length) out.push(`… ${moreLines(lines.length - shown.length)} of the diff`);
}

function renderTool(block: ToolBlock, state: RenderState, depth: number): string[] {
  const out: string[] = [];
  const status = describeToolStatus(block);
  const diffs = diffsOf(block);
  const head = [`**${cellText(block.name) || 'tool'}**`];
  if (diffs.length === 1) head.push(inlineCode(diffs[0]!.file), `+${diffs[0]!.added} −${diffs[0]!.removed}${diffs[0]!.created ? ' (new file)' : ''}`);
  else if (block.summary) head.push(inlineCode(block.summary));
  if (diffs.length > 1) head.push(`${diffs.length} files +${diffs.reduce((n, d) => n + d.added, 0)} −${diffs.reduce((n, d) => n + d.removed, 0)}`);
  if (status) head.push(status);
  out.push(`🔧 ${head.join(' · ')}`);
  for (const diff of diffs) renderDiff(diff, state, out, diffs.length > 1);
  if (diffs.length === 0 && block.output && block.output.text !== '') {
    const cut = cutOutput(block.output, state.opts.view);
    const body = neutralizeControls(cut.lines.join('\n'));
    if (body.trim() !== '') out.push(fenced(cut.more ? `${body}\n… ${moreLines(cut.more)}` : body));
    else if (cut.more) out.push(`… ${moreLines(cut.more)}`);
  }
  if (block.children && block.children.length) out.push(...renderChildren(block, state, depth));
  return out;
}

/**
 * A sub-agent's work, quoted under the call that started it: folded in the default view (one line and
 * the start of its last answer, as the terminal shows it), every level in full.
 */
function renderChildren(block: ToolBlock, state: RenderState, depth: number): string[] {
  const children = block.children ?? [];
  const label = `**Sub-agent${block.childLabel ? ` (${cellText(block.childLabel)})` : ''}**`;
  if (state.opts.view === 'full' || depth < (state.opts.subagentDepth ?? 0)) {
    return [quote([label, ...renderBlocks(children, state, depth + 1)].join('\n\n'))];
  }
  const calls = children.filter((b) => b.kind === 'tool').length;
  const answer = [...children].reverse().find((b): b is AnswerBlock => b.kind === 'answer');
  const lines = [`${label}: ${calls} tool ${calls === 1 ? 'call' : 'calls'}; \`--full\` shows its work`];
  if (answer) {
    const text = neutralizeControls(answer.text).trim().split('\n');
    lines.push('', ...text.slice(0, PREVIEW_LINES));
    if (text.length > PREVIEW_LINES) lines.push('', `… ${moreLines(text.length - PREVIEW_LINES)}`);
  }
  return [quote(lines.join('\n'))];
}

function renderBlock(block: Block, state: RenderState, depth: number): string[] {
  switch (block.kind) {
    case 'prompt': {
      const when = stamp(block.ts, state);
      const title = `Prompt ${block.turn}/${state.prompts}${when ? ` · ${when}` : ''}`;
      const text = neutralizeControls(block.text);
      // A sub-agent's prompt is the parent's instructions, not the person's: no numbered heading.
      if (depth > 0) return ['**Its instructions**', quote(text)];
      // A slash command is no prompt: no numbered heading (the headings are the prompts).
      if (block.command) return [`**Command**${when ? ` · ${when}` : ''}: ${inlineCode(text)}`];
      return [`## ${title}`, quote(text)];
    }
    case 'answer': {
      const text = neutralizeControls(block.text).trim();
      return text === '' ? [] : [text];
    }
    case 'thinking': {
      if (!state.thinking) return [`*Thinking: ${block.chars.toLocaleString('en-US')} characters, folded.*`];
      return [quote(`*Thinking*\n\n${neutralizeControls(block.text)}`)];
    }
    case 'tool':
      return renderTool(block, state, depth);
    case 'compaction': {
      const what = block.source === 'branch' ? 'Branch summary' : 'Compacted here';
      const when = block.ts === undefined ? '' : ` · ${stamp(block.ts, state)}`;
      const lines = ['---', `**${what}**${when}: the history above stays; the agent went on from this summary:`];
      if (block.summary.trim() !== '') lines.push(quote(neutralizeControls(block.summary.trim())));
      lines.push('---');
      return lines;
    }
    case 'branch':
      return ['---', `## Branch ${block.index} · ${cellText(block.label)}`];
    case 'notice': {
      const label = NOTICE_LABELS[block.tone];
      return [`*${label}:* ${neutralizeControls(block.text).trim()}`];
    }
    default:
      return block satisfies never;
  }
}

function renderBlocks(blocks: Block[], state: RenderState, depth: number): string[] {
  const out: string[] = [];
  for (const block of blocks) {
    if (!isBlockShown(block, state.opts.view, state.thinking)) continue;
    out.push(...renderBlock(block, state, depth));
  }
  return out;
}

/**
 * A document as markdown, in one view. Each part is separated by a blank line, and the text ends with
 * one newline. Pure.
 */
export function renderMarkdown(doc: ReaderDocument, opts: MarkdownOptions): string {
  const parts = [renderMarkdownHeader(doc, opts)];
  for (const part of renderMarkdownParts(doc, opts)) parts.push(part.text);
  return `${parts.join('\n\n')}\n`;
}

/** The title, the metadata table and a line saying which view this is. */
export function renderMarkdownHeader(doc: ReaderDocument, opts: MarkdownOptions): string {
  const parts = [`# ${cellText(titleOf(doc.meta))}`];
  if (doc.meta.title && doc.meta.name && doc.meta.title !== doc.meta.name) parts.push(`*${cellText(doc.meta.title)}*`);
  parts.push(renderMetaTable(doc.meta, opts.timeZone));
  const view = opts.view === 'default' ? '' : ` (${opts.view} view${opts.view === 'focused' ? ': prompts and final answers' : ''})`;
  parts.push(`*Rendered by recapwrap read${view}. ${formatViewHint(opts)}*`);
  return parts.join('\n\n');
}

export interface MarkdownPart {
  /** The top-level block this part renders (a page of MCP read_session starts at one). */
  anchor: string;
  turn: number;
  text: string;
}

/** The markdown of each top-level block the view shows, in order (joined by a blank line, the body of renderMarkdown). */
export function renderMarkdownParts(doc: ReaderDocument, opts: MarkdownOptions): MarkdownPart[] {
  const state: RenderState = { opts, thinking: opts.thinking ?? false, prompts: doc.meta.prompts };
  const parts: MarkdownPart[] = [];
  for (const block of doc.blocks) {
    if (!isBlockShown(block, opts.view, state.thinking)) continue;
    const text = renderBlock(block, state, 0);
    if (text.length) parts.push({ anchor: block.anchor, turn: block.turn, text: text.join('\n\n') });
  }
  return parts;
}

function formatViewHint(opts: MarkdownOptions): string {
  if (opts.view === 'full') return 'Tool outputs in full, as far as the file kept them.';
  if (opts.view === 'focused') return 'Tool calls and steps left out; the default view has them.';
  return `Tool outputs cut to their first lines; \`--full\` has the rest.`;
}

