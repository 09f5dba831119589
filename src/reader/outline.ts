/**
 * Pure: `read --outline`, one line per prompt: its number and time, the prompt, the tools it ran, the
 * files it touched with +added/−removed, and the time it took (the prompt to its turn's last message).
 * Branch starts are lines of their own. Colour-free; cut to the width.
 */
import { displayWidth, truncateToWidth } from '../util/text-width.js';
import { OUTLINE_PROMPT_CHARS } from './assemble.js';
import type { Block, ReaderDocument, ToolBlock } from './document.js';
import { formatDuration, shortPath } from './format.js';

export interface OutlineTurn {
  turn: number;
  anchor: string;
  ts?: number;
  prompt: string;
  /** Tool names with how many times each ran, in order of first use. */
  tools: { name: string; count: number }[];
  files: { file: string; added: number; removed: number }[];
  durationMs?: number;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function walkTools(blocks: readonly Block[], visit: (b: ToolBlock) => void): void {
  for (const b of blocks) {
    if (b.kind !== 'tool') continue;
    visit(b);
    if (b.children) walkTools(b.children, visit);
  }
}

/** The turns of a document (branch marks left out), with what each did. */
export function outlineTurns(doc: ReaderDocument): OutlineTurn[] {
  const turns: OutlineTurn[] = [];
  let current: OutlineTurn | undefined;
  let last: number | undefined;
  const close = () => {
    if (current && current.ts !== undefined && last !== undefined && last > current.ts) current.durationMs = last - current.ts;
  };
  for (const b of doc.blocks) {
    // A slash command opens no turn: what follows it stays with the prompt before.
    if (b.kind === 'prompt' && b.command) continue;
    if (b.kind === 'prompt') {
      close();
      // A line holds a few hundred cells at most: no need to fold (and later measure) a long prompt whole.
      current = { turn: b.turn, anchor: b.anchor, ts: b.ts, prompt: b.text.slice(0, OUTLINE_PROMPT_CHARS).replace(/\s+/g, ' ').trim(), tools: [], files: [] };
      last = b.ts;
      turns.push(current);
      continue;
    }
    if (b.kind === 'branch') {
      close();
      current = undefined;
      continue;
    }
    if (!current) continue;
    if (b.ts !== undefined) last = Math.max(last ?? b.ts, b.ts);
    walkTools([b], (t) => {
      const turn = current as OutlineTurn;
      const known = turn.tools.find((x) => x.name === t.name);
      if (known) known.count++;
      else turn.tools.push({ name: t.name, count: 1 });
      if (t.durationMs !== undefined && t.ts !== undefined) last = Math.max(last ?? 0, t.ts + t.durationMs);
      for (const d of t.diffs ?? (t.diff ? [t.diff] : [])) {
        const f = turn.files.find((x) => x.file === d.file);
        if (f) {
          f.added += d.added;
          f.removed += d.removed;
        } else turn.files.push({ file: d.file, added: d.added, removed: d.removed });
      }
    });
  }
  close();
  return turns;
}

function two(n: number): string {
  return String(n).padStart(2, '0');
}

function clock(ts: number, timeZone: string | undefined): { day: string; time: string } {
  const d = new Date(ts);
  if (!timeZone) return { day: `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`, time: `${two(d.getHours())}:${two(d.getMinutes())}` };
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(d).map((x) => [x.type, x.value]));
  return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}

/** The outline as text: a line per prompt (and one per branch start), each cut to `width` cells. */
export function renderOutline(doc: ReaderDocument, opts: { width: number; timeZone?: string }): string {
  const turns = outlineTurns(doc);
  const byAnchor = new Map(turns.map((t) => [t.anchor, t]));
  const n = doc.meta.prompts;
  const numWidth = String(n).length;
  const lines: string[] = [];
  // The date on the first line and where the day changes; the time of day otherwise.
  let lastDay: string | undefined;
  const when = (ts: number) => {
    const c = clock(ts, opts.timeZone);
    const shown = c.day === lastDay ? c.time : `${c.day} ${c.time}`;
    lastDay = c.day;
    return shown;
  };
  for (const b of doc.blocks) {
    if (b.kind === 'branch') {
      lines.push(`━ branch ${b.index} (${b.label})`);
      continue;
    }
    if (b.kind !== 'prompt') continue;
    // A slash command: a line of its own, marked, not numbered (it is no prompt).
    if (b.command) {
      lines.push(truncateToWidth(`· ${' '.repeat(numWidth * 2 + 1)}${b.ts !== undefined ? `  ${when(b.ts)}` : ''}  ${b.text.slice(0, OUTLINE_PROMPT_CHARS).replace(/\s+/g, ' ').trim()}  (command)`, opts.width));
      continue;
    }
    const t = byAnchor.get(b.anchor) as OutlineTurn;
    const parts: string[] = [];
    if (t.tools.length > 0) parts.push(t.tools.map((x) => (x.count > 1 ? `${x.name}×${x.count}` : x.name)).join(', '));
    if (t.files.length > 0) parts.push(t.files.map((f) => `${shortPath(f.file, doc.meta.cwd)} +${f.added} −${f.removed}`).join(', '));
    if (t.durationMs !== undefined) parts.push(formatDuration(t.durationMs));
    const head = `› ${String(t.turn).padStart(numWidth)}/${n}${t.ts !== undefined ? `  ${when(t.ts)}` : ''}  `;
    const tail = parts.length > 0 ? `  · ${parts.join(' · ')}` : '';
    // The prompt gets what the facts leave (at least 20 cells; then the facts are cut).
    const room = Math.max(Math.min(20, opts.width), opts.width - displayWidth(head) - displayWidth(tail));
    // A prompt whose first room + 1 characters are printable ASCII is cut there first (the same cut, not measured whole).
    const prompt = truncateToWidth(t.prompt.length > room + 1 && PRINTABLE_ASCII.test(t.prompt.slice(0, room + 1)) ? t.prompt.slice(0, room + 1) : t.prompt, room);
    lines.push(truncateToWidth(head + prompt + tail, opts.width));
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
