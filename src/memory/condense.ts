/**
 * A session's condensed text for full-text search: the user's prompts, summaries, API errors, the agent's
 * prose, commands with their outcome, the error lines and first meaningful lines of what tools printed
 * (failing tests among them), files written and read, what other tools were asked (searches, fetches),
 * packages installed, URLs and hosts, and a first line of English handles (tools, programs, file names)
 * that a session in another language can be found by. Never reasoning. Every piece is masked for secrets
 * before it is clipped or cut. Capped per session (a cap that grows slowly with the session): past it,
 * the lines that tell least go first (those whose words the rest of the text already holds, prose before
 * commands and tool output, never the prompts). Also the counts, tags and name hints the store keeps
 * beside it. Pure.
 */
import { maskSecrets } from './secrets.js';
import type { MemoryEvent, SessionCounts } from './types.js';

export const CONDENSED_MAX_CHARS = 16_000;
/** The cap never grows past this (a session of a million condensed characters keeps ~60,000). */
export const CONDENSED_CEILING_CHARS = 64_000;
const EVENT_MAX_CHARS = 1200;
const OUTCOME_MAX_CHARS = 140;
const OUTPUT_LINE_MAX_CHARS = 160;

interface Line {
  text: string;
  /** Its kind, for its weight when the cap cuts: 0 prose, 1 tool output, 2 commands, files, errors, 3 prompts, summaries, handles. */
  keep: number;
}

const clip = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max - 1) + '…');
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
// Secrets masked first, then clipped: a cut never leaves half a secret that no longer looks like one.
const safe = (text: string, max: number) => clip(maskSecrets(text), max);

// Lines of tool output that say nothing of the session: the agents' own headers, bare punctuation.
const NOISE_LINE = /^(?:chunk id|wall time|process exited|original token count|output|exit code|command|total \d+)\b[:\s]|^[\s\W\d]*$|^\(no output\)|^\(bash completed/i;
// An error or a failing test in tool output.
const ERROR_LINE = /\b(?:error|errors|exception|fail|failed|failure|failing|fatal|traceback|panic|denied|refused|not found|no such|cannot|can't|unable to|invalid|missing|timed? ?out|enoent|eacces|eisdir|unresolved|undefined)\b|^\s*(?:✗|×|✕|●|not ok)\s/i;
// A URL, through the `[secret]` the session's masking (done before) put in place of its password.
const URL = /\bhttps?:\/\/(?:\[secret\]|[^\s"'`<>)\]}])+/g;
const SSH_HOST = /\b(?:ssh|scp|rsync|sftp)\s+(?:-\S+\s+)*(?:[\w.-]+@)?([a-z0-9][\w-]*(?:\.[\w-]+)+)/gi;
const INSTALL = /\b(?:npm|pnpm|yarn|bun)\s+(?:install|add|i)\s+([^|;&]+)|\b(?:pip3?|uv pip|pipx)\s+install\s+([^|;&]+)|\b(?:cargo add|go get|brew install|gem install|composer require|apt(?:-get)? install)\s+([^|;&]+)|\bnpx\s+(?:-y\s+)?([@\w][\w@/.-]*)/g;
// A path argument, in the compact `key="value"` form of the parsers (or JSON's `"key": "value"`).
const READ_PATH = /(?:^|[\s{,])"?(?:file_path|path|absolute_path|filePath|notebook_path|target_file|filename|dir_path|directory)"?\s*[:=]\s*"((?:[^"\\]|\\.){1,300})"/g;

/** The lines of a tool's output worth indexing: its first meaningful lines and its error lines. */
function outputLines(text: string): string[] {
  const lines = maskSecrets(text).split('\n').map((l) => oneLine(l)).filter((l) => l && !NOISE_LINE.test(l));
  const out: string[] = [];
  for (const l of lines.slice(0, 2)) out.push(l);
  for (const l of lines.slice(2)) if (ERROR_LINE.test(l) && out.length < 5) out.push(l);
  return out.map((l) => clip(l, OUTPUT_LINE_MAX_CHARS));
}

function outcome(result: { ok: boolean; text: string } | undefined): string {
  if (!result) return '';
  const first = outputLines(result.text)[0] ?? '';
  return ` → ${result.ok ? 'ok' : 'failed'}${first ? `: ${clip(first, OUTCOME_MAX_CHARS)}` : ''}`;
}

// The packages a command installs (or runs with npx), without flags and versions.
function packagesOf(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(INSTALL)) {
    const list = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').split(/\s+/);
    for (const p of list) if (p && !p.startsWith('-') && /^[@\w]/.test(p) && !p.includes('=') && p.length < 80) out.push(p.replace(/(?<=.)@[^/]*$/, '').replace(/[<>=~^].*$/, ''));
  }
  return out;
}

// The program of each part of a shell command (`cd x && npm test | tail` → cd, npm, tail).
function programsOf(command: string): string[] {
  // The first line only: what follows a line break is a script or a here-document's text.
  return (command.split('\n')[0] ?? '')
    .split(/&&|\|\||[|;]/)
    .map((part) => /^\s*(?:sudo\s+|env\s+|[A-Z_][A-Z0-9_]*=\S*\s+)*([\w.-]+)/.exec(part)?.[1] ?? '')
    .filter((p) => p.length > 1 && !/^\d/.test(p));
}

// The new text of a write/edit call's arguments: `content`/`new_string`/`newText` values, or a patch's `+` lines.
function writtenText(args: string): string {
  const parts: string[] = [];
  for (const m of args.matchAll(/(?:^|[\s{,])"?(?:content|new_string|newText|new_str|file_text)"?\s*[:=]\s*"((?:[^"\\]|\\.)*)/g)) parts.push((m[1] as string).replace(/\\n/g, ' ').replace(/\\(.)/g, '$1'));
  if (parts.length === 0) for (const m of args.replace(/\\n/g, '\n').matchAll(/^\+(?!\+\+)(.*)$/gm)) parts.push(m[1] as string);
  return oneLine(parts.join(' '));
}

