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

/** The parts as one line: `label · state — subject: outcome. Next: next.` (pieces left out when empty). */
export function renderParts(p: { label?: string; state: string; subject?: string; outcome: readonly string[]; next?: string }): string {
  const lead = p.label ? `${p.label}${LABEL_SEP}${p.state}` : p.state;
  const head = p.subject ? `${lead} — ${p.subject}` : lead;
  const body = p.outcome.filter(Boolean).map(closed).join(' ');
  const main = body ? `${head}: ${body}` : closed(head);
  return p.next ? `${main} Next: ${closed(p.next)}` : main;
}

const LABEL_SEP = ' · ';
const SUBJECT_SEP = 3; // ' — '
const BODY_SEP = 2; // ': '
const NEXT_SEP = 7; // ' Next: '
const MIN_PIECE = 12;
const MIN_SUBJECT = 18;
const MIN_NEXT = 24;
/** The outcome's first share of the room when a next step follows (the rest of it comes after the step). */
const OUTCOME_SHARE = 0.8;
/** A subject this short (with its separator) is read first when there is no project label. */
const SHORT_SUBJECT = 30;
/** From this width on a question the user owes always keeps a readable start (a status line, a wide pane). */
const OWED_MIN_CELLS = 100;
/** Below this many cells the project label gives its room to the state and the outcome. */
const LABEL_MIN_CELLS = 40;

/**
 * Compose recap parts for `cells` cells by priority, in the order a person reads them: the project label
 * and the state always (the label left out below 40 cells, the state cut only when nothing else fits),
 * then the best outcome sentence, then the next step when one is worth saying (left out rather than cut
 * to a stub under 24 cells), then the subject (the user's request in a few words; it takes the outcome's
 * place when there is none, and comes before it when short and there is no label), then further outcome
 * sentences. Decided on the development set split by
 * source (bench/quality-split.json): giving the next step a fixed share first, or the subject one, helped
 * one half and not the other. Every piece is cut at a word boundary with an ellipsis.
 */
