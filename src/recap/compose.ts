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
/** The fewest cells of a next step worth showing; with less room than that the line says no step. */
const MIN_NEXT = 10;
/** A next step longer than this gives the outcome up to OUTCOME_KEEP cells back (bench/quality: 160 cols). */
const NEXT_KEEP = 40;
const OUTCOME_KEEP = 30;
/** A subject this short (with its separator) is read first when there is no project label. */
const SHORT_SUBJECT = 30;
/** Below this many cells the project label gives its room to the state and the outcome. */
const LABEL_MIN_CELLS = 40;

/**
 * Compose recap parts for `cells` cells by priority: the project label and the state always (the label
 * left out below 40 cells, or when the next step would be whole without it and not with it; the state
 * cut only when nothing else fits), then the next step whole (it is what the user came back for: the docs promise
 * it survives a narrow pane, so the pieces before it give way first), then the best outcome sentence in
 * the cells left (left out below 12; a step over 40 cells gives it up to 30 back, keeping 40 of its own),
 * then the subject (the user's request in a few words; it takes the outcome's place when there is none,
 * and comes before it when short and there is no label), then further outcome sentences. Every piece is
 * cut at a word boundary with an ellipsis.
 */
export function composeParts(parts: RecapParts, cells: number): string {
  if (cells <= 0) return '';
  const state = sanitizeLine(parts.state);
  const subject = parts.subject ? sanitizeLine(parts.subject) : undefined;
  const outcome = parts.outcome.map(sanitizeLine).filter(Boolean);
  const next = sanitizeLine(parts.next ?? '');
  const w = (s: string) => displayWidth(s);
  const nextFull = next ? w(next) + 1 : 0;
  const headOf = (label: string | undefined) => (label ? w(label) + LABEL_SEP.length : 0) + w(state) + 1;
  // The step needs the head, its mark and a readable start of itself.
  const stepFits = (label: string | undefined) => cells >= headOf(label) + NEXT_SEP + Math.min(nextFull, MIN_NEXT);
  let label = parts.label && cells >= LABEL_MIN_CELLS ? sanitizeLine(parts.label) : undefined;
  const full = renderParts({ label, state, subject, outcome, next });
  if (displayWidth(full) <= cells) return full;
  // The label names the project, the step says what to do now: the label gives way to the step when
  // without it the step would be whole (or readable) and with it not.
  const stepWhole = (label: string | undefined) => cells >= headOf(label) + NEXT_SEP + nextFull;
  if (next && label && ((!stepWhole(label) && stepWhole(undefined)) || (!stepFits(label) && stepFits(undefined)))) label = undefined;
  // Too narrow for a next step: the head and what fits of the outcome.
  if (next && !stepFits(label)) {
    return cutAtWord(renderParts({ label, state, outcome: outcome.slice(0, 1) }), cells);
  }
  const headW = headOf(label);
  const budget = cells - headW - (next ? NEXT_SEP : 0);
  const want = (i: number) => w(outcome[i] as string) + 1 + (i === 0 ? BODY_SEP : 1);
  const subjectFull = subject ? w(subject) + SUBJECT_SEP : 0;
  let rem = budget;
  const a = { next: 0, subject: 0, out: outcome.map(() => 0) };
  const take = (want: number) => {
    const got = Math.max(0, Math.min(want, rem));
    rem -= got;
    return got;
  };
  // The step first, whole when it can be: the pieces before it give way to it, not it to them.
  if (next) a.next = take(nextFull);
  // Without an outcome the subject says what the work is: it takes the outcome's place.
  if (!outcome.length && subject) a.subject = take(subjectFull);
  // A long step (a question with all its options, a plan) gives the outcome a readable start back, never
  // going under a readable step of its own: past that length the step says less than the outcome would.
  const outcomeStart = outcome.length ? Math.min(OUTCOME_KEEP, want(0)) : 0;
  const back = Math.min(outcomeStart - rem, a.next - NEXT_KEEP);
  if (back > 0) {
    a.next -= back;
    rem += back;
  }
  if (outcome.length) {
    a.out[0] = take(want(0));
    // A stub of an outcome says nothing: its cells go back.
    if ((a.out[0] as number) < Math.min(MIN_PIECE, want(0))) {
      rem += a.out[0] as number;
      a.out[0] = 0;
    }
  }
  if (subject && !a.subject && rem >= Math.min(MIN_SUBJECT, subjectFull)) a.subject = take(subjectFull);
  // Without a project label a short subject (a few words) is what says what the work is about: it takes
  // its cells from the outcome's end.
  if (subject && !a.subject && !label && subjectFull <= SHORT_SUBJECT && (a.out[0] ?? 0) - subjectFull >= MIN_PIECE) {
    a.out[0] = (a.out[0] as number) - subjectFull;
    a.subject = subjectFull;
  }
  for (let i = 1; i < outcome.length && rem >= MIN_PIECE; i++) a.out[i] = take(want(i));
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
