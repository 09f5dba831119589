#!/usr/bin/env node
// Draws the rare-word queries of issue 42 for `npm run bench -- search`: words that occur in one session
// only of ../shared/recap-corpus (anywhere in its text: every string of its records, prompts, answers,
// commands, tool input and output, file names; reasoning left out, as the index never holds it), said
// there at least twice, drawn by a seeded sample (at most PER_SESSION per session), and writes them to
// bench/search-rare-words.json (words and session names only, as search-queries.json holds). The halves
// are those of search-queries.json (A: tuned on, B: checked on); a session in neither goes to the half
// with fewer. Reproducible: `node bench/draw-rare-words.mjs` draws the same set from the same corpus.
// Besides them, words joined by `-` or `_` (names in code, flags, columns: kind `joined`) drawn the same way
// after them, so the rare words stay those drawn before.
// Knobs (env): RECAPWRAP_SHARED_DIR (default ../shared), RW_RARE_SEED (42), RW_RARE_PER_SESSION (3),
// RW_RARE_JOINED_PER_SESSION (2).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = process.env.RECAPWRAP_SHARED_DIR ?? resolve(REPO, '..', 'shared');
const CORPUS = join(SHARED, 'recap-corpus');
const SEED = Number(process.env.RW_RARE_SEED ?? 42);
const PER_SESSION = Number(process.env.RW_RARE_PER_SESSION ?? 3);
const JOINED_PER_SESSION = Number(process.env.RW_RARE_JOINED_PER_SESSION ?? 2);
const OUT = join(REPO, 'bench', 'search-rare-words.json');

if (!existsSync(CORPUS)) {
  console.log(`draw-rare-words: the corpus is absent (${CORPUS}); nothing drawn.`);
  process.exit(0);
}

// Reasoning (never indexed): these keys, and blocks of these types.
const REASONING_KEYS = new Set(['thinking', 'thoughts', 'signature', 'thinkingSignature', 'encrypted_content', 'reasoning', 'reasoning_content', 'reasoningContent']);
const REASONING_TYPES = new Set(['thinking', 'redacted_thinking', 'reasoning']);

function stringsOf(value, out) {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === 'object') {
    if (REASONING_TYPES.has(value.type) || value.thought === true) return;
    for (const [k, v] of Object.entries(value)) if (!REASONING_KEYS.has(k)) stringsOf(v, out);
  }
}

function recordsOf(text) {
  const first = text.split('\n', 1)[0].trim();
  // An older Gemini CLI file is one JSON document; the rest are JSON lines.
  if (first === '{') {
    try {
      return [JSON.parse(text)];
    } catch {
      return [];
    }
  }
  const out = [];
  for (const line of text.split('\n')) {
    try {
      if (line.trim()) out.push(JSON.parse(line));
    } catch {
      // a line that is not JSON: not a record
    }
  }
  return out;
}

