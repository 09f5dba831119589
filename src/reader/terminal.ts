/**
 * Pure: the reader's document as terminal text (#41): a header, each prompt marked and numbered
 * (`› 3/12  14:02`, searchable in less with `/›`), the agent's markdown drawn for a terminal (markdown-it's
 * tokens: headings, lists, emphasis, code set off, tables), one line per tool call with a short preview,
 * edits as unified diffs, thinking folded, sub-agent work folded under its call. Colours only when asked
 * (a TTY); plain text otherwise. Texts come cleaned from the builder; any control character left is
 * dropped again here, so the only escape sequences in the output are the renderer's own colours.
 */
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { displayWidth, graphemes } from '../util/text-width.js';
import type { Block, ReaderDiff, ReaderMeta, ReaderView, ToolBlock } from './document.js';
import { DIFF_PREVIEW_LINES, PREVIEW_LINES } from './export-format.js';
import { formatDuration, shortPath } from './format.js';

export { formatDuration, shortPath };

export interface TerminalOptions {
  view: ReaderView;
  /** Thinking shown whole (else one line). */
  thinking?: boolean;
  /** Cells per line. */
  width: number;
  /** The renderer's own colours (SGR); off when piped. */
  color: boolean;
  /** `N` in `› 3/N`; left out when unknown. */
  prompts?: number;
  /** The home folder: the header shows paths under it as `~/…`. */
  home?: string;
  /** The session's folder: paths under it are shown relative to it. */
  cwd?: string;
  /** Time zone for the times shown (tests pin it); the system's by default. */
  timeZone?: string;
}

// SGR colours (ECMA-48 8.3.117).
const SGR = {
  reset: '\x1b[0m', // all attributes off
  bold: '\x1b[1m',
  dim: '\x1b[2m',
  italic: '\x1b[3m',
  underline: '\x1b[4m',
  strike: '\x1b[9m',
  red: '\x1b[31m',
  green: '\x1b[32m',
  yellow: '\x1b[33m',
  blue: '\x1b[34m',
  magenta: '\x1b[35m',
  cyan: '\x1b[36m',
} as const;

// What no transcript text may carry to the terminal (the builder removed it already; a document made
// elsewhere is held to the same rule).
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
const SUMMARY_PREVIEW_LINES = 6;

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

interface Seg {
  text: string;
  style: string;
}

function safe(text: string): string {
  return text.replace(CONTROL, '');
}

function paint(text: string, style: string, color: boolean): string {
  return color && style && text ? `${style}${text}${SGR.reset}` : text;
}

