/**
 * Pure: where in a session some words are (`read --at WORDS`, search's `turn`, MCP `around`): the anchor
 * of the first block whose text holds every word (case and accents ignored), else of the first holding
 * the most of them. Sub-agent blocks count as the call that started them.
 */
import type { Block, ReaderDocument } from './document.js';

function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words findAnchor looks for in a query, folded as it compares them (the assembler's `words` option). */
export function anchorWords(query: string): string[] {
  return fold(query).split(/[^\p{L}\p{N}_./-]+/u).filter((w) => w.length > 0);
}

/** Whether a text holds every one of some anchorWords, as findAnchor compares them (case and accents folded). */
export function holdsEvery(text: string, words: readonly string[]): boolean {
  const folded = fold(text);
  return words.length > 0 && words.every((w) => folded.includes(w));
}

/** Every text of a block a reader sees (prompt, answer, tool line, output, diff, summary). */
export function textOfBlock(b: Block): string {
  switch (b.kind) {
    case 'prompt':
    case 'answer':
    case 'thinking':
    case 'notice':
      return b.text;
    case 'compaction':
      return b.summary;
    case 'branch':
      return b.label;
    case 'tool':
      return [b.name, b.summary, b.output?.text ?? '', b.diff?.unified ?? '', ...(b.diffs ?? []).map((d) => d.unified), ...(b.children ?? []).map(textOfBlock)].join('\n');
    default:
      return b satisfies never;
  }
}

export interface AnchorHit {
  anchor: string;
  turn: number;
  /** The block holds every word (else: the most of them). */
  all: boolean;
}

/** The first block holding the words; undefined when none holds any of them (or no words were given). */
export function findAnchor(doc: ReaderDocument | readonly Block[], words: string): AnchorHit | undefined {
  const blocks = 'blocks' in doc ? doc.blocks : doc;
  const wanted = anchorWords(words);
  if (wanted.length === 0) return undefined;
  let best: { hit: AnchorHit; count: number } | undefined;
  for (const b of blocks) {
    const text = fold(textOfBlock(b));
    let count = 0;
    for (const w of wanted) if (text.includes(w)) count++;
    if (count === wanted.length) return { anchor: b.anchor, turn: b.turn, all: true };
    if (count > 0 && (!best || count > best.count)) best = { hit: { anchor: b.anchor, turn: b.turn, all: false }, count };
  }
  return best?.hit;
}