const baseOf = (path: string) => path.split(/[\\/]/).filter(Boolean).pop() ?? path;

function linesOf(events: readonly MemoryEvent[]): Line[] {
  const results = new Map<string, { ok: boolean; text: string }>();
  for (const e of events) if (e.kind === 'tool-result' && 'ok' in e && e.callId) results.set(e.callId, { ok: e.ok, text: e.text });
  const out: Line[] = [];
  const files = new Set<string>();
  const tools = new Set<string>();
  const programs = new Set<string>();
  const urls = new Set<string>();
  const packages = new Set<string>();
  const addUrls = (text: string) => {
    for (const m of text.matchAll(URL)) urls.add(safe(m[0].replace(/[.,:;!?]+$/, ''), 200));
    for (const m of text.matchAll(SSH_HOST)) urls.add(m[1] as string);
  };
  const addFile = (path: string, how: 'file' | 'read') => {
    if (files.has(path)) return;
    files.add(path);
    out.push({ text: `${how}: ${safe(path, 300)}`, keep: 2 });
  };
  for (const e of events) {
    if (e.kind === 'user' && 'text' in e && e.text && isSlashCommand(e)) {
      // A slash command: said as typed, but not a prompt (`> ` lines are; the first of them is the task).
      out.push({ text: safe(oneLine(e.text), 300), keep: 1 });
    } else if (e.kind === 'user' && 'text' in e && e.text) {
      out.push({ text: '> ' + safe(e.text.trim(), EVENT_MAX_CHARS * 2), keep: 3 });
      addUrls(e.text);
    } else if ((e.kind === 'summary' || e.kind === 'title' || e.kind === 'agent-recap') && e.text) out.push({ text: safe(e.text.trim(), EVENT_MAX_CHARS * 2), keep: 3 });
    else if ((e.kind === 'error' || e.kind === 'aborted') && e.text) out.push({ text: `! ${safe(oneLine(e.text), 300)}`, keep: 2 });
    else if (e.kind === 'assistant' && e.text) {
      out.push({ text: safe(e.text.trim(), EVENT_MAX_CHARS), keep: 0 });
      addUrls(e.text);
    } else if (e.kind === 'tool-call' && 'paths' in e) {
      tools.add(e.name);
      const result = e.callId ? results.get(e.callId) : undefined;
      if (e.command) {
        out.push({ text: '$ ' + safe(oneLine(e.command), 300) + outcome(result), keep: 2 });
        for (const p of programsOf(e.command)) programs.add(p);
        for (const p of packagesOf(e.command)) packages.add(p);
        addUrls(e.command);
      }
      for (const p of e.paths) addFile(p, 'file');
      // What a write or edit put in: the start of its new text (a patch's added lines).
      if (e.paths.length && !e.command) {
        const written = writtenText(e.args);
        if (written) out.push({ text: `+ ${safe(written, 240)}`, keep: 1 });
      }
      if (!e.command && e.paths.length === 0) {
        const read = [...e.args.matchAll(READ_PATH)].map((m) => m[1] as string);
        for (const p of read) addFile(p, 'read');
        // Other tools (a web search, a fetch, a grep, a skill): what they were asked.
        if (read.length === 0 && e.args) out.push({ text: `⚙ ${e.name} ${safe(oneLine(e.args), 200)}`, keep: 1 });
        addUrls(e.args);
      }
      // What the tool printed beyond the outcome line: its next meaningful lines and its errors.
      if (result) {
        const lines = outputLines(result.text).slice(e.command ? 1 : 0);
        if (lines.length) out.push({ text: lines.join(' ¦ '), keep: lines.some((l) => ERROR_LINE.test(l)) ? 2 : 1 });
        addUrls(result.text);
      }
    }
  }
  if (urls.size) out.push({ text: 'urls: ' + safe([...urls].slice(0, 40).join(' '), 4000), keep: 2 });
  if (packages.size) out.push({ text: 'packages: ' + safe([...packages].slice(0, 40).join(' '), 1000), keep: 2 });
  // English handles first: what a session in any language ran and touched.
  const handles = [
    tools.size ? 'tools: ' + [...tools].slice(0, 20).join(' ') : '',
    programs.size ? 'runs: ' + [...programs].slice(0, 30).join(' ') : '',
    files.size ? 'files: ' + [...new Set([...files].map(baseOf))].slice(0, 30).join(' ') : '',
  ].filter(Boolean);
  if (handles.length) out.unshift({ text: safe(handles.join(' · '), 1500), keep: 3 });
  return out;
}

