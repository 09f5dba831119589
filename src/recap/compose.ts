/**
 * Composes a recap for the cells it is shown in: the text a user reads (no `recap:` label), fitted to a
 * width by priority so the state and the next step survive a narrow pane. Pure: every surface (overlay,
 * tmux, ls, board, status, `recap --width`) calls this with its own width; nothing here writes anywhere.
 */
import { sanitizeLine } from '../util/sanitize.js';
import { displayWidth, truncateToWidth } from '../util/text-width.js';
import type { Recap, RecapParts } from './types.js';

const LABEL = /^\s*recap:\s*/i;
const NEXT_MARK = ' Next: ';

/** The recap's text without its `recap:` label, sanitized, on one line. */
export function recapText(line: string): string {
  return sanitizeLine(line).replace(LABEL, '').trim();
}

// Cut to fit, ending with an ellipsis. A cut inside a Latin word backs up to the word's start (a single
// word longer than the room is cut hard); CJK text (no spaces) and cuts between words are not moved.
function cutAtWord(text: string, cells: number): string {
  if (displayWidth(text) <= cells) return text;
  // Cut right after a whole sentence: it ends as it is, with no ellipsis behind its full stop (`yet.…`).
  const sentence = /^(.*[.!?。！？])\s/su.exec(truncateToWidth(text, cells + 1, ''));
  if (sentence?.[1] && displayWidth(sentence[1]) >= cells * 0.75) return sentence[1];
  const hard = truncateToWidth(text, cells);
  const body = hard.slice(0, -1);
  const after = text.slice(body.length, body.length + 1);
  if (!/[\p{L}\p{N}_'’.-]$/u.test(body) || !/^[\p{L}\p{N}_'’.-]/u.test(after) || /[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]$/.test(body)) {
    return `${body.replace(/[\s,;:—-]+$/u, '')}…`;
  }
  const space = Math.max(body.lastIndexOf(' '), body.lastIndexOf('/'));
  if (space > 0) return `${body.slice(0, space).replace(/[\s,;:—/-]+$/u, '')}…`;
  return hard;
}

/**
 * Fit a recap line into `cells` cells. The part after ` Next: ` keeps priority over the part before it:
 * the head is shortened first, then the next step, never the `Next:` mark itself while there is room.
 */
export function fitRecapText(line: string, cells: number): string {
  const text = recapText(line);
  if (cells <= 0) return '';
  if (displayWidth(text) <= cells) return text;
  const at = text.indexOf(NEXT_MARK);
  if (at < 0) return cutAtWord(text, cells);
  const head = text.slice(0, at);
  const next = text.slice(at + 1);
  // Keep at least this much of the head (the state words), give the rest to the next step.
  const headMin = Math.min(displayWidth(head), Math.max(12, Math.floor(cells / 3)));
  const nextRoom = cells - headMin - 1;
  if (nextRoom < 12) return cutAtWord(head, cells);
  const nextText = cutAtWord(next, nextRoom);
  const headText = cutAtWord(head, cells - 1 - displayWidth(nextText));
  return `${headText} ${nextText}`;
}

// Each piece ends as a sentence (an ellipsis from a cut counts as an end).
function closed(text: string): string {
  return /[.!?。！？…]$/u.test(text) ? text : `${text}.`;
}

/** The parts as one line: `state — subject: outcome. Next: next.` (pieces left out when empty). */
export function renderParts(p: { state: string; subject?: string; outcome: readonly string[]; next?: string }): string {
  const head = p.subject ? `${p.state} — ${p.subject}` : p.state;
  const body = p.outcome.filter(Boolean).map(closed).join(' ');
  const main = body ? `${head}: ${body}` : closed(head);
  return p.next ? `${main} Next: ${closed(p.next)}` : main;
}

const SUBJECT_SEP = 3; // ' — '
const BODY_SEP = 2; // ': '
const NEXT_SEP = 7; // ' Next: '
const MIN_PIECE = 12;
const MIN_SUBJECT = 18;
const SHORT_SUBJECT = 20;

/**
 * Compose recap parts for `cells` cells by priority: the state always (cut only when nothing else fits),
 * then room for the next step (up to 40% of what is left, at least a readable start), then the best
 * outcome sentence, then the subject, then whatever room is left goes back to the next step, the first
 * outcome, and further outcome sentences. Every piece is cut at a word boundary with an ellipsis.
 */
