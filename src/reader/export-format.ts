/**
 * What the markdown and HTML renderers of a reader document share: which blocks a view shows, how a
 * tool output is cut to its preview ("… N more lines", as the terminal does), times and durations said
 * the same way, and transcript text made inert for a medium that draws it (controls, bidi overrides).
 * Pure: no I/O, no clock (the time zone is an option, so goldens do not depend on the machine's).
 */
import type { Block, ReaderDiff, ReaderMeta, ReaderOutput, ReaderView, ToolBlock } from './document.js';

/** Lines of a tool output the default view shows, in the terminal, the markdown and the page alike. */
export const PREVIEW_LINES = 4;
/** Lines of an edit's diff the default view shows, in the terminal, the markdown and the page alike. */
export const DIFF_PREVIEW_LINES = 12;
/** The rest of an output is put in the page (one click away) only up to this size; beyond, the preview says how much there was. */
export const HTML_REST_MAX_CHARS = 4096;
/** Characters of one output line a preview keeps (a 10 MB single line stays one short line). */
export const PREVIEW_LINE_CHARS = 240;

export interface OutputCut {
  lines: string[];
  /** Lines of the output the cut left out (of the whole output, not only of the kept text). */
  more: number;
}

function trimTrailingBlankLines(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end--;
  return end === lines.length ? lines : lines.slice(0, end);
}

function cutLine(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

function countLines(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/**
 * The lines of an output in one view: the first PREVIEW_LINES (each cut to PREVIEW_LINE_CHARS) for
 * default and focused, every kept line for full; `more` counts what is left out, the builder's cut included.
 */
export function cutOutput(output: ReaderOutput, view: ReaderView): OutputCut {
  const text = output.text;
  const kept = countLines(text);
  const total = Math.max(output.totalLines, kept);
  if (view === 'full') {
    const lines = kept === 0 ? [] : trimTrailingBlankLines(text.split('\n').slice(0, kept));
    return { lines, more: total - kept };
  }
  // Only the preview's lines are split off: a large output is not split whole to show four of them.
  const lines: string[] = [];
  let from = 0;
  while (lines.length < PREVIEW_LINES && lines.length < kept) {
    const nl = text.indexOf('\n', from);
    const end = nl === -1 ? text.length : nl;
    lines.push(cutLine(text.slice(from, end), PREVIEW_LINE_CHARS));
    from = nl === -1 ? text.length : nl + 1;
  }
  const restBlank = !output.cut && text.slice(from).trim() === '';
  return { lines: trimTrailingBlankLines(lines), more: restBlank ? 0 : total - lines.length };
}

/** Whether a view shows a block at all (nested sub-agent blocks follow the same rule). */
export function isBlockShown(block: Block, view: ReaderView, thinking: boolean): boolean {
  switch (block.kind) {
    case 'prompt':
    case 'compaction':
    case 'branch':
      return true;
    case 'answer':
      return view !== 'focused' || block.final;
    case 'thinking':
      return view !== 'focused' || thinking;
    case 'tool':
      return view !== 'focused';
    case 'notice':
      return view !== 'focused' || block.tone === 'error' || block.tone === 'aborted';
    default:
      return block satisfies never;
  }
}

/** The call's outcome said in a few words: `exit 1 · 2.3 s`, `error`, `running`. */
export function describeToolStatus(block: ToolBlock): string {
  const parts: string[] = [];
  if (block.exitCode !== undefined) parts.push(`exit ${block.exitCode}`);
  else if (block.status === 'error') parts.push('error');
  else if (block.status === 'pending') parts.push('no result');
  if (block.durationMs !== undefined) parts.push(formatDuration(block.durationMs));
  return parts.join(' · ');
}

/** `820 ms`, `2.3 s`, `4 min 10 s`, `2 h 38 min`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) {
    const seconds = Math.floor((ms % 60_000) / 1000);
    return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours < 48) return rest ? `${hours} h ${rest} min` : `${hours} h`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

const FORMATTERS = new Map<string, Intl.DateTimeFormat>();

/** The last minute formatted, per time zone: a session's messages come minutes apart, formatToParts is slow. */
const LAST_MINUTE = new Map<string, { minute: number; parts: Record<string, string> }>();

function partsOf(ts: number, timeZone: string | undefined): Record<string, string> {
  const key = timeZone ?? '';
  const minute = Math.floor(ts / 60_000);
  const last = LAST_MINUTE.get(key);
  if (last && last.minute === minute) return last.parts;
  let fmt = FORMATTERS.get(key);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-CA', {
      timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    });
    FORMATTERS.set(key, fmt);
  }
  const out: Record<string, string> = {};
  for (const part of fmt.formatToParts(new Date(ts))) out[part.type] = part.value;
  LAST_MINUTE.set(key, { minute, parts: out });
  return out;
}