/** The cap of a session whose lines come to `chars` before any cut: 16,000, growing by half of it per doubling past that, at most 64,000. */
export function condensedCap(chars: number, base = CONDENSED_MAX_CHARS): number {
  if (chars <= base) return base;
  return Math.min(CONDENSED_CEILING_CHARS, Math.round(base * (1 + 0.5 * Math.log2(chars / base))));
}

const WORDS = /[\p{L}\p{N}]{3,}/gu;

/**
 * The lines kept under `max` characters: the ones that tell least go first. A line's worth is what it
 * adds (its words weighed by how few other lines hold them) for its length, times its kind's weight
 * (prompts and summaries weigh most); a line said before goes first; the handles line and the first
 * prompt (the task) stay.
 */
function keepInformative(lines: readonly Line[], max: number): string[] {
  let total = lines.reduce((n, l) => n + l.text.length + 1, 0);
  if (total <= max) return lines.map((l) => l.text);
  const df = new Map<string, number>();
  const wordsOf = lines.map((l) => new Set((l.text.toLowerCase().match(WORDS) ?? []) as string[]));
  for (const ws of wordsOf) for (const w of ws) df.set(w, (df.get(w) ?? 0) + 1);
  const KIND_WEIGHT = [1, 1.2, 2, 4];
  const worth = lines.map((l, i) => {
    let adds = 0;
    for (const w of wordsOf[i] as Set<string>) adds += 1 / (df.get(w) as number);
    return (adds / Math.sqrt(l.text.length + 20)) * (KIND_WEIGHT[l.keep] ?? 1);
  });
  // The first line (the handles) and the first prompt (the task) stay; a line said before goes first;
  // among lines worth the same, the middle goes before the start (the task) and the end (where it stands).
  const task = lines.findIndex((l) => l.text.startsWith('> '));
  const seen = new Set<string>();
  const repeated = lines.map((l) => (seen.has(l.text) ? true : (seen.add(l.text), false)));
  const order = lines.map((_, i) => i).filter((i) => i !== task && !(i === 0 && (lines[0] as Line).keep === 3 && !lines[0]?.text.startsWith('> ')));
  for (const [i, r] of repeated.entries()) if (r) worth[i] = -1;
  order.sort((a, b) => (worth[a] as number) - (worth[b] as number) || Math.abs(a - lines.length / 2) - Math.abs(b - lines.length / 2));
  const dropped = new Set<number>();
  for (const i of order) {
    if (total <= max) break;
    dropped.add(i);
    total -= (lines[i] as Line).text.length + 1;
  }
  return lines.filter((_, i) => !dropped.has(i)).map((l) => l.text);
}

