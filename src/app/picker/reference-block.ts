/**
 * Pure: the short reference block the picker pastes into an agent (and `resume` drafts when a session's
 * transcript is gone): the session's name, agent, folder, date, headline, what was done, what was next
 * and its transcript path, every field sanitized; and the bytes that paste it (one bracketed paste, never
 * a CR or Enter). Takes the memory card's fields structurally, so it needs nothing of the index itself.
 */
import { sanitizeLine } from '../../util/sanitize.js';

/** The card fields the block uses (SessionCard of app/memory/api.ts has them all). */
export interface ReferenceSource {
  id: string;
  name: string;
  agent: string;
  cwd: string;
  updatedAt: string;
  headline: string;
  done?: readonly string[];
  next?: readonly string[];
  transcript: string;
  transcriptExists?: boolean;
  /** `@@name~N`: the sessions it was forked from (parent first), summarized after it. */
  parents?: readonly Omit<ReferenceSource, 'parents'>[];
}

/** Bracketed paste (xterm ?2004): the agent takes what is between as typed text, never as keys. */
export const PASTE_BEGIN = '\x1b[200~';
export const PASTE_END = '\x1b[201~';
/** At most this many done/next items, each cut to MAX_ITEM_CHARS. */
const MAX_ITEMS = 3;
const MAX_ITEM_CHARS = 160;
const MAX_HEADLINE_CHARS = 200;

function cut(text: string, max: number): string {
  const clean = sanitizeLine(text);
  return clean.length <= max ? clean : clean.slice(0, max - 1).trimEnd() + '…';
}

// "2026-11-20 14:03 UTC" from an ISO date; the text as given when it is not one.
function formatDate(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return sanitizeLine(iso);
  return new Date(t).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

function items(list: readonly string[] | undefined): string {
  return (list ?? []).map((s) => cut(s, MAX_ITEM_CHARS)).filter(Boolean).slice(0, MAX_ITEMS).join('; ');
}

/** The block's lines (no trailing newline): plain text an agent reads as a pointer to an earlier session. */
export function formatReferenceBlock(s: ReferenceSource): string {
  const name = sanitizeLine(s.name) || sanitizeLine(s.id);
  const lines = [
    `Earlier session @@${name} (${sanitizeLine(s.agent)}, ${formatDate(s.updatedAt)})`,
    `folder: ${sanitizeLine(s.cwd)}`,
    `headline: ${cut(s.headline, MAX_HEADLINE_CHARS) || '(none)'}`,
  ];
  const done = items(s.done);
  const next = items(s.next);
  if (done) lines.push(`done: ${done}`);
  if (next) lines.push(`next: ${next}`);
  lines.push(`transcript: ${sanitizeLine(s.transcript)}${s.transcriptExists === false ? ' (gone)' : ''}`);
  for (const p of s.parents ?? []) {
    lines.push(`forked from @@${sanitizeLine(p.name) || sanitizeLine(p.id)} (${sanitizeLine(p.agent)}, ${formatDate(p.updatedAt)}): ${cut(p.headline, MAX_HEADLINE_CHARS) || '(none)'}`);
    const done = items(p.done);
    const next = items(p.next);
    if (done) lines.push(`parent done: ${done}`);
    if (next) lines.push(`parent next: ${next}`);
  }
  return lines.join('\n');
}

/**
 * The bytes that put text into the agent's input without submitting it. With bracketed paste on: one
 * paste, lines joined by LF (never CR, which an agent may take as Enter). Without it, a bare LF submits in
 * readline-style prompts (and Ctrl-J in others), so the text goes as one line, its lines joined by " | ".
 */
export function pasteBytes(text: string, bracketed: boolean): string {
  const lines = text.split(/\r\n|\r|\n/).map((l) => sanitizeLine(l));
  if (bracketed) return PASTE_BEGIN + lines.join('\n') + PASTE_END;
  return lines.filter(Boolean).join(' | ');
}
