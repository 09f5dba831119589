// Recap quality as a user sees it (issue 17): the development set in ../shared/recap-eval/ (hand-written
// key facts per session of ../shared/recap-corpus/), scored at 80 and 160 columns: the overlay's
// `✦ recap: ` label takes 9 cells, so the text gets W-9. A fact is hit when any of its alternatives
// appears in the visible text, case-insensitive. The naive baseline (last typed prompt's first 100
// characters + " — " + the last answer's last 120, whitespace folded) is cut the same way in the same
// run. This is the same definition as ../shared/recap-eval/score.py (the reference), run through the
// same CLI path (`recapwrap recap --format line --width W-9` of the BUILT code), so both agree.
// Scores are printed for the whole set and for each half of bench/quality-split.json (split by source).
// Knobs (env): RECAPWRAP_SHARED_DIR (default ../shared), RW_QUALITY_WIDTHS ("80 160"), RW_QUALITY_SHOW
// (A, B or none: whose misses to print; default all).
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importInternals } from './lib/internals.mjs';
import { hits, LABEL_CELLS, visible as visibleIn } from './lib/recap-visible.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = process.env.RECAPWRAP_SHARED_DIR ?? resolve(REPO, '..', 'shared');
const EVAL = join(SHARED, 'recap-eval');
const CORPUS = join(SHARED, 'recap-corpus');
const WIDTHS = (process.env.RW_QUALITY_WIDTHS ?? '80 160').split(/\s+/).filter(Boolean).map(Number);

if (!existsSync(join(EVAL, 'keys-dev.json')) || !existsSync(CORPUS)) {
  console.log(`quality: the development set is absent (${EVAL}); nothing to score.`);
  process.exit(0);
}
if (!existsSync(join(REPO, 'dist', 'cli', 'main.cjs'))) {
  console.error('bench/quality: build first (npm run build)');
  process.exit(1);
}
const { displayWidth } = await importInternals('quality', ['util/text-width.ts']);
const KEYS = JSON.parse(readFileSync(join(EVAL, 'keys-dev.json'), 'utf8'));
const CTRL = /[\x00-\x1f\x7f\x9b]/;
const visible = (line, w) => visibleIn(line, w, displayWidth);

// --- the naive baseline, per agent format (as score.py reads them) ---
const textOf = (c) => (typeof c === 'string' ? c : (Array.isArray(c) ? c : []).filter((x) => x && typeof x === 'object' && x.type === 'text').map((x) => x.text ?? '').join(' '));
function textsClaude(lines) {
  let u = '';
  let a = '';
  for (const d of lines) {
    const m = d.message ?? {};
    const c = m.content;
    if (d.type === 'user' && !d.isMeta && !d.isCompactSummary) {
      const s = textOf(c);
      if (s && !s.startsWith('<')) u = s;
    }
    if (d.type === 'assistant' && Array.isArray(c)) {
      const s = c.filter((x) => x?.type === 'text').map((x) => x.text ?? '').join(' ');
      if (s) a = s;
    }
  }
  return [u, a];
}
function textsCodex(lines) {
  let u = '';
  let a = '';
  for (const d of lines) {
    const p = d.payload ?? {};
    if (d.type === 'response_item' && p.type === 'message') {
      const s = (p.content ?? []).map((x) => x.text ?? '').join(' ');
      if (p.role === 'user' && !s.trimStart().startsWith('<')) u = s;
      if (p.role === 'assistant') a = s;
    }
  }
  return [u, a];
}
function textsPi(lines) {
  let u = '';
  let a = '';
  for (const d of lines) {
    const m = d.message ?? {};
    const s = textOf(m.content);
    if (m.role === 'user' && s) u = s;
    if (m.role === 'assistant' && s) a = s;
  }
  return [u, a];
}
function textsGemini(obj) {
  let u = '';
  let a = '';
  for (const m of obj.messages ?? []) {
    const c = m.content;
    const s = typeof c === 'string' ? c : (c ?? []).filter((x) => x && typeof x === 'object').map((x) => x.text ?? '').join(' ');
    if (m.type === 'user' && s) u = s;
    if (m.type === 'gemini' && s) a = s;
  }
  return [u, a];
}
function naiveTexts(file, rel) {
  if (rel.endsWith('.json')) return textsGemini(JSON.parse(readFileSync(file, 'utf8')));
  const lines = [];
  for (const l of readFileSync(file, 'utf8').split('\n')) {
    try {
      lines.push(JSON.parse(l));
    } catch {
      // Skip lines that are not JSON, as the reference does
    }
  }
  const fn = { claude: textsClaude, codex: textsCodex, pi: textsPi }[rel.split('/')[0]];
  return fn ? fn(lines) : ['', ''];
}
const cp = (s) => Array.from(s);
function naiveLine(file, rel) {
  const [u, a] = naiveTexts(file, rel);
  return `${cp(u).slice(0, 100).join('')} — ${cp(a).slice(-120).join('')}`.replace(/\s+/g, ' ');
}

