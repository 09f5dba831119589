/**
 * Pure: the file changes of an edit, write or patch tool call, in one form for every agent (ReaderDiff):
 * Claude Code Edit/MultiEdit/Write, pi edit/write, Codex apply_patch, Gemini CLI replace/write_file,
 * Qwen Code edit/write_file. Hunks of old/new strings come from the `diff` package; a Codex patch is
 * already hunks and is read as written. Texts are cleaned (clean.ts) before they are compared.
 */
import { structuredPatch } from 'diff';
import type { ReaderDiff } from './document.js';
import { cleanLine, cleanText } from './clean.js';
import type { WordGate } from './word-gate.js';

/** Longest old or new text compared (a write of a 5 MB file shows its first part). */
const DIFF_TEXT_MAX_CHARS = 200_000;
const PATH_KEYS = ['file_path', 'path', 'filePath', 'absolute_path', 'filename', 'file', 'target_file', 'notebook_path'] as const;
const EDIT_TOOLS = new Set(['edit', 'multiedit', 'multi_edit', 'replace', 'edit_file', 'str_replace_editor', 'str_replace_based_edit_tool', 'search_replace']);
const WRITE_TOOLS = new Set(['write', 'write_file', 'create_file']);
const PATCH_FILE = /^\*\*\* (Add|Update|Delete) File: (.+)$/;
const PATCH_MOVE = /^\*\*\* Move to: (.+)$/;

type Rec = Record<string, unknown>;

