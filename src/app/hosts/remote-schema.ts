/**
 * What a host answers is untrusted, like a transcript: its `--json` output is parsed with bounds (bytes,
 * items, characters), every item checked by a zod schema (a bad item is dropped and counted, never
 * passed on), every text sanitized to one line, what a session said masked for secrets before it is cut
 * (merge.ts then merges and ranks them). Pure.
 */
import { z } from 'zod';
import { AGENT_IDS } from '../../transcripts/types.js';
import { maskSecrets } from '../../memory/secrets.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { MAX_ANSWER_BYTES, MAX_ITEMS } from './merge.js';

export { MAX_ANSWER_BYTES, MAX_ITEMS };

const text = (max: number) => z.string().max(64 * 1024).transform((s) => sanitizeLine(s).slice(0, max));
const optText = (max: number) => text(max).optional().catch(undefined);
// What a session said (headline, snippet, summaries, done/next): its secrets masked before it is cut, as a
// transcript's are (a host's older recapwrap may have stored one); ids, names and paths stay as given.
const prose = (max: number) => z.string().max(64 * 1024).transform((s) => maskSecrets(sanitizeLine(s)).slice(0, max));
const optProse = (max: number) => prose(max).optional().catch(undefined);
const time = z.string().max(64).refine((s) => Number.isFinite(Date.parse(s)));
const count = z.number().int().min(0).max(1e9).catch(0);
const list = (max: number, items: number) => z.array(z.unknown()).max(100_000).transform((a) => a.slice(0, items).filter((x): x is string => typeof x === 'string').map((s) => maskSecrets(sanitizeLine(s)).slice(0, max))).catch([]);

export const remoteRowSchema = z.object({
  id: z.string().min(1).max(200).transform(sanitizeLine).refine((s) => s.length > 0),
  agent: z.enum(AGENT_IDS),
  cwd: text(4096).catch(''),
  cwdShown: optText(4096),
  project: text(200).catch(''),
  name: text(120).refine((s) => s.length > 0),
  title: optProse(500),
  headline: prose(500).catch(''),
  createdAt: time,
  updatedAt: time,
  transcript: text(4096).catch(''),
  transcriptExists: z.boolean().catch(true),
  model: optText(200),
  gitBranch: optText(200),
  counts: z.object({ prompts: count, turns: count, toolCalls: count }).catch({ prompts: 0, turns: 0, toolCalls: 0 }),
  status: text(40).catch('idle'),
  tags: list(60, 50),
  generator: z.object({ type: text(40), model: optText(200) }).catch({ type: 'heuristic' }),
  userNamed: z.boolean().catch(false),
  // Your own recap there (`note`) and the session it was forked from (an older recapwrap sends none).
  note: optProse(2000),
  noteAt: time.optional().catch(undefined),
  parent: optText(4096),
  parentName: optText(120),
});
export type RemoteRow = z.infer<typeof remoteRowSchema>;

export const remoteHitSchema = remoteRowSchema.extend({
  snippet: prose(2000).catch(''),
  score: z.number().finite().catch(0),
  // The query words the hit holds (an older recapwrap sends none).
  matched: list(200, 32),
});
export type RemoteHit = z.infer<typeof remoteHitSchema>;

export const remoteCardSchema = remoteRowSchema.extend({
  done: list(500, 50),
  next: list(500, 20),
  artifacts: z
    .array(z.object({ kind: text(20), label: prose(500), locator: prose(4096) }).catch({ kind: '', label: '', locator: '' }))
    .max(100_000)
    .transform((a) => a.filter((x) => x.kind !== '').slice(0, 200))
    .catch([]),
  line: prose(1000).catch(''),
  language: text(20).catch('en'),
  description: optProse(2000),
  summary: optProse(8000),
  children: z
    .array(z.object({ id: text(200), name: text(120), agent: text(40) }).catch({ id: '', name: '', agent: '' }))
    .max(100_000)
    .transform((a) => a.filter((x) => x.id !== '').slice(0, 50))
    .optional()
    .catch(undefined),
  latest: z.object({ headline: prose(500), line: prose(1000), generator: z.object({ type: text(40), model: optText(200) }).catch({ type: 'heuristic' }) }).optional().catch(undefined),
});
export type RemoteCard = z.infer<typeof remoteCardSchema>;