export function composeParts(parts: RecapParts, cells: number): string {
  if (cells <= 0) return '';
  const state = sanitizeLine(parts.state);
  const subject = parts.subject ? sanitizeLine(parts.subject) : undefined;
  const outcome = parts.outcome.map(sanitizeLine).filter(Boolean);
  const next = sanitizeLine(parts.next);
  const full = renderParts({ state, subject, outcome, next });
  if (displayWidth(full) <= cells) return full;
  const w = (s: string) => displayWidth(s);
  const stateW = w(state) + 1;
  const nextFull = next ? w(next) + 1 : 0;
  // Too narrow for a next step: the state and what fits of the outcome.
  if (!next || cells < stateW + NEXT_SEP + Math.min(nextFull, 10)) {
    return cutAtWord(renderParts({ state, outcome: outcome.slice(0, 1) }), cells);
  }
  const budget = cells - stateW - NEXT_SEP;
  const want = (i: number) => w(outcome[i] as string) + 1 + (i === 0 ? BODY_SEP : 1);
  const subjectFull = subject ? w(subject) + SUBJECT_SEP : 0;
  // Shares of the room after the state: next step 35%, outcome 40%, subject 25%; a piece that cannot
  // get a readable minimum is left out and its share goes to the others; room left over goes to the
  // next step, then the outcome, then the subject, then further outcome sentences.
  const alloc = (withSubject: boolean) => {
    let rem = budget;
    const a = { next: 0, subject: 0, out: outcome.map(() => 0) };
    const take = (want: number, share: number) => {
      const got = Math.max(0, Math.min(want, share, rem));
      rem -= got;
      return got;
    };
    a.next = take(nextFull, Math.max(Math.min(nextFull, 16), Math.floor(budget * (withSubject ? 0.35 : 0.45))));
    // A short subject (a few words) is read whole before the outcome takes its share.
    const shortSubject = subjectFull <= SHORT_SUBJECT;
    if (withSubject && subject && shortSubject) a.subject = take(subjectFull, subjectFull);
    if (outcome.length) a.out[0] = take(want(0), Math.floor(budget * (withSubject ? 0.4 : 0.55)));
    if (withSubject && subject && !shortSubject) a.subject = take(subjectFull, Math.max(MIN_SUBJECT, Math.floor(budget * 0.25)));
    a.next += take(nextFull - a.next, rem);
    if (outcome.length) a.out[0] = (a.out[0] as number) + take(want(0) - (a.out[0] as number), rem);
    if (subject && withSubject) a.subject += take(subjectFull - a.subject, rem);
    for (let i = 1; i < outcome.length && rem >= MIN_PIECE; i++) a.out[i] = take(want(i), rem);
    return a;
  };
  // In a narrow line three cut pieces say less than two readable ones: the subject joins when there is
  // room for it (or it is short), or when there is no outcome to show.
  const roomForSubject = !outcome.length || budget >= 90 || subjectFull <= Math.max(SHORT_SUBJECT, Math.floor(budget * 0.3));
  let a = alloc(!!subject && roomForSubject);
  if (subject && a.subject < Math.min(MIN_SUBJECT, subjectFull)) a = alloc(false);
  if (outcome.length && (a.out[0] as number) < Math.min(MIN_PIECE, want(0))) a.out[0] = 0;
  const piece = (text: string, alloc: number, sep: number) => cutAtWord(text, Math.max(1, alloc - sep));
  const render = () =>
    renderParts({
      state,
      subject: a.subject ? piece(subject as string, a.subject, SUBJECT_SEP) : undefined,
      outcome: outcome.map((o, i) => ((a.out[i] ?? 0) > 0 ? piece(o, a.out[i] as number, i === 0 ? BODY_SEP + 1 : 2) : '')).filter(Boolean),
      next: piece(next, a.next, 1),
    });
  let text = render();
  // Cuts at word boundaries leave cells unused: give them back to the pieces that were cut.
  const grow = (get: () => number, set: (n: number) => void, full: number) => {
    const slack = cells - displayWidth(text);
    const base = get();
    if (slack < 1 || base <= 0 || base >= full) return;
    for (let add = slack; add > 0; add--) {
      set(base + add);
      const wider = render();
      if (displayWidth(wider) <= cells) {
        text = wider;
        return;
      }
    }
    set(base);
  };
  grow(() => a.next, (n) => (a.next = n), nextFull);
  if (outcome.length) grow(() => a.out[0] as number, (n) => (a.out[0] = n), want(0));
  grow(() => a.subject, (n) => (a.subject = n), subjectFull);
  for (let i = 1; i < outcome.length; i++) grow(() => a.out[i] as number, (n) => (a.out[i] = n), want(i));
  return displayWidth(text) <= cells ? text : cutAtWord(text, cells);
}

/**
 * The recap composed for `cells` cells of text (the caller adds its own label, if any): from its parts
 * when it has them (heuristic recaps), else its line fitted with the next step kept (model recaps).
 */
export function composeRecap(recap: Pick<Recap, 'line'> & { parts?: RecapParts }, cells: number): string {
  if (recap.parts) return composeParts(recap.parts, cells);
  const parts = partsFromLine(recap.line);
  return parts ? composeParts(parts, cells) : fitRecapText(recap.line, cells);
}

/**
 * The parts of a line written in the recap's own shape (`state — subject: outcome. Next: next.`, which
 * the heuristic writes and the model prompt asks for), so a surface that only has the line still
 * composes by priority; undefined when the line has another shape (it is then fitted as text).
 */
export function partsFromLine(line: string): RecapParts | undefined {
  const text = recapText(line);
  const at = text.lastIndexOf(NEXT_MARK);
  if (at < 0) return undefined;
  const head = text.slice(0, at).trim();
  const next = text.slice(at + NEXT_MARK.length).replace(/[.。]$/u, '').trim();
  const colon = head.indexOf(': ');
  const dot = /^[^:]{1,60}\.$/.test(head) ? head.length - 1 : -1;
  const end = colon > 0 ? colon : dot;
  if (end <= 0 || !next) return undefined;
  const lead = head.slice(0, end);
  const dash = lead.indexOf(' — ');
  const state = (dash > 0 ? lead.slice(0, dash) : lead).trim();
  // A state is a few words, not a sentence.
  if (!state || displayWidth(state) > 48 || state.split(' ').length > 8) return undefined;
  const subject = dash > 0 ? lead.slice(dash + 3).trim() : undefined;
  const outcome = colon > 0 ? head.slice(colon + 2).trim() : '';
  return { state, ...(subject ? { subject } : {}), outcome: outcome ? [outcome] : [], next };
}