function asRecord(value: unknown): Rec | undefined {
  if (typeof value === 'string' && value.trimStart().startsWith('{')) {
    try {
      return asRecord(JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Rec) : undefined;
}

function str(rec: Rec | undefined, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = rec?.[k];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

function pathOf(rec: Rec | undefined): string | undefined {
  return str(rec, ...PATH_KEYS);
}

/**
 * The hunks turning `before` into `after`, as unified text with counts. With a gate (the assembler's
 * `words`) that says the diff cannot hold the words: no hunks, nothing compared.
 */
export function diffTexts(file: string, before: string, after: string, created = false, gate?: WordGate): ReaderDiff {
  if (gate?.diffCannotHold(before, after)) return { file: cleanLine(file), unified: '', added: 0, removed: 0, ...(created ? { created: true } : {}) };
  const old = cleanText(before, DIFF_TEXT_MAX_CHARS).text;
  const next = cleanText(after, DIFF_TEXT_MAX_CHARS).text;
  const patch = structuredPatch('a', 'b', old, next, '', '', { context: 3 });
  const lines: string[] = [];
  let added = 0;
  let removed = 0;
  for (const h of patch.hunks) {
    // An empty side starts before line 1 (`-0,0`), as diff(1) writes it.
    lines.push(`@@ -${h.oldLines === 0 ? h.oldStart - 1 : h.oldStart},${h.oldLines} +${h.newLines === 0 ? h.newStart - 1 : h.newStart},${h.newLines} @@`);
    for (const l of h.lines) {
      if (l.startsWith('\\')) continue; // "\ No newline at end of file"
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
      lines.push(l);
    }
  }
  return { file: cleanLine(file), unified: lines.join('\n'), added, removed, ...(created ? { created: true } : {}) };
}

/** The files a Codex-style patch (`*** Begin Patch` … `*** End Patch`) changes, each with its hunks (none where a gate says they cannot hold its words). */
export function diffsOfPatch(patch: string, gate?: WordGate): ReaderDiff[] {
  const diffs: ReaderDiff[] = [];
  let current: { file: string; kind: string; lines: string[]; added: number; removed: number } | undefined;
  const close = () => {
    if (!current) return;
    let unified = current.lines.join('\n');
    if (current.kind === 'Add') unified = `@@ -0,0 +1,${current.added} @@\n${unified}`;
    diffs.push({ file: cleanLine(current.file), unified: gate?.outputCannotHold(unified) ? '' : cleanText(unified, DIFF_TEXT_MAX_CHARS).text, added: current.added, removed: current.removed, ...(current.kind === 'Add' ? { created: true } : {}) });
    current = undefined;
  };
  for (const raw of patch.split(/\r?\n/)) {
    const file = PATCH_FILE.exec(raw);
    if (file) {
      close();
      current = { file: (file[2] as string).trim(), kind: file[1] as string, lines: [], added: 0, removed: 0 };
      continue;
    }
    if (!current) continue;
    const move = PATCH_MOVE.exec(raw);
    if (move) {
      current.file = `${current.file} → ${(move[1] as string).trim()}`;
      continue;
    }
    if (raw.startsWith('*** ')) {
      if (raw.startsWith('*** End')) close();
      continue;
    }
    if (raw.startsWith('@@')) current.lines.push(raw);
    else if (raw.startsWith('+')) {
      current.added++;
      current.lines.push(raw);
    } else if (raw.startsWith('-')) {
      current.removed++;
      current.lines.push(raw);
    } else if (raw.startsWith(' ') || raw === '') current.lines.push(raw.startsWith(' ') ? raw : ' ');
  }
  close();
  return diffs;
}

function patchTextOf(name: string, input: unknown): string | undefined {
  if (typeof input === 'string' && input.includes('*** Begin Patch')) return input;
  const rec = asRecord(input);
  const text = str(rec, 'input', 'patch');
  if (text && text.includes('*** Begin Patch')) return text;
  // Codex runs a patch through its shell tool too: `apply_patch <<'EOF' … EOF`, or ["apply_patch", patch].
  const command = rec?.command ?? rec?.cmd;
  if (Array.isArray(command)) {
    const found = command.find((c) => typeof c === 'string' && c.includes('*** Begin Patch'));
    if (typeof found === 'string') return found;
  } else if (typeof command === 'string' && command.includes('*** Begin Patch') && /apply_patch/.test(command)) return command;
  return name.toLowerCase() === 'apply_patch' && typeof input === 'string' ? input : undefined;
}

/**
 * The changes a tool call makes, from its arguments ([] for a call that changes no file or says nothing).
 * A gate (the assembler's `words`) leaves out the hunks that cannot hold its words; files and count stay.
 */
export function diffsOfToolCall(name: string, input: unknown, gate?: WordGate): ReaderDiff[] {
  const lower = name.toLowerCase();
  const patch = patchTextOf(name, input);
  if (patch) return diffsOfPatch(patch, gate);
  const rec = asRecord(input);
  if (!rec) return [];
  const file = pathOf(rec) ?? '(file)';
  if (WRITE_TOOLS.has(lower)) {
    const content = str(rec, 'content', 'file_text', 'text');
    return content === undefined ? [] : [diffTexts(file, '', content, true, gate)];
  }
  if (!EDIT_TOOLS.has(lower)) return [];
  if (Array.isArray(rec.edits)) {
    const olds: string[] = [];
    const news: string[] = [];
    for (const e of rec.edits) {
      const edit = asRecord(e);
      const before = str(edit, 'old_string', 'oldText', 'old_str', 'old');
      const after = str(edit, 'new_string', 'newText', 'new_str', 'new');
      if (before === undefined && after === undefined) continue;
      olds.push(before ?? '');
      news.push(after ?? '');
    }
    // Each edit is its own snippet of the file: one hunk per edit, in order.
    const parts = olds.map((o, i) => diffTexts(file, o, news[i] as string, false, gate));
    if (parts.length === 0) return [];
    return [{ file: cleanLine(file), unified: parts.map((p) => p.unified).filter(Boolean).join('\n'), added: parts.reduce((n, p) => n + p.added, 0), removed: parts.reduce((n, p) => n + p.removed, 0) }];
  }
  const before = str(rec, 'old_string', 'oldText', 'old_str', 'old');
  const after = str(rec, 'new_string', 'newText', 'new_str', 'new');
  if (before === undefined && after === undefined) {
    // str_replace_based_edit_tool's `create` command writes a whole file.
    const content = str(rec, 'file_text');
    return content === undefined ? [] : [diffTexts(file, '', content, true, gate)];
  }
  return [diffTexts(file, before ?? '', after ?? '', false, gate)];
}