/** `2026-11-28`, in the given time zone (the machine's when none). */
export function formatDay(ts: number, timeZone?: string): string {
  const p = partsOf(ts, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** `14:02`, in the given time zone (the machine's when none). */
export function formatClock(ts: number, timeZone?: string): string {
  const p = partsOf(ts, timeZone);
  return `${p.hour}:${p.minute}`;
}

/** The session's span: `2026-11-28 14:02 → 16:40 (2 h 38 min)`, the day repeated only when it changed. */
export function formatSpan(startedAt: number | undefined, updatedAt: number | undefined, timeZone?: string): string {
  if (startedAt === undefined) return updatedAt === undefined ? '' : `${formatDay(updatedAt, timeZone)} ${formatClock(updatedAt, timeZone)}`;
  const start = `${formatDay(startedAt, timeZone)} ${formatClock(startedAt, timeZone)}`;
  if (updatedAt === undefined || updatedAt <= startedAt) return start;
  const sameDay = formatDay(startedAt, timeZone) === formatDay(updatedAt, timeZone);
  const end = `${sameDay ? '' : `${formatDay(updatedAt, timeZone)} `}${formatClock(updatedAt, timeZone)}`;
  return `${start} → ${end} (${formatDuration(updatedAt - startedAt)})`;
}

/**
 * Characters that reorder or hide text (bidi embeddings, overrides, isolates and marks, zero-width and
 * other format characters) and C0/C1 controls but tab and newline. The builder strips them already;
 * a renderer replaces any left with a visible `⟨U+202E⟩`, so none can reorder what the reader sees.
 */
const HIDDEN_OR_REORDERING = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

export function neutralizeControls(text: string): string {
  return text.replace(HIDDEN_OR_REORDERING, (ch) => `⟨U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** The longest run of one character in a text (fences must be longer than any run of backticks inside). */
export function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === ch) {
      run++;
      if (run > best) best = run;
    } else run = 0;
  }
  return best;
}

export interface MetaRow {
  label: string;
  value: string;
  /** An identifier or a path: shown as code. */
  code?: boolean;
}

/** What a notice is called in the markdown and the page, by its tone. */
export const NOTICE_LABELS = {
  error: '⚠ Error',
  aborted: '⏹ Interrupted',
  model: 'Model',
  recap: 'Recap',
  exit: 'Session end',
  info: 'Note',
} as const satisfies Record<string, string>;

/** The header's rows, in order, for the markdown table and the HTML page alike (empty ones left out). */
export function listMetaRows(meta: ReaderMeta, timeZone?: string): MetaRow[] {
  const rows: MetaRow[] = [];
  const add = (label: string, value: string | undefined, code?: boolean) => {
    if (value !== undefined && value !== '') rows.push(code ? { label, value, code } : { label, value });
  };
  add('Agent', meta.agent);
  add('Session', meta.id, true);
  add('Name', meta.name);
  add('Host', meta.host);
  add('Folder', meta.cwd, true);
  add('Git branch', meta.gitBranch, true);
  add('Model', meta.models.join(', '));
  add('Span', formatSpan(meta.startedAt, meta.updatedAt, timeZone));
  const counts = [`${meta.prompts} prompts`, `${meta.answers} answers`, `${meta.toolCalls} tool calls`];
  if (meta.branches) counts.push(`${meta.branches} ${meta.branches === 1 ? 'branch' : 'branches'} beyond the main line${meta.currentBranch === undefined ? '' : `, now on ${meta.currentBranch ? `branch ${meta.currentBranch}` : 'the main line'}`}`);
  add('Counts', counts.join(' · '));
  if (meta.skipped) add('Skipped', `${meta.skipped} unreadable ${meta.skipped === 1 ? 'line' : 'lines'} of the file`);
  add('File', meta.file, true);
  add('Recap', meta.recap);
  add('Your note', meta.note);
  return rows;
}

/** The page's and the markdown's title: your name for the session, else its title, else its id. */
export function titleOf(meta: ReaderMeta): string {
  return (meta.name ?? meta.title ?? meta.id).replace(/\s+/g, ' ').trim() || meta.id;
}

/** Every file a tool call changed: `diffs` when the builder set it (multi-file patches), else `diff`. */
export function diffsOf(block: ToolBlock): ReaderDiff[] {
  return block.diffs ?? (block.diff ? [block.diff] : []);
}

/** `1 more line`, `34 more lines`. */
export function moreLines(n: number, what = 'line'): string {
  return `${n} more ${what}${n === 1 ? '' : 's'}`;
}
