/**
 * One parsed session as the index stores it: the heuristic card (never a model here; the agent's own recap
 * as its line while it is fresh), the condensed text,
 * counts, tags, name hints and the indexed-up-to mark. Shared by the scan and the live wrapper. Every text
 * of the session is masked for secrets first, before the card, title and condensed text cut anything.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { appendCondensed, condenseEvents, countsOf, tagsOf, taskOf, touched } from '../../memory/condense.js';
import { maskSecrets } from '../../memory/secrets.js';
import { VocabularyBuilder } from '../../memory/vocabulary.js';
import type { MemoryEvent, SessionWrite, StoredSession } from '../../memory/types.js';
import { freshOwnRecap, ownRecapGenerator, ownRecapLine } from '../../recap/own-recap.js';
import type { Recap } from '../../recap/types.js';
import type { loadSessionTail } from '../../transcripts/load.js';
import type { AgentId, Session, TranscriptEvent } from '../../transcripts/types.js';

const projectCache = new Map<string, string>();

/** The project a folder belongs to: the name of its git repository's top folder, else the folder's own name. */
export function projectOf(cwd: string): string {
  if (!cwd) return 'unknown';
  // A folder of another system (a Windows path read on Linux): its last part, no file system walk.
  if (!isAbsolute(cwd)) return cwd.split(/[\\/]/).filter(Boolean).pop() ?? cwd;
  const cached = projectCache.get(cwd);
  if (cached !== undefined) return cached;
  let dir = cwd;
  let found: string | undefined;
  for (let i = 0; i < 12; i++) {
    if (existsSync(join(dir, '.git'))) {
      found = basename(dir);
      break;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  const project = found || basename(cwd) || cwd;
  projectCache.set(cwd, project);
  return project;
}

/** What makes the card: the recap engine's heuristic (given the masked session, never the raw one). */
export interface CardMaker {
  heuristic(session: Session): Recap;
}

/**
 * The session with every text an event carries masked for secrets (issue #33: a token cut before it was
 * masked no longer fit its pattern and was stored). Only the cuts parsers make come before this; a token
 * start they leave at their `...` is masked too (secrets.ts).
 */
export function maskSession(session: Session): Session {
  const events = session.events.map(maskEvent);
  const masked: Session = { ...session, events };
  if (session.title !== undefined) masked.title = maskSecrets(session.title);
  return masked;
}

function maskEvent(e: TranscriptEvent): TranscriptEvent {
  switch (e.kind) {
    case 'tool-call': {
      const masked = { ...e, args: maskSecrets(e.args), paths: e.paths.map((p) => maskSecrets(p)) };
      if (e.command !== undefined) masked.command = maskSecrets(e.command);
      return masked;
    }
    case 'user':
    case 'assistant':
    case 'tool-result':
    case 'summary':
    case 'error':
    case 'title':
    case 'agent-recap':
      return { ...e, text: maskSecrets(e.text) };
    case 'aborted':
    case 'exit':
      return e.text === undefined ? e : { ...e, text: maskSecrets(e.text) };
    case 'thinking': // never stored, shown nor sent
    case 'turn-end':
    case 'model':
      return e;
    default:
      return e satisfies never;
  }
}

/**
 * A builder of a session's vocabulary to hand its loader (`onText`: every text of the file, whole); its
 * words go in the write. Without one, the write's words are those of the parsed events (their texts as
 * the parsers cut them), kept only for a row that has none yet (`wordsPartial`).
 */
export function vocabularyFor(): { onText: (text: string) => void; words: (said: string) => string } {
  const v = new VocabularyBuilder();
  // `said`: the condensed text (every word of it kept, however often said), given once the file is read.
  return { onText: (text) => v.add(text), words: (said) => (v.add(said, true), v.text()) };
}

/**
 * The builder for a file that grew from where its row's words hold every word (the scan reads it whole for
 * its card and text, but gives this only the texts after that point: `onText`): the words to add, those
 * of the new texts and of the condensed text's new lines (the prompts, answers and commands said once).
 */
export function grownVocabularyFor(prevText: string): { onText: (text: string) => void; words: (said: string) => string } {
  const v = new VocabularyBuilder();
  const before = new Set(prevText.split('\n'));
  return {
    onText: (text) => v.add(text),
    words: (said) => {
      const fresh = said.split('\n').filter((line) => !before.has(line));
      if (fresh.length > 0) v.add(fresh.join('\n'), true);
      return v.text();
    },
  };
}

// The words of a session's parsed events (no file read for them: a live tracker's snapshot).
function eventWords(session: Session): string {
  const v = new VocabularyBuilder();
  if (session.cwd) v.add(session.cwd, true);
  if (session.title) v.add(session.title, true);
  for (const e of session.events) {
    if (e.kind === 'tool-call') {
      v.add(e.args, true);
      if (e.command) v.add(e.command, true);
      for (const p of e.paths) v.add(p, true);
    } else if (e.kind !== 'thinking' && 'text' in e && typeof e.text === 'string') v.add(e.text, true);
  }
  return v.text();
}

/**
 * How far before a grown session's mark its card is read from, when only what was appended is read for
 * the rest (a big session: the scan's read, the live wrapper's turn-end writes). The card is made from
 * that window and the appended part, not from the appended part alone. Measured by
 * bench/card-window.bench.mjs (35 corpus sessions, each grown by its last turn): the card of the last
 * turn alone had the whole read's line in 20 and lost 2 of 39 development-set key facts at 80 columns
 * (4 at 160); with 64 KB before it, 28 had its line and none was lost. 256 KB made 31 of the same line
 * but lost one (the project named from less evidence) and doubled a 100 MB session's turn-end write
 * (p50 27 ms without a window, 55 ms with 256 KB).
 */
export const CARD_WINDOW_BYTES = 64 * 1024;

/**
 * The events a grown session's card is made from: CARD_WINDOW_BYTES before its mark `from`, up to the end
 * the appended part was read to (`tailEnd`: what the agent wrote since is left for the next read);
 * undefined when there is nothing before the mark or the file cannot be read so (then the card is the
 * appended part's).
 */
export async function cardWindow(load: typeof loadSessionTail, file: string, agent: AgentId, from: number, tailEnd: number): Promise<Session['events'] | undefined> {
  if (from <= 0) return undefined;
  const window = await load(file, { agent, from: Math.max(0, from - CARD_WINDOW_BYTES), until: tailEnd, wholeFile: true, midLine: true });
  return window?.end === tailEnd ? window.snapshot.events : undefined;
}

/** `cardEvents`: the events its card is made from (a grown session's window: cardWindow), else its own. */
export function sessionWrite(raw: Session, cards: CardMaker, file: { size: number; mtimeMs: number }, words?: (said: string) => string, cardEvents?: Session['events']): SessionWrite {
  const session = maskSession(raw);
  const carded = cardEvents ? maskSession({ ...raw, events: cardEvents }) : session;
  const recap = cards.heuristic(carded);
  const events = session.events as readonly MemoryEvent[];
  const { files, commands } = touched(events);
  const cwd = session.cwd ?? '';
  // Started = the earliest stamp, updated = the latest: a header's stamp can be later than its messages'.
  // In one loop: a big session has hundreds of thousands of stamps, too many for Math.min(...ts) (the
  // call's arguments overflow the stack: the first write of a 100 MB session threw).
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  const stamp = (t: number | undefined) => {
    if (typeof t !== 'number' || !Number.isFinite(t)) return;
    if (t < first) first = t;
    if (t > last) last = t;
  };
  stamp(session.startedAt);
  stamp(session.updatedAt);
  for (const e of session.events) stamp(e.ts);
  const stamped = first !== Number.POSITIVE_INFINITY;
  // The agent's own recap, when no turn followed it, is the card's line (#34).
  const own = freshOwnRecap(carded.events);
  const write: SessionWrite = {
    id: session.id,
    agent: session.agent,
    transcript: session.file,
    cwd,
    project: projectOf(cwd),
    headline: recap.headline,
    line: own ? ownRecapLine(own.text) : recap.line,
    createdAt: stamped ? first : undefined,
    updatedAt: stamped ? last : file.mtimeMs,
    // Every branch the file holds (pi's /tree, a rewind), as `read` numbers them: the one count a full read
    // and a grown file's appended part (tailWrite adds them) both make.
    counts: countsOf(session.offBranch ? [...events, ...(session.offBranch as readonly MemoryEvent[])] : events),
    status: recap.status,
    language: recap.language,
    tags: tagsOf(events),
    generator: own ? ownRecapGenerator(session.agent) : { type: 'heuristic' },
    done: recap.done,
    next: recap.next,
    artifacts: recap.artifacts,
    text: condenseEvents([...(session.title ? [{ kind: 'title', text: session.title }] : []), ...events]),
    nameHints: { task: taskOf(events, session.title), files, commands },
    mark: { size: file.size, mtimeMs: file.mtimeMs, entry: session.stamp },
  };
  if (words !== undefined) {
    write.words = words(write.text);
    // Made from the file's texts (the scan's builder): every word up to the size read.
    write.wordsAt = file.size;
  } else {
    write.words = eventWords(session);
    write.wordsPartial = true;
  }
  const title = session.title ?? firstLine(write.nameHints.task);
  if (title) write.title = title;
  if (session.model) write.model = session.model;
  if (session.gitBranch) write.gitBranch = session.gitBranch;
  if (session.parent) write.parent = session.parent;
  return write;
}

/**
 * The row of a session that grew, from the part appended after its mark (`tail`: those lines parsed
 * alone, `end`: the new mark): the stored row keeps what it knew (id, folder, first times, name, title),
 * gets the new part's card (the latest turns), added counts, merged tags and the new text appended to
 * `prevText`. The scan's read of a big grown file and the live wrapper's turn-end writes. `cardEvents`:
 * those the card is made from (cardWindow), else the appended part's.
 */
export function tailWrite(prev: StoredSession, tail: Session, cards: CardMaker, file: { size: number; mtimeMs: number }, prevText: string, words?: (said: string) => string, cardEvents?: Session['events']): SessionWrite {
  const session: Session = { ...tail, id: prev.id, cwd: prev.cwd, title: prev.title ?? tail.title, startedAt: Date.parse(prev.createdAt), file: prev.transcript };
  const write = sessionWrite(session, cards, file, words ?? (() => eventWords(maskSession(session))), cardEvents);
  // The appended part's words, added to the row's (a part of its own); those of the parsed events only
  // (the live wrapper's) do not hold every word of the part.
  write.wordsAppend = true;
  if (!words) delete write.wordsAt;
  delete write.wordsPartial;
  write.project = prev.project;
  write.counts = { prompts: prev.counts.prompts + write.counts.prompts, turns: prev.counts.turns + write.counts.turns, toolCalls: prev.counts.toolCalls + write.counts.toolCalls };
  write.text = appendCondensed(prevText, write.text);
  write.tags = [...new Set([...prev.tags, ...write.tags])].slice(0, 6);
  if (!write.model && prev.model) write.model = prev.model;
  if (!write.gitBranch && prev.gitBranch) write.gitBranch = prev.gitBranch;
  if (prev.title) write.title = prev.title;
  return write;
}

function firstLine(text: string): string | undefined {
  const line = text.split('\n')[0]?.trim();
  return line ? (line.length > 80 ? line.slice(0, 79) + '…' : line) : undefined;
}