function recapLine(file, w) {
  const r = spawnSync(process.execPath, [join(REPO, 'bin', 'recapwrap.js'), 'recap', '--session', file, '--generator', 'heuristic', '--format', 'line', '--width', String(w - LABEL_CELLS)], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

const files = Object.entries(KEYS).filter(([rel]) => existsSync(join(CORPUS, rel)));
const naive = new Map(files.map(([rel]) => [rel, naiveLine(join(CORPUS, rel), rel)]));

// The two halves by source (bench/quality-split.json): a rule tuned on one half is checked on the other.
const SPLIT = JSON.parse(readFileSync(join(REPO, 'bench', 'quality-split.json'), 'utf8')).halves;
const halfOf = new Map(Object.entries(SPLIT).flatMap(([half, sources]) => Object.values(sources).flat().map((rel) => [rel, half])));
const unsplit = files.map(([rel]) => rel).filter((rel) => !halfOf.has(rel));
if (unsplit.length) console.log(`quality: not in bench/quality-split.json (scored in "all" only): ${unsplit.join(', ')}`);
// RW_QUALITY_SHOW=A (or B, or none): print the misses of that half only (tune on one half, look only at it).
const SHOW = process.env.RW_QUALITY_SHOW ?? 'all';

const fmt = (n, d) => `${n}/${d} = ${(d ? n / d : 0).toFixed(2)}`;
const summary = [];
for (const w of WIDTHS) {
  const tally = new Map([['all', { hit: 0, nhit: 0, tot: 0 }], ...Object.keys(SPLIT).map((h) => [h, { hit: 0, nhit: 0, tot: 0 }])]);
  const broken = [];
  const misses = [];
  const t0 = performance.now();
  for (const [rel, groups] of files) {
    const rows = [tally.get('all'), tally.get(halfOf.get(rel))].filter(Boolean);
    const ngot = hits(visible(naive.get(rel), w).toLowerCase(), groups);
    const line = recapLine(join(CORPUS, rel), w);
    const ok = !!line && !CTRL.test(line);
    if (!ok) broken.push(rel);
    const shown = ok ? visible(line, w) : '';
    const got = ok ? hits(shown.toLowerCase(), groups) : groups.map(() => false);
    for (const t of rows) {
      t.tot += groups.length;
      t.nhit += ngot.filter(Boolean).length;
      t.hit += got.filter(Boolean).length;
    }
    const missed = groups.filter((_, i) => !got[i]).map((g) => g[0]);
    const nmissed = groups.filter((_, i) => !ngot[i]).map((g) => g[0]);
    const show = SHOW === 'all' || SHOW === halfOf.get(rel);
    if (show && (missed.length || nmissed.length)) misses.push(`  [${halfOf.get(rel) ?? '-'}] ${rel}: recap missed [${missed.join(', ')}]   naive missed [${nmissed.join(', ')}]\n    shown: ${shown}`);
  }
  const ms = performance.now() - t0;
  const all = tally.get('all');
  console.log(`width ${w}: recap ${fmt(all.hit, all.tot)}   naive baseline ${fmt(all.nhit, all.tot)}${broken.length ? `   broken: ${broken.join(', ')}` : ''}`);
  for (const h of Object.keys(SPLIT)) {
    const t = tally.get(h);
    console.log(`  half ${h}: recap ${fmt(t.hit, t.tot)}   naive baseline ${fmt(t.nhit, t.tot)}`);
  }
  for (const m of misses) console.log(m);
  const halves = Object.keys(SPLIT).map((h) => `${h} ${(tally.get(h).hit / Math.max(1, tally.get(h).tot)).toFixed(2)}/${(tally.get(h).nhit / Math.max(1, tally.get(h).tot)).toFixed(2)}`).join(', ');
  summary.push(`${w} cols: recap ${(all.hit / all.tot).toFixed(2)}, naive ${(all.nhit / all.tot).toFixed(2)} (halves recap/naive: ${halves})`);
  if (process.env.RW_QUALITY_TIMING) console.log(`  (${ms.toFixed(0)} ms)`);
}
console.log(`\nquality (dev set, ${files.length} sessions): ${summary.join('; ')}`);
