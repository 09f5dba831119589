/**
 * Reading an agent's answer the way a person skims it: its prose sentences without code blocks, tables,
 * headings or markdown marks; which of them say what was done or found; which one asks the user
 * something. Pure string work, no I/O; used by the context builder (did the turn end on a question?) and
 * the heuristic (which words to show).
 */
import { sanitizeLine } from '../util/sanitize.js';

export interface Sentence {
  text: string;
  /** Index of the paragraph it came from (0 = first), and how many paragraphs the text had. */
  paragraph: number;
  paragraphs: number;
  /** Its position among all sentences of the text. */
  index: number;
  /** It opens a list (ends with a colon) or is a list item. */
  listIntro: boolean;
  listItem: boolean;
}

const CJK = /[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]/;
// Sentence ends: Latin punctuation followed by a space, or CJK full stops (no space needed).
const SENTENCE_END = /(?<=[.!?])\s+(?=[^\s])|(?<=[。！？])/u;

/** Markdown inline marks removed: bold/italic, code ticks, links kept as their text, images dropped. */
export function stripInlineMarkdown(text: string): string {
  return text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\[([^\]]+)\]\((?:[^()\s]|\([^)]*\))*\)/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/__([^_]+)__/g, '$1')
    .replace(/(^|[\s(])\*([^*\s][^*]*)\*(?=[\s).,;:!?]|$)/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\*\*/g, '')
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"');
}

// A line that is a heading: markdown #, a bold-only line, or a short line ending in a colon with no verb-ish content.
function isHeadingLine(line: string): boolean {
  if (/^#{1,6}\s/.test(line)) return true;
  if (/^\*\*[^*]+\*\*:?$/.test(line) && line.length <= 80) return true;
  if (/^(?:[-=_*]\s*){3,}$/.test(line)) return true;
  return false;
}

/** The prose of a text: paragraphs of plain lines, without code blocks, tables, headings or rules. */
export function proseParagraphs(text: string): Array<Array<{ line: string; item: boolean }>> {
  const out: Array<Array<{ line: string; item: boolean }>> = [];
  let para: Array<{ line: string; item: boolean }> = [];
  let fence = false;
  const flush = () => {
    if (para.length) out.push(para);
    para = [];
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) {
      fence = !fence;
      flush();
      continue;
    }
    if (fence) continue;
    if (!line) {
      flush();
      continue;
    }
    if (line.startsWith('|') || isHeadingLine(line)) {
      flush();
      continue;
    }
    const item = /^(?:[-*+•]\s+|\d{1,2}[.)]\s+|[a-z][.)]\s+|\([a-z0-9]\)\s+)/i.test(line);
    if (item) flush();
    const clean = line.replace(/^>\s*/, '').replace(/^(?:[-*+•]\s+|\d{1,2}[.)]\s+|[a-z][.)]\s+|\([a-z0-9]\)\s+)/i, '');
    para.push({ line: clean, item });
    if (item) flush();
  }
  flush();
  return out;
}

/** The sentences of a text's prose, in order. */
export function splitSentences(text: string): Sentence[] {
  const paras = proseParagraphs(text);
  const out: Sentence[] = [];
  paras.forEach((para, p) => {
    const joined = para.map((l) => l.line).join(CJK.test(para[0]?.line ?? '') ? '' : ' ');
    const item = para.some((l) => l.item);
    const parts = stripInlineMarkdown(joined).split(SENTENCE_END);
    for (const part of parts) {
      const s = sanitizeLine(part);
      if (s.length < 2) continue;
      out.push({ text: s, paragraph: p, paragraphs: paras.length, index: out.length, listIntro: /[:：]$/.test(s), listItem: item });
    }
  });
  return out;
}

export function isQuestion(s: string): boolean {
  return /[?？]["')\]]*$/.test(s);
}

// Offers of more help that do not ask anything specific ("Anything else?").
const GENERIC_OFFER = /\b(anything else|what else|something else|any(thing)? other|other questions|further (help|questions|changes)|help (you )?with (anything|something)|what would you like (me )?to do next|what('s| is) next|let me know if (you|there|anything))\b|还有什么|其他需要|还需要|他に何か|ほかに何か|다른 도움|más (ayuda|preguntas)|algo más/i;

export function isGenericOffer(s: string): boolean {
  return GENERIC_OFFER.test(s) && s.length < 120;
}

/**
 * The question the agent's text leaves the user with, if any: a question sentence (not a generic offer of
 * more help) in the text's last paragraphs, or a closing request to choose or confirm.
 */
export function findQuestion(text: string): Sentence | undefined {
  const list = splitSentences(text.length > 6000 ? text.slice(-6000) : text);
  if (!list.length) return undefined;
  // The window: the last three paragraphs that are not list items, and the list items among them
  // (a question is often followed by its options, or by a short note).
  const prose = [...new Set(list.filter((s) => !s.listItem).map((s) => s.paragraph))];
  const from = prose.length >= 3 ? (prose[prose.length - 3] as number) : 0;
  const tail = list.filter((s) => s.paragraph >= from);
  for (let i = tail.length - 1; i >= 0; i--) {
    const s = tail[i] as Sentence;
    if (isQuestion(s.text) && !isGenericOffer(s.text) && !s.listItem) return s;
  }
  // Questions asked as a list ("Could you tell me: 1. What …? 2. …?"): the intro and the first question.
  const introAt = tail.findIndex((s) => s.listIntro && !s.listItem);
  const firstItemQuestion = tail.find((s, i) => i > introAt && s.listItem && isQuestion(s.text));
  if (introAt >= 0 && firstItemQuestion) {
    const intro = tail[introAt] as Sentence;
    return { ...firstItemQuestion, text: `${intro.text} ${firstItemQuestion.text}`, listItem: false };
  }
  return [...tail].reverse().find((s) => !s.listItem && /^(please )?(choose|pick|confirm|tell me|let me know (which|whether|if))\b/i.test(s.text));
}