const ACTIVITY = ['working', 'waiting', 'idle', 'exited'] as const;
const nullableText = (max: number) => text(max).nullable().catch(null);
export const remoteLiveSchema = z.object({
  version: z.number().catch(1),
  pid: z.number().int().positive(),
  agent: nullableText(40),
  command: text(200).catch(''),
  cwd: text(4096),
  sessionFile: nullableText(4096),
  sessionId: nullableText(200),
  tmuxPane: z.string().max(40).regex(/^%\d+$/).nullable().catch(null),
  state: z.enum(ACTIVITY).catch('idle'),
  stateSince: time.catch(''),
  lastFocusAt: time.nullable().catch(null),
  lastRecap: z.object({ line: prose(1000), stamp: text(200).catch(''), createdAt: text(64).catch('') }).nullable().catch(null),
  attention: z.object({ event: z.enum(['waiting', 'done', 'error']), since: time }).nullable().optional().catch(null),
  socketPath: z.unknown().transform(() => null),
  startedAt: time.catch(''),
  updatedAt: time.catch(''),
});
export type RemoteLive = z.infer<typeof remoteLiveSchema>;

/** `dropped`: items that failed their schema; `beyond`: items past the MAX_ITEMS read (left unread). */
export type Parsed<T> = { ok: true; items: T[]; dropped: number; beyond?: number } | { ok: false; error: string };

function parseJson(textIn: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (textIn.length > MAX_ANSWER_BYTES) return { ok: false, error: 'answered more than 8 MB' };
  try {
    return { ok: true, value: JSON.parse(textIn) as unknown };
  } catch {
    return { ok: false, error: "answered something that is not recapwrap's JSON" };
  }
}

/** A host's JSON array, each item checked by `schema`; bad items dropped (counted). */
const isNoMatch = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v) && (v as { code?: unknown }).code === 1 && typeof (v as { error?: unknown }).error === 'string';

export function parseRemoteList<T>(textIn: string, schema: z.ZodType<T>): Parsed<T> {
  const json = parseJson(textIn);
  if (!json.ok) return json;
  // No match, said as a failure object (`{"error", "code": 1}`, with a "did you mean" suggestion): an empty list.
  if (isNoMatch(json.value)) return { ok: true, items: [], dropped: 0 };
  if (!Array.isArray(json.value)) return { ok: false, error: "answered something that is not recapwrap's JSON (not a list)" };
  const items: T[] = [];
  let dropped = 0;
  for (const raw of json.value.slice(0, MAX_ITEMS)) {
    const r = schema.safeParse(raw);
    if (r.success) items.push(r.data);
    else dropped++;
  }
  const beyond = Math.max(0, json.value.length - MAX_ITEMS);
  return { ok: true, items, dropped, ...(beyond ? { beyond } : {}) };
}

/** A host's one JSON object (a card), checked by `schema`. */
export function parseRemoteObject<T>(textIn: string, schema: z.ZodType<T>): { ok: true; item: T } | { ok: false; error: string } {
  const json = parseJson(textIn);
  if (!json.ok) return json;
  const r = schema.safeParse(json.value);
  return r.success ? { ok: true, item: r.data } : { ok: false, error: "answered a session that is not recapwrap's JSON" };
}

const remoteFailureSchema = z.object({
  error: text(300),
  code: z.number().int(),
  candidates: z.array(z.unknown()).max(100_000).transform((a) => a.slice(0, 20).filter((x): x is string => typeof x === 'string').map((x) => sanitizeLine(x).slice(0, 200))).catch([]),
});

/**
 * What a host's `show --json` prints when REF names no session there (code 1) or several (code 2, with
 * the candidates it listed), checked; undefined when the answer is not that (a card, or junk).
 */
export function parseRemoteFailure(textIn: string): { error: string; code: 1 | 2; candidates: string[] } | undefined {
  const json = parseJson(textIn);
  if (!json.ok || typeof json.value !== 'object' || json.value === null || Array.isArray(json.value) || !('error' in json.value)) return undefined;
  const r = remoteFailureSchema.safeParse(json.value);
  if (!r.success || (r.data.code !== 1 && r.data.code !== 2)) return undefined;
  return { error: r.data.error, code: r.data.code, candidates: r.data.candidates };
}