/** The condensed text of a session's events, at most `max` characters (default: the cap for its size). */
export function condenseEvents(events: readonly MemoryEvent[], max?: number): string {
  const lines = linesOf(events);
  const cap = max ?? condensedCap(lines.reduce((n, l) => n + l.text.length + 1, 0));
  return clip(keepInformative(lines, cap).join('\n'), cap);
}

/** A user event that records a slash command (`/clear`, `/model opus`): said, but not a prompt. */
export function isSlashCommand(e: MemoryEvent): boolean {
  return e.kind === 'user' && 'command' in e && e.command === true;
}

/**
 * A prompt: a user event that opens a turn; not a slash command, nor a message typed while a turn ran
 * (Qwen Code's, taken into that turn). The same prompts as `read`'s numbering.
 */
function isPrompt(e: MemoryEvent): boolean {
  return e.kind === 'user' && !isSlashCommand(e) && !('midTurn' in e && e.midTurn === true);
}

export function countsOf(events: readonly MemoryEvent[]): SessionCounts {
  let prompts = 0;
  let turns = 0;
  let toolCalls = 0;
  for (const e of events) {
    if (isPrompt(e)) prompts++;
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

/**
 * The task for a name: the first prompt that is more than an acknowledgement; never a slash command (with
 * its arguments or not: `/model opus`, `/compact`), recorded as one or typed bare.
 */
export function taskOf(events: readonly MemoryEvent[], title?: string): string {
  for (const e of events) {
    if (!isPrompt(e) || !('text' in e) || !e.text) continue;
    const text = e.text.trim();
    if (/^\/\S+$/.test(text) || text.length < 4) continue;
    return text.replace(/^\/\S+\s+/, '').slice(0, 300);
  }
  return title ?? '';
}

/** Stored condensed text with a later part appended, capped: the start (the task) and the newest part stay. */
export function appendCondensed(before: string, added: string, max?: number): string {
  const joined = before && added ? `${before}\n${added}` : before || added;
  max ??= condensedCap(joined.length);
  if (joined.length <= max) return joined;
  const headRoom = Math.floor(max / 3);
  const head = before.slice(0, headRoom).replace(/\n[^\n]*$/, '');
  const tailRoom = max - head.length - 3;
  const tail = joined.slice(joined.length - tailRoom).replace(/^[^\n]*\n/, '');
  return `${head}\n…\n${tail}`;
}
