/**
 * Whether a model's recap says anything (#28 point 2): an answer of only punctuation or whitespace
 * ("…"), of only the labels, or an echo of the prompt's own instructions is no recap. The engine then
 * shows the heuristic's and caches nothing. Pure.
 */
import { buildContext } from './context.js';
import { buildPrompt, SYSTEM_PROMPT } from './prompt.js';

/** Placeholders of the prompt's template: a model that returns them has not written a recap. */
const TEMPLATE_PLACEHOLDERS = ['<state>', '<outcome>', '<the next step>'];
const LABELS = /\b(?:recap|next)\s*:/giu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Sentences shorter than this are too common to call an echo ("Next step."). */
const MIN_ECHO_CHARS = 16;

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

// The prompt's own words (its instructions, without any transcript), normalized once.
let instructionText: string | undefined;
function instructions(): string {
  instructionText ??= normalize(`${SYSTEM_PROMPT}\n${buildPrompt(buildContext({ agent: '', id: '', file: '', stamp: '', events: [] }))}`);
  return instructionText;
}

/** Why `text` is no recap, or undefined when it says something of its own. */
export function findMissingSubstance(text: string): string | undefined {
  const words = text.replace(LABELS, ' ');
  const letters = words.match(LETTER_OR_DIGIT)?.length ?? 0;
  if (letters < (CJK.test(words) ? 2 : 3)) return 'the answer had no content';
  const lower = text.toLowerCase();
  if (TEMPLATE_PLACEHOLDERS.some((p) => lower.includes(p))) return "the answer repeated the prompt's template";
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/u)
    .map(normalize)
    .filter((s) => s.replace(LABELS, '').trim().length >= MIN_ECHO_CHARS);
  if (sentences.length > 0 && sentences.every((s) => instructions().includes(s))) return "the answer repeated the prompt's instructions";
  return undefined;
}