export function composeParts(parts: RecapParts, cells: number): string {
  if (cells <= 0) return '';
  const state = sanitizeLine(parts.state);
  const label = parts.label && cells >= LABEL_MIN_CELLS ? sanitizeLine(parts.label) : undefined;
  const subject = parts.subject ? sanitizeLine(parts.subject) : undefined;
  const outcome = parts.outcome.map(sanitizeLine).filter(Boolean);
  let next = sanitizeLine(parts.next ?? '');
  const full = renderParts({ label, state, subject, outcome, next });
  if (displayWidth(full) <= cells) return full;
  const w = (s: string) => displayWidth(s);
  const headW = (label ? w(label) + LABEL_SEP.length : 0) + w(state) + 1;
  const nextFull = next ? w(next) + 1 : 0;
  // Too narrow for a next step: the head and what fits of the outcome (or the subject).
  if (next && cells < headW + NEXT_SEP + Math.min(nextFull, 10)) {
    return cutAtWord(renderParts({ label, state, outcome: outcome.slice(0, 1) }), cells);
  }
  let budget = cells - headW - (next ? NEXT_SEP : 0);
  const want = (i: number) => w(outcome[i] as string) + 1 + (i === 0 ? BODY_SEP : 1);
  const subjectFull = subject ? w(subject) + SUBJECT_SEP : 0;
  // The head, the best outcome sentence and the next step all fit whole: each gets all it needs.
  const bothFit = !!next && outcome.length > 0 && w(renderParts({ label, state, outcome: outcome.slice(0, 1), next })) <= cells;
  const alloc = () => {
    let rem = budget;
    const a = { next: 0, subject: 0, out: outcome.map(() => 0) };
    const take = (want: number, share: number) => {
      const got = Math.max(0, Math.min(want, share, rem));
      rem -= got;
      return got;
    };
    // Without an outcome the subject says what the work is: it takes the outcome's place.
    if (!outcome.length && subject) a.subject = take(subjectFull, rem);
    if (outcome.length) a.out[0] = take(want(0), next && !bothFit ? Math.max(MIN_PIECE, Math.floor(budget * OUTCOME_SHARE)) : rem);
    // When both fit whole the step gets all of itself (the estimates above count a cell or two extra).
    if (next && bothFit) {
      rem = Math.max(0, rem - (nextFull - a.next));
      a.next = nextFull;
    } else if (next) a.next += take(nextFull - a.next, rem);
    if (outcome.length) a.out[0] = (a.out[0] as number) + take(want(0) - (a.out[0] as number), rem);
    if (subject && !a.subject && rem >= Math.min(MIN_SUBJECT, subjectFull)) a.subject = take(subjectFull, rem);
    // Without a project label a short subject (a few words) is what says what the work is about: it takes
    // its cells from the outcome's end.
    if (subject && !a.subject && !label && subjectFull <= SHORT_SUBJECT && (a.out[0] ?? 0) - subjectFull >= MIN_PIECE) {
      a.out[0] = (a.out[0] as number) - subjectFull;
      a.subject = subjectFull;
    }
    for (let i = 1; i < outcome.length && rem >= MIN_PIECE; i++) a.out[i] = take(want(i), rem);
    return a;
  };
  let a = alloc();
  if (outcome.length && (a.out[0] as number) < Math.min(MIN_PIECE, want(0))) a.out[0] = 0;
  // A next step cut to a stub says less than a readable outcome: without room it is left out.
  // A question the user owes keeps a readable start, taken from the outcome's end.
  if (next && parts.owed && cells >= OWED_MIN_CELLS && !bothFit && a.next < Math.min(nextFull, MIN_NEXT) && (a.out[0] ?? 0) - (Math.min(nextFull, MIN_NEXT) - a.next) >= MIN_PIECE) {
    a.out[0] = (a.out[0] as number) - (Math.min(nextFull, MIN_NEXT) - a.next);
    a.next = Math.min(nextFull, MIN_NEXT);
  }
  let dropped = '';
  if (next && !bothFit && a.next < Math.min(nextFull, MIN_NEXT) && outcome.length) {
    dropped = next;
    next = '';
    budget += NEXT_SEP;
    a = alloc();
  }
  if (subject && a.subject < Math.min(MIN_SUBJECT, subjectFull)) a.subject = 0;
  const piece = (text: string, alloc: number, sep: number) => cutAtWord(text, Math.max(1, alloc - sep));
  const render = () =>
    renderParts({
      label,
      state,
      subject: a.subject ? piece(subject as string, a.subject, SUBJECT_SEP) : undefined,
      outcome: outcome.map((o, i) => ((a.out[i] ?? 0) > 0 ? piece(o, a.out[i] as number, i === 0 ? BODY_SEP + 1 : 2) : '')).filter(Boolean),
      next: next ? piece(next, a.next, 1) : undefined,
    });
  let text = render();
  // The step was left out for pieces that did not need the room after all: it takes what is left.
  const slack = cells - displayWidth(text);
  if (dropped && slack >= NEXT_SEP + 8) {
    next = dropped;
    a.next = slack - NEXT_SEP;
    text = render();
  }
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
  if (next) grow(() => a.next, (n) => (a.next = n), nextFull);
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
  let lead = head.slice(0, end);
  // `label · state`: a project label of a few cells before the state.
  const labelAt = lead.indexOf(LABEL_SEP);
  const label = labelAt > 0 && displayWidth(lead.slice(0, labelAt)) <= 16 ? lead.slice(0, labelAt).trim() : undefined;
  if (label) lead = lead.slice(labelAt + LABEL_SEP.length);
  const dash = lead.indexOf(' — ');
  const state = (dash > 0 ? lead.slice(0, dash) : lead).trim();
  // A state is a few words, not a sentence.
  if (!state || displayWidth(state) > 48 || state.split(' ').length > 8) return undefined;
  const subject = dash > 0 ? lead.slice(dash + 3).trim() : undefined;
  const outcome = colon > 0 ? head.slice(colon + 2).trim() : '';
  // A line whose state waits for the user: its next step is what they owe.
  return { ...(label ? { label } : {}), state, ...(subject ? { subject } : {}), outcome: outcome ? [outcome] : [], next, ...(/^(stopped )?waiting for\b/.test(state) ? { owed: true } : {}) };
}
