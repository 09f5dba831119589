/**
 * How a Recap prints: `line` (the recap text composed for the width it is printed in, no label), `card` (a short block for a session opened days later:
 * headline, what happened, next actions, artifacts) and `json` (the shared Recap shape).
 */
import { sanitizeLine, stringifyJsonSafely } from '../util/sanitize.js';
import { truncateToWidth } from '../util/text-width.js';
import { composeRecap } from './compose.js';
import { shortenPaths } from './paths.js';
import type { Recap } from './types.js';

export type RecapFormat = 'line' | 'card' | 'json';
export const RECAP_FORMATS: readonly RecapFormat[] = ['line', 'card', 'json'];

const STATUS_WORDS: Record<Recap['status'], string> = {
  working: 'working',
  waiting: 'waiting for you',
  idle: 'idle',
  aborted: 'interrupted',
  errored: 'stopped on an error',
  empty: 'empty',
};

// Every text of a card goes through sanitizeLine (session id, file, model and artifacts come from the transcript).
export function renderCard(recap: Recap, width = 100): string {
  const cut = (s: string) => truncateToWidth(s, Math.max(20, width));
  const t = (s: string | undefined) => sanitizeLine(s ?? '');
  const g = recap.generator;
  const gen = g.type === 'heuristic' || g.type === 'user_edited' ? g.type : 'own' in g ? `${t(g.agent)}'s own recap` : `${t(g.type)} · ${t(g.model)}`;
  const lines = [cut(t(recap.headline)), cut(`${t(recap.session.agent)} · ${STATUS_WORDS[recap.status] ?? t(recap.status)} · ${t(recap.session.id)}`), ''];
  lines.push(sanitizeLine(composeRecap(recap, Math.max(20, width))));
  if (recap.done.length) {
    lines.push('', 'What happened');
    for (const d of recap.done) lines.push(cut(`  • ${t(d)}`));
  }
  if (recap.next.length) {
    lines.push('', 'Next');
    for (const n of recap.next) lines.push(cut(`  • ${t(n)}`));
  }
  if (recap.artifacts.length) {
    lines.push('', 'Artifacts');
    // A file as its label: relative to the session's folder, `~` for a home (never another person's home path).
    for (const a of recap.artifacts) lines.push(cut(`  ${t(a.kind).padEnd(7)} ${t(a.kind === 'file' ? shortenPaths(a.label) : a.label)}`));
  }
  lines.push('', cut(`(${gen}; ${t(shortenPaths(recap.session.file))})`));
  // Anything else a transcript put in the card (a headline, an outcome) shows no home path either.
  return lines.map((l) => shortenPaths(l)).join('\n');
}

/** `width`: the cells the output is printed in (line and card; JSON is the full shape). */
export function formatRecap(recap: Recap, format: RecapFormat, width = 220): string {
  if (format === 'json') return stringifyJsonSafely(recap, 2);
  if (format === 'card') return renderCard(recap, width);
  return sanitizeLine(composeRecap(recap, width));
}