// A word a person could remember and type: letters (digits after the first), 4 to 24 characters, not a
// hash or an id (hex with a digit, letters and digits flipping like random text).
const WORD = /\p{L}[\p{L}\p{N}]*/gu;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
// Random text (base64, generated ids) flips between cases far more often than a name in code does.
const looksRandom = (w) => {
  const letters = w.match(/\p{L}/gu)?.length ?? 0;
  const upper = w.match(/\p{Lu}/gu)?.length ?? 0;
  return w.length >= 10 && upper >= 3 && upper / letters >= 0.3 && (w.match(/\p{Ll}\p{Lu}/gu)?.length ?? 0) >= 3;
};
const isWord = (w) => w.length >= 4 && w.length <= 24 && !(/\d/.test(w) && /^[0-9a-f]+$/i.test(w)) && (w.match(/[a-z]\d|\d[a-z]/gi)?.length ?? 0) < 2 && !UNSPACED.test(w) && !looksRandom(w);
// Not text a person reads: terminal colour and cursor sequences in tool output (the ESC lost at times),
// uuids and hex runs with a digit (ids, hashes: their letter-only groups would count as words), base64
// runs (images, keys: 40 characters or more with no space), escapes written out in code (`\\nword`).
const NOISE = /\\+[nrt](?=[a-z])|[A-Za-z0-9+/]{40,}={0,2}|\x1b\[[0-9;?]*[A-Za-z]|\[[0-9;]{1,8}m|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<![\p{L}\p{N}])(?=[a-f]*\d)[0-9a-f]{7,}(?![\p{L}\p{N}])/giu;

// A word joined by `-` or `_` (a name in code, a flag, a column: `aws_lambda_function_name`, `max-old-space-size`),
// as grep users type them: 5 to 48 characters, a part of three letters at least, no part a hash, an id or a number of 5 digits or more.
const JOINED = /[\p{L}\p{N}]+(?:[-_]+[\p{L}\p{N}]+)+/gu;
const isJoined = (w) => {
  if (w.length < 5 || w.length > 48 || UNSPACED.test(w)) return false;
  const parts = w.split(/[-_]+/);
  return parts.some((p) => /\p{L}{3}/u.test(p)) && parts.every((p) => !/^\d{5,}$/.test(p) && !(/\d/.test(p) && /^[0-9a-f]{7,}$/i.test(p)) && (p.match(/[a-z]\d|\d[a-z]/gi)?.length ?? 0) < 2 && !looksRandom(p));
};
const sessions = [];
for (const agent of readdirSync(CORPUS).sort()) {
  const dir = join(CORPUS, agent);
  let files;
  try {
    files = readdirSync(dir).sort();
  } catch {
    continue;
  }
  for (const file of files) {
    const counts = new Map();
    const texts = [];
    for (const r of recordsOf(readFileSync(join(dir, file), 'utf8'))) stringsOf(r, texts);
    const joinedCounts = new Map();
    for (const t of texts) {
      const clean = t.replace(NOISE, ' ');
      for (const w of clean.match(WORD) ?? []) {
        if (!isWord(w)) continue;
        const lower = w.toLowerCase();
        counts.set(lower, (counts.get(lower) ?? 0) + 1);
      }
      for (const w of clean.match(JOINED) ?? []) {
        if (!isJoined(w)) continue;
        const lower = w.toLowerCase();
        joinedCounts.set(lower, (joinedCounts.get(lower) ?? 0) + 1);
      }
    }
    sessions.push({ base: `${agent}/${file}`, counts, joinedCounts });
  }
}
// In how many sessions each word occurs.
const df = new Map();
for (const s of sessions) for (const w of s.counts.keys()) df.set(w, (df.get(w) ?? 0) + 1);
const joinedDf = new Map();
for (const s of sessions) for (const w of s.joinedCounts.keys()) joinedDf.set(w, (joinedDf.get(w) ?? 0) + 1);

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(SEED);

const set = JSON.parse(readFileSync(join(REPO, 'bench', 'search-queries.json'), 'utf8'));
const halves = { A: [...set.halves.A], B: [...set.halves.B] };
const queries = [];
// A seeded partial shuffle of each session's words (one session's only, said twice): the first `per` of it.
const draw = (kind, countsOf, dfOf, per) => {
  for (const s of sessions) {
    const rare = [...countsOf(s)].filter(([w, n]) => dfOf.get(w) === 1 && n >= 2).map(([w]) => w).sort();
    if (rare.length === 0) continue;
    if (!halves.A.includes(s.base) && !halves.B.includes(s.base)) (halves.A.length <= halves.B.length ? halves.A : halves.B).push(s.base);
    for (let i = 0; i < Math.min(per, rare.length); i++) {
      const j = i + Math.floor(rand() * (rare.length - i));
      [rare[i], rare[j]] = [rare[j], rare[i]];
      queries.push({ query: rare[i], kind, expected: s.base });
    }
  }
};
draw('rare', (s) => s.counts, df, PER_SESSION);
// Joined words (issue 42 "words with joiners as typed"), drawn after the rare ones so those stay as they were drawn.
draw('joined', (s) => s.joinedCounts, joinedDf, JOINED_PER_SESSION);

writeFileSync(
  OUT,
  JSON.stringify(
    {
      about: `Rare-word queries over ../shared/recap-corpus for \`npm run bench -- search\` (issue 42), drawn by bench/draw-rare-words.mjs (seed ${SEED}, at most ${PER_SESSION} per session; kind joined: words joined by - or _, at most ${JOINED_PER_SESSION}): words that occur in one session only (any text of its records, reasoning left out), said there at least twice. \`expected\` is the session file. Halves by session, as search-queries.json's (tune on A, check on B). Words and names only; nothing else of the corpus is copied here.`,
      halves,
      queries,
    },
    null,
    1,
  ) + '\n',
);
console.log(`draw-rare-words: ${queries.length} queries from ${sessions.length} sessions written to ${OUT}`);
