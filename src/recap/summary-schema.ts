/**
 * A model's session summary, checked: `{name, description, summary, tags, next}` as one JSON object,
 * found in the answer bare, inside a code fence, or among other text; validated with a zod schema that
 * rejects empty and placeholder values and normalizes the rest (kebab name, one-line texts within their
 * lengths, lowercase tags). Pure: no I/O. What happens on a rejection (another try) is the caller's.
 */
import { z } from 'zod';
import { SUMMARY_DESCRIPTION_MAX_CHARS, SUMMARY_NAME_MAX_CHARS, SUMMARY_NEXT_MAX_CHARS, SUMMARY_TAGS_MAX, SUMMARY_TEXT_MAX_CHARS } from './summary-prompt.js';

export interface ModelSummary {
  name: string;
  description: string;
  summary: string;
  tags: string[];
  next: string;
}

export type SummaryParse = { ok: true; value: ModelSummary } | { ok: false; error: string };

// Values a model writes when it copies the template instead of filling it in.
const PLACEHOLDERS = new Set(['', '...', '…', 'string', 'text', 'name', 'description', 'summary', 'tag', 'tags', 'next', 'n/a', 'na', 'null', 'undefined', 'todo', 'tbd', 'unknown', 'example', 'placeholder', 'lorem ipsum', 'xxx', 'foo', 'tag1', 'tag2', 'your-name', 'short-name', 'session-name', 'kebab-case-name']);

function isPlaceholder(value: string): boolean {
  const v = value.trim().toLowerCase().replace(/[.。!]+$/, '');
  return PLACEHOLDERS.has(v) || /^<[^<>]*>$/.test(v) || /^[.…\-_*?\s]*$/.test(v);
}

function oneLine(s: string): string {
  // Control characters out (a model's text is shown on terminals), whitespace runs to one space.
  return s.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Cut at a word boundary within `max` characters, with an ellipsis when cut. */
function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** A name as lowercase ASCII kebab-case within the name budget, whole words kept ('' when nothing is left). */
export function kebabName(raw: string, max: number = SUMMARY_NAME_MAX_CHARS): string {
  const words = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  let out = '';
  for (const w of words) {
    const next = out ? `${out}-${w}` : w;
    if (next.length > max) break;
    out = next;
  }
  return out || (words[0] ?? '').slice(0, max);
}

const text = (field: string, max: number) =>
  z
    .string({ error: `Expected "${field}" to be a string` })
    .transform(oneLine)
    .refine((v) => !isPlaceholder(v), { message: `Expected "${field}" to say something, got an empty or placeholder value` })
    .transform((v) => clip(v, max));

export const ModelSummarySchema = z.object({
  name: z
    .string({ error: 'Expected "name" to be a string' })
    .refine((v) => !isPlaceholder(v), { message: 'Expected "name" to say something, got an empty or placeholder value' })
    .transform((v) => kebabName(v))
    .refine((v) => v.length >= 2 && !isPlaceholder(v.replace(/-/g, ' ')), { message: 'Expected "name" to have letters or digits (kebab-case), got none' }),
  description: text('description', SUMMARY_DESCRIPTION_MAX_CHARS),
  summary: text('summary', SUMMARY_TEXT_MAX_CHARS),
  tags: z
    .array(z.string({ error: 'Expected every tag to be a string' }), { error: 'Expected "tags" to be an array of strings' })
    .transform((tags) => [...new Set(tags.map((t) => oneLine(t).replace(/^#+/, '').toLowerCase().replace(/\s+/g, '-')).filter((t) => !isPlaceholder(t) && t.length <= 40))].slice(0, SUMMARY_TAGS_MAX))
    .refine((tags) => tags.length > 0, { message: 'Expected "tags" to hold at least one real tag, got none' }),
  next: text('next', SUMMARY_NEXT_MAX_CHARS),
});

/** The JSON object in a model's answer: a fenced block first, else the outermost braces; reasoning dropped. */
export function extractJsonObject(output: string): string | undefined {
  const answer = output.replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, '');
  const fenced = [...answer.matchAll(/```[a-zA-Z]*[ \t]*\r?\n([\s\S]*?)```/g)].map((m) => (m[1] ?? '').trim()).find((b) => b.startsWith('{'));
  const body = fenced ?? answer;
  const open = body.indexOf('{');
  const close = body.lastIndexOf('}');
  return open >= 0 && close > open ? body.slice(open, close + 1) : undefined;
}

/** A model's answer as a checked summary, or why it is not one (one line, for the debug log). */
export function parseModelSummary(output: string): SummaryParse {
  const json = extractJsonObject(output);
  if (json === undefined) return { ok: false, error: 'Expected a JSON object in the answer, got none' };
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    return { ok: false, error: `Expected valid JSON, got ${(error as Error).message}` };
  }
  const result = ModelSummarySchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue?.path.length ? ` (at ${issue.path.join('.')})` : '';
    return { ok: false, error: `${issue?.message ?? 'Expected a summary object'}${where}` };
  }
  return { ok: true, value: result.data };
}