// Break segments into lines of at most `width` cells, the first after `first`, the others after `rest`.
function wrap(segs: Seg[], width: number, first: Seg, rest: Seg, color: boolean): string[] {
  const lines: string[] = [];
  let prefix = first;
  let line = paint(prefix.text, prefix.style, color);
  let used = displayWidth(prefix.text);
  let empty = true;
  const newline = () => {
    lines.push(line.trimEnd());
    prefix = rest;
    line = paint(prefix.text, prefix.style, color);
    used = displayWidth(prefix.text);
    empty = true;
  };
  for (const seg of segs) {
    const parts = seg.text.split('\n');
    parts.forEach((part, pi) => {
      if (pi > 0) newline();
      for (const token of part.match(/\s+|[^\s]+/g) ?? []) {
        const isSpace = /^\s/.test(token);
        if (isSpace) {
          if (empty) continue;
          if (used + 1 > width) {
            newline();
            continue;
          }
          line += ' ';
          used += 1;
          continue;
        }
        const w = displayWidth(token);
        if (!empty && used + w > width) {
          line = line.trimEnd();
          newline();
        }
        if (used + w <= width) {
          line += paint(token, seg.style, color);
          used += w;
          empty = false;
          continue;
        }
        // A word wider than the line: cut at cell boundaries.
        let piece = '';
        for (const g of graphemes(token)) {
          if (used + displayWidth(piece) + g.width > width && (piece || !empty)) {
            line += paint(piece, seg.style, color);
            newline();
            piece = '';
          }
          piece += g.text;
        }
        line += paint(piece, seg.style, color);
        used += displayWidth(piece);
        empty = false;
      }
    });
  }
  if (!empty || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}

// Hard-wrap one line of code or output (no word breaks), each piece after the prefix.
function wrapCode(text: string, width: number, prefix: Seg, style: string, color: boolean): string[] {
  const room = Math.max(8, width - displayWidth(prefix.text));
  const head = paint(prefix.text, prefix.style, color);
  if (text.length <= room && displayWidth(text) <= room) return [(head + paint(text, style, color)).trimEnd()];
  const out: string[] = [];
  let piece = '';
  let used = 0;
  for (const g of graphemes(text)) {
    if (used + g.width > room) {
      out.push(head + paint(piece, style, color));
      piece = '';
      used = 0;
    }
    piece += g.text;
    used += g.width;
  }
  if (piece || out.length === 0) out.push((head + paint(piece, style, color)).trimEnd());
  return out;
}

function inlineSegs(tokens: readonly Token[] | null, base = ''): Seg[] {
  const segs: Seg[] = [];
  const styles: string[] = [base];
  let link: string | undefined;
  const style = () => styles.join('');
  for (const t of tokens ?? []) {
    switch (t.type) {
      case 'text':
        segs.push({ text: safe(t.content), style: style() });
        break;
      case 'code_inline':
        segs.push({ text: safe(t.content), style: style() + SGR.cyan });
        break;
      case 'strong_open':
        styles.push(SGR.bold);
        break;
      case 'em_open':
        styles.push(SGR.italic);
        break;
      case 's_open':
        styles.push(SGR.strike);
        break;
      case 'link_open':
        link = t.attrGet('href') ?? undefined;
        styles.push(SGR.underline);
        break;
      case 'link_close': {
        styles.pop();
        const last = segs[segs.length - 1]?.text;
        if (link && link !== last && !link.startsWith('#')) segs.push({ text: ` (${safe(link)})`, style: style() + SGR.dim });
        link = undefined;
        break;
      }
      case 'strong_close':
      case 'em_close':
      case 's_close':
        styles.pop();
        break;
      case 'softbreak':
        segs.push({ text: ' ', style: '' });
        break;
      case 'hardbreak':
        segs.push({ text: '\n', style: '' });
        break;
      case 'image':
        segs.push({ text: `[image: ${safe(t.content || t.attrGet('src') || '')}]`, style: style() + SGR.dim });
        break;
      default:
        if (t.content) segs.push({ text: safe(t.content), style: style() });
    }
  }
  return segs;
}

function plainOf(segs: Seg[]): string {
  return segs.map((s) => s.text).join('');
}

// A table that fits: aligned columns; one that does not: each row as `header: value` lines.
function renderTable(rows: Seg[][][], width: number, indent: string, color: boolean): string[] {
  const cells = rows.map((r) => r.map((c) => plainOf(c).replace(/\s+/g, ' ').trim()));
  const cols = Math.max(...cells.map((r) => r.length));
  const widths = Array.from({ length: cols }, (_, i) => Math.max(1, ...cells.map((r) => displayWidth(r[i] ?? ''))));
  const total = displayWidth(indent) + widths.reduce((a, b) => a + b, 0) + 3 * (cols - 1);
  const out: string[] = [];
  if (total <= width) {
    cells.forEach((r, ri) => {
      const line = widths.map((w, i) => {
        const c = r[i] ?? '';
        return c + ' '.repeat(w - displayWidth(c));
      });
      out.push((indent + (ri === 0 ? paint(line.join(' │ '), SGR.bold, color) : line.join(' │ '))).trimEnd());
      if (ri === 0) out.push(indent + widths.map((w) => '─'.repeat(w)).join('─┼─'));
    });
    return out;
  }
  const head = cells[0] ?? [];
  for (const r of cells.slice(1)) {
    r.forEach((c, i) => out.push(...wrap([{ text: `${head[i] ?? ''}: `, style: SGR.bold }, { text: c, style: '' }], width, { text: `${indent}${i === 0 ? '• ' : '  '}`, style: '' }, { text: `${indent}    `, style: '' }, color)));
  }
  return out;
}

/** Markdown as terminal lines (width cells, every line after `indent`). */
export function renderTerminalMarkdown(text: string, width: number, color: boolean, indent = ''): string[] {
  const tokens = md.parse(text, {});
  const out: string[] = [];
  // List context: each level's marker counter (undefined for bullets) and the prefix of its lines.
  const lists: { ordered: boolean; n: number }[] = [];
  const quotes: number[] = [];
  let pendingMarker: string | undefined;
  let table: Seg[][][] | undefined;
  let row: Seg[][] | undefined;
  const pad = () => indent + '  '.repeat(lists.length) + '▌ '.repeat(quotes.length);
  const blank = () => {
    if (out.length > 0 && out[out.length - 1] !== '' && lists.length === 0) out.push('');
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    switch (t.type) {
      case 'heading_open': {
        blank();
        const level = Number(t.tag.slice(1));
        const inline = tokens[i + 1] as Token;
        const mark = `${'#'.repeat(level)} `;
        out.push(...wrap(inlineSegs(inline.children, SGR.bold + (level <= 2 ? SGR.underline : '')), width, { text: pad() + (color ? '' : mark), style: '' }, { text: pad(), style: '' }, color));
        i += 2;
        break;
      }
      case 'paragraph_open':
        if (!t.hidden) blank();
        break;
      case 'inline': {
        if (row) break;
        const base = pad();
        const marker = pendingMarker;
        pendingMarker = undefined;
        const first = marker !== undefined ? base.slice(0, Math.max(0, base.length - 2)) + marker : base;
        const rest = marker !== undefined ? base.slice(0, Math.max(0, base.length - 2)) + ' '.repeat(displayWidth(marker)) : base;
        out.push(...wrap(inlineSegs(t.children), width, { text: first, style: '' }, { text: rest, style: '' }, color));
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open':
        if (lists.length === 0) blank();
        lists.push({ ordered: t.type === 'ordered_list_open', n: Number(t.attrGet('start') ?? 1) });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        if (lists.length === 0) out.push('');
        break;
      case 'list_item_open': {
        const list = lists[lists.length - 1];
        pendingMarker = list?.ordered ? `${list.n++}. ` : '• ';
        break;
      }
      case 'blockquote_open':
        blank();
        quotes.push(1);
        break;
      case 'blockquote_close':
        quotes.pop();
        break;
      case 'fence':
      case 'code_block': {
        blank();
        const lang = t.type === 'fence' ? safe(t.info.trim().split(/\s+/)[0] ?? '') : '';
        const gutter = `${pad()}│ `;
        if (lang) out.push(paint(`${pad()}╭ ${lang}`, SGR.dim, color));
        for (const line of safe(t.content.replace(/\n$/, '').replace(/\t/g, '    ')).split('\n')) {
          out.push(...wrapCode(line, width, { text: gutter, style: SGR.dim }, SGR.yellow, color));
        }
        out.push('');
        break;
      }
      case 'hr':
        blank();
        out.push(paint(pad() + '─'.repeat(Math.max(3, Math.min(40, width - displayWidth(pad())))), SGR.dim, color));
        break;
      case 'table_open':
        blank();
        table = [];
        break;
      case 'tr_open':
        row = [];
        break;
      case 'th_open':
      case 'td_open': {
        const inline = tokens[i + 1] as Token;
        row?.push(inline.type === 'inline' ? inlineSegs(inline.children) : []);
        break;
      }
      case 'tr_close':
        if (row) table?.push(row);
        row = undefined;
        break;
      case 'table_close':
        if (table && table.length > 0) out.push(...renderTable(table, width, pad(), color));
        table = undefined;
        out.push('');
        break;
      case 'html_block':
        out.push(...safe(t.content.replace(/\n$/, '')).split('\n').flatMap((l) => wrapCode(l, width, { text: pad(), style: '' }, '', color)));
        break;
      default:
        break;
    }
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

function dateParts(ts: number, timeZone: string | undefined): { day: string; time: string } {
  const d = new Date(ts);
  if (!timeZone) return { day: `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`, time: `${two(d.getHours())}:${two(d.getMinutes())}` };
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(d).map((p) => [p.type, p.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** A duration for a person: 228ms, 4.1s, 2m05s, 1h02m. */

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * A renderer with state (the day of the last time shown: a time on another day says its date), fed
 * blocks in order. `header` once, then `block` for each.
 */
export class TerminalRenderer {
  private lastDay: string | undefined;

  constructor(private readonly opts: TerminalOptions) {}

  private c(text: string, style: string): string {
    return paint(text, style, this.opts.color);
  }

  private when(ts: number | undefined): string {
    if (ts === undefined) return '';
    const { day, time } = dateParts(ts, this.opts.timeZone);
    const show = day === this.lastDay ? time : `${day} ${time}`;
    this.lastDay = day;
    return show;
  }

  /** The header: agent, name, folder, model, span, counts, your note and the card's recap. */
  header(meta: ReaderMeta, counted = true): string[] {
    const w = this.opts.width;
    const lines: string[] = [];
    const title = [meta.agent, meta.name ?? meta.title, meta.host ? `on ${meta.host}` : undefined].filter(Boolean).join(' · ');
    lines.push(...wrap([{ text: safe(title), style: SGR.bold }], w, { text: '', style: '' }, { text: '', style: '' }, this.opts.color));
    // A folder, an id and a file are printed whole (the terminal wraps them): a line broken inside a path
    // cannot be copied (#43.5); the other rows are wrapped to the width.
    const row = (label: string, value: string | undefined, whole = false) => {
      if (!value) return;
      if (whole) lines.push(this.c(label.padEnd(8), SGR.dim) + safe(value));
      else lines.push(...wrap([{ text: safe(value), style: '' }], w, { text: label.padEnd(8), style: SGR.dim }, { text: ' '.repeat(8), style: '' }, this.opts.color));
    };
    if (meta.name && meta.title && meta.title !== meta.name) row('title', meta.title);
    const tilde = (p: string | undefined) => (p && this.opts.home && (p === this.opts.home || p.startsWith(`${this.opts.home}/`)) ? `~${p.slice(this.opts.home.length)}` : p);
    row('folder', tilde(meta.cwd), true);
    row('model', meta.models.join(', '));
    if (meta.startedAt !== undefined) {
      const start = dateParts(meta.startedAt, this.opts.timeZone);
      const end = meta.updatedAt !== undefined ? dateParts(meta.updatedAt, this.opts.timeZone) : undefined;
      const span = end ? `${start.day} ${start.time} → ${end.day === start.day ? end.time : `${end.day} ${end.time}`} (${formatDuration(Math.max(0, (meta.updatedAt as number) - meta.startedAt))})` : `${start.day} ${start.time}`;
      row('span', span);
    }
    if (counted) {
      const counts = [plural(meta.prompts, 'prompt'), plural(meta.answers, 'answer'), plural(meta.toolCalls, 'tool call')];
      if (meta.branches > 0) counts.push(branchesLine(meta.branches, meta.currentBranch));
      row('counts', counts.join(' · '));
    }
    row('id', meta.id, true);
    row('file', tilde(meta.file), true);
    row('note', meta.note);
    row('recap', meta.recap);
    lines.push(this.c('─'.repeat(Math.min(w, 60)), SGR.dim));
    return lines;
  }

  /**
   * One block's lines (none when the view leaves it out), spaced from the block before: a blank line
   * between kinds (a tool line and the answer after it), never two blank lines in a row.
   */
  block(b: Block): string[] {
    const lines = this.draw(b, 0);
    if (lines.length === 0) return lines;
    if (this.prev !== undefined && this.prev !== b.kind && lines[0] !== '' && !this.lastBlank && !(this.prev === 'tool' && b.kind === 'tool')) lines.unshift('');
    const out: string[] = [];
    for (const l of lines) {
      if (l === '' && this.lastBlank) continue;
      out.push(l);
      this.lastBlank = l === '';
    }
    this.prev = b.kind;
    return out;
  }

  private prev: Block['kind'] | undefined;
  private lastBlank = false;

  private draw(b: Block, depth: number): string[] {
    const { view, width } = this.opts;
    const indent = '    '.repeat(depth);
    switch (b.kind) {
      case 'prompt': {
        if (depth > 0) return wrap([{ text: safe(b.text), style: SGR.bold }], width, { text: `${indent}task: `, style: SGR.magenta }, { text: `${indent}  `, style: '' }, this.opts.color);
        const when = this.when(b.ts);
        // A slash command: one marked line, no number (it is no prompt).
        if (b.command) return ['', this.c(`· ${safe(b.text).replace(/\s+/g, ' ')}  (command${when ? `, ${when}` : ''})`, SGR.magenta)];
        const n = this.opts.prompts ? `${b.turn}/${this.opts.prompts}` : `${b.turn}`;
        const mark = `› ${n}${when ? `  ${when}` : ''}`;
        const lines = ['', this.c(mark, SGR.bold + SGR.magenta)];
        lines.push(...wrap([{ text: safe(b.text), style: SGR.bold }], width, { text: '  ', style: '' }, { text: '  ', style: '' }, this.opts.color));
        lines.push('');
        return lines;
      }
      case 'answer':
        if (view === 'focused' && !b.final) return [];
        return [...renderTerminalMarkdown(b.text, width, this.opts.color, indent), ''];
      case 'thinking': {
        if (view === 'focused') return [];
        if (this.opts.thinking) {
          const lines = [this.c(`${indent}∴ thinking`, SGR.dim + SGR.italic)];
          for (const l of safe(b.text).split('\n')) lines.push(...wrap([{ text: l, style: SGR.dim + SGR.italic }], width, { text: `${indent}  `, style: '' }, { text: `${indent}  `, style: '' }, this.opts.color));
          return [...lines, ''];
        }
        const first = safe(b.text).replace(/\s+/g, ' ').trim();
        const room = Math.max(10, width - displayWidth(indent) - 16);
        const cut = displayWidth(first) > room ? `${graphemesUpTo(first, room - 1)}…` : first;
        return [this.c(`${indent}∴ ${cut}`, SGR.dim + SGR.italic) + this.c(` (${b.chars} chars)`, SGR.dim)];
      }
      case 'tool':
        if (view === 'focused') return [];
        return this.tool(b, depth);
      case 'compaction': {
        const label = b.source === 'compaction' ? '═══ compacted: the agent summarized what came before ═══' : '═══ branch summary ═══';
        const lines = ['', this.c(`${indent}${label}`, SGR.bold + SGR.yellow)];
        if (view === 'focused') return [...lines, ''];
        const body = renderTerminalMarkdown(b.summary, width, this.opts.color, `${indent}  `);
        if (view === 'full' || body.length <= SUMMARY_PREVIEW_LINES) lines.push(...body);
        else lines.push(...body.slice(0, SUMMARY_PREVIEW_LINES), this.c(`${indent}  … ${body.length - SUMMARY_PREVIEW_LINES} more lines (--full)`, SGR.dim));
        return [...lines, ''];
      }
      case 'branch':
        return ['', this.c(`${indent}━━━ branch ${b.index} (${b.label}) ━━━`, SGR.bold + SGR.blue), ''];
      case 'notice': {
        if (view === 'focused' && b.tone !== 'error' && b.tone !== 'recap') return [];
        const glyph = { error: '✗', aborted: '⊘', model: '⇄', recap: '※', exit: '⏏', info: '·' }[b.tone];
        const style = b.tone === 'error' ? SGR.red : b.tone === 'aborted' ? SGR.yellow : SGR.dim;
        return wrap([{ text: safe(b.text), style }], width, { text: `${indent}${glyph} `, style }, { text: `${indent}  `, style: '' }, this.opts.color);
      }
      default:
        return b satisfies never;
    }
  }

  private tool(b: ToolBlock, depth: number): string[] {
    const { view, width, color } = this.opts;
    const indent = '    '.repeat(depth);
    const status = b.status === 'ok' ? this.c('✓', SGR.green) : b.status === 'error' ? this.c(`✗${b.exitCode !== undefined ? ` exit ${b.exitCode}` : ''}`, SGR.red) : this.c('…', SGR.dim);
    const tail = [b.exitCode !== undefined && b.status === 'ok' && b.exitCode !== 0 ? `exit ${b.exitCode}` : '', b.durationMs !== undefined && b.durationMs > 0 ? formatDuration(b.durationMs) : ''].filter(Boolean).join(' ');
    const diffs = b.diffs ?? (b.diff ? [b.diff] : []);
    const counts = diffs.length > 0 ? ` +${diffs.reduce((n, d) => n + d.added, 0)} −${diffs.reduce((n, d) => n + d.removed, 0)}` : '';
    const head = `${indent}▸ ${safe(b.name)}`;
    const statusText = ` ${b.status === 'ok' ? '✓' : b.status === 'error' ? `✗${b.exitCode !== undefined ? ` exit ${b.exitCode}` : ''}` : '…'}${tail ? ` ${tail}` : ''}`;
    const room = Math.max(10, width - displayWidth(head) - displayWidth(counts) - displayWidth(statusText) - 1);
    const summary = shortPath(safe(b.summary).replace(/\s+/g, ' '), this.opts.cwd);
    const cut = displayWidth(summary) > room ? `${graphemesUpTo(summary, room - 1)}…` : summary;
    const lines = [`${this.c(head, SGR.cyan)}${cut ? ` ${cut}` : ''}${this.c(counts, SGR.dim)} ${status}${tail ? this.c(` ${tail}`, SGR.dim) : ''}`];
    for (const d of diffs) lines.push(...this.diff(d, indent, diffs.length > 1));
    // A sub-agent's result is its final answer, shown under it (folded) or with its work (--full).
    if (b.output && diffs.length === 0 && !(b.children && b.children.length > 0)) {
      const text = b.output.text.split('\n');
      const show = view === 'full' ? text : text.slice(0, PREVIEW_LINES);
      for (const l of show) lines.push(...wrapCode(safe(l), width, { text: `${indent}  │ `, style: SGR.dim }, b.status === 'error' ? SGR.red : '', color));
      const more = b.output.totalLines - show.length;
      if (more > 0 || b.output.cut) {
        const note = view === 'full' ? `… output cut: ${b.output.totalChars - b.output.text.length} more characters` : `… ${plural(Math.max(more, 0), 'more line')}`;
        lines.push(this.c(`${indent}  ${note}`, SGR.dim));
      }
    }
    if (b.children && b.children.length > 0) lines.push(...this.children(b, depth));
    return lines;
  }

  private diff(d: ReaderDiff, indent: string, named: boolean): string[] {
    const { view, width, color } = this.opts;
    const lines: string[] = [];
    if (named || d.created) lines.push(this.c(`${indent}  ${shortPath(safe(d.file), this.opts.cwd)}${d.created ? ' (new file)' : ''} +${d.added} −${d.removed}`, SGR.dim));
    const all = d.unified ? d.unified.split('\n') : [];
    const show = view === 'full' ? all : all.slice(0, DIFF_PREVIEW_LINES);
    for (const l of show) {
      const style = l.startsWith('+') ? SGR.green : l.startsWith('-') ? SGR.red : l.startsWith('@@') ? SGR.cyan : '';
      lines.push(...wrapCode(safe(l), width, { text: `${indent}  `, style: '' }, style, color));
    }
    if (all.length > show.length) lines.push(this.c(`${indent}  … ${plural(all.length - show.length, 'more line')}`, SGR.dim));
    return lines;
  }

  // A sub-agent's work: its blocks one level in (full view), else one line with its final answer's start.
  private children(b: ToolBlock, depth: number): string[] {
    const kids = b.children ?? [];
    const indent = '    '.repeat(depth);
    const label = `${indent}  ↳ ${safe(b.childLabel ?? 'sub-agent')}`;
    if (this.opts.view === 'full') return [this.c(label, SGR.magenta), ...kids.flatMap((k) => this.draw(k, depth + 1))];
    const calls = kids.filter((k) => k.kind === 'tool').length;
    const answer = [...kids].reverse().find((k) => k.kind === 'answer');
    const lines = [this.c(`${label} (${plural(calls, 'tool call')}; --full shows its work)`, SGR.magenta)];
    if (answer && answer.kind === 'answer') {
      const text = renderTerminalMarkdown(answer.text, this.opts.width, this.opts.color, `${indent}    `);
      lines.push(...text.slice(0, PREVIEW_LINES));
      if (text.length > PREVIEW_LINES) lines.push(this.c(`${indent}    … ${plural(text.length - PREVIEW_LINES, 'more line')}`, SGR.dim));
    }
    return lines;
  }
}

/** A path under the session's folder, relative to it (the tool lines and the outline). */

function graphemesUpTo(text: string, width: number): string {
  let out = '';
  let used = 0;
  for (const g of graphemes(text)) {
    if (used + g.width > width) break;
    out += g.text;
    used += g.width;
  }
  return out;
}

/** The whole document as terminal text (tests, and the pager path when the document is built whole). */
export function renderTerminal(doc: { meta: ReaderMeta; blocks: readonly Block[] }, opts: TerminalOptions): string {
  const r = new TerminalRenderer({ ...opts, prompts: opts.prompts ?? doc.meta.prompts, cwd: opts.cwd ?? doc.meta.cwd });
  const lines = [...r.header(doc.meta)];
  for (const b of doc.blocks) lines.push(...r.block(b));
  return `${lines.join('\n')}\n`;
}

// The branches a file holds, as the document's headings number them, and which one the session is on.
function branchesLine(branches: number, current: number | undefined): string {
  const held = `main line + ${branches} ${branches === 1 ? 'branch' : 'branches'}`;
  return current === undefined ? held : `${held}, now on ${current === 0 ? 'the main line' : `branch ${current}`}`;
}
