/**
 * A session's condensed text for full-text search: the user's prompts, the agent's prose, files written,
 * commands with a one-line outcome, summaries; never tool output bodies nor reasoning. Capped per session:
 * past the cap the middle goes first, prose before commands and files, those before prompts. Also the
 * counts, tags and name hints the store keeps beside it. Pure.
 */
import type { MemoryEvent, SessionCounts } from './types.js';

export const CONDENSED_MAX_CHARS = 16_000;
const EVENT_MAX_CHARS = 1200;
const OUTCOME_MAX_CHARS = 100;

interface Line {
  text: string;
  /** What is dropped first when over the cap: 0 prose, 1 commands and files, 2 prompts and summaries. */
  keep: number;
}

const clip = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max - 1) + '…');
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function outcome(result: { ok: boolean; text: string } | undefined): string {
  if (!result) return '';
  const first = oneLine(result.text.split('\n').find((l) => l.trim()) ?? '');
  return ` → ${result.ok ? 'ok' : 'failed'}${first ? `: ${clip(first, OUTCOME_MAX_CHARS)}` : ''}`;
}

function linesOf(events: readonly MemoryEvent[]): Line[] {
  const results = new Map<string, { ok: boolean; text: string }>();
  for (const e of events) if (e.kind === 'tool-result' && 'ok' in e && e.callId) results.set(e.callId, { ok: e.ok, text: e.text });
  const out: Line[] = [];
  const files = new Set<string>();
  for (const e of events) {
    if (e.kind === 'user' && 'text' in e && e.text) out.push({ text: '> ' + clip(e.text.trim(), EVENT_MAX_CHARS * 2), keep: 2 });
    else if ((e.kind === 'summary' || e.kind === 'title') && e.text) out.push({ text: clip(e.text.trim(), EVENT_MAX_CHARS * 2), keep: 2 });
    else if (e.kind === 'assistant' && e.text) out.push({ text: clip(e.text.trim(), EVENT_MAX_CHARS), keep: 0 });
    else if (e.kind === 'tool-call' && 'paths' in e) {
      const result = e.callId ? results.get(e.callId) : undefined;
      if (e.command) out.push({ text: '$ ' + clip(oneLine(e.command), 300) + outcome(result), keep: 1 });
      for (const p of e.paths) {
        if (files.has(p)) continue;
        files.add(p);
        out.push({ text: 'file: ' + p, keep: 1 });
      }
    }
  }
  return out;
}

/** The condensed text of a session's events, at most `max` characters. */
export function condenseEvents(events: readonly MemoryEvent[], max = CONDENSED_MAX_CHARS): string {
  const lines = linesOf(events);
  let total = lines.reduce((n, l) => n + l.text.length + 1, 0);
  const dropped = new Set<number>();
  for (let level = 0; level <= 2 && total > max; level++) {
    // From the middle outward: the start (the task) and the end (where it stands) stay longest.
    const at = lines.map((l, i) => i).filter((i) => (lines[i] as Line).keep === level);
    const mid = lines.length / 2;
    at.sort((a, b) => Math.abs(a - mid) - Math.abs(b - mid));
    for (const i of at) {
      if (total <= max) break;
      dropped.add(i);
      total -= (lines[i] as Line).text.length + 1;
    }
  }
  const kept = lines.filter((_, i) => !dropped.has(i)).map((l) => l.text);
  return clip(kept.join('\n'), max);
}

export function countsOf(events: readonly MemoryEvent[]): SessionCounts {
  let prompts = 0;
  let turns = 0;
  let toolCalls = 0;
  for (const e of events) {
    if (e.kind === 'user') prompts++;
    else if (e.kind === 'turn-end' || e.kind === 'aborted') turns++;
    else if (e.kind === 'tool-call') toolCalls++;
  }
  return { prompts, turns, toolCalls };
}

const TEST_COMMAND = /\b(test|vitest|jest|pytest|mocha|rspec|cargo test|go test)\b/i;
const LANGUAGE_OF: Record<string, string> = {
  ts: 'typescript', tsx: 'typescript', js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  py: 'python', rs: 'rust', go: 'go', java: 'java', kt: 'kotlin', swift: 'swift', rb: 'ruby', php: 'php',
  c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', hpp: 'cpp', cs: 'csharp', md: 'docs', sh: 'shell', sql: 'sql',
  css: 'css', html: 'html', vue: 'vue', svelte: 'svelte', yml: 'config', yaml: 'config', toml: 'config',
};

/** Files written and commands run, for tags and names. */
export function touched(events: readonly MemoryEvent[]): { files: string[]; commands: string[] } {
  const files: string[] = [];
  const commands: string[] = [];
  for (const e of events) {
    if (e.kind !== 'tool-call' || !('paths' in e)) continue;
    for (const p of e.paths) if (!files.includes(p)) files.push(p);
    if (e.command) commands.push(e.command);
  }
  return { files, commands };
}

/** Heuristic tags: the languages of the files written, tests, git, dependencies (at most 6). */
export function tagsOf(events: readonly MemoryEvent[]): string[] {
  const { files, commands } = touched(events);
  const tags = new Set<string>();
  for (const f of files) {
    const lang = LANGUAGE_OF[/\.([a-z0-9]+)$/i.exec(f)?.[1]?.toLowerCase() ?? ''];
    if (lang) tags.add(lang);
    if (/package\.json|requirements\.txt|Cargo\.toml|go\.mod|pyproject\.toml/.test(f)) tags.add('deps');
  }
  for (const c of commands) {
    if (TEST_COMMAND.test(c)) tags.add('tests');
    if (/\bgit\s+(commit|push|rebase|merge)\b/.test(c)) tags.add('git');
    if (/\b(npm|pnpm|yarn|pip|cargo|go)\s+(install|add|get)\b/.test(c)) tags.add('deps');
  }
  return [...tags].slice(0, 6);
}

/** The task for a name: the first prompt that is more than an acknowledgement or a bare slash command. */
export function taskOf(events: readonly MemoryEvent[], title?: string): string {
  for (const e of events) {
    if (e.kind !== 'user' || !('text' in e) || !e.text) continue;
    const text = e.text.trim();
    if (/^\/\S+$/.test(text) || text.length < 4) continue;
    return text.replace(/^\/\S+\s+/, '').slice(0, 300);
  }
  return title ?? '';
}

/** Stored condensed text with a later part appended, capped: the start (the task) and the newest part stay. */
export function appendCondensed(before: string, added: string, max = CONDENSED_MAX_CHARS): string {
  const joined = before && added ? `${before}\n${added}` : before || added;
  if (joined.length <= max) return joined;
  const headRoom = Math.floor(max / 3);
  const head = before.slice(0, headRoom).replace(/\n[^\n]*$/, '');
  const tailRoom = max - head.length - 3;
  const tail = joined.slice(joined.length - tailRoom).replace(/^[^\n]*\n/, '');
  return `${head}\n…\n${tail}`;
}
