// The card of a grown session read from its mark (a big one: the scan's read, the live wrapper's turn-end
// writes) against the card of a whole read, on the recap corpus in ../shared/recap-corpus/ (read here,
// never copied). Each JSON-lines session is cut before its last prompt, as if its last turn were appended
// after the index saw the rest: the row of the part before the cut, then tailWrite with the card made
// from the appended turn alone (window 0) or from it and the window before the cut (CARD_WINDOW_BYTES and
// other sizes). Printed per window: in how many sessions the card's line is the whole read's, and the
// development set's key facts (../shared/recap-eval/keys-dev.json) the line shows at 80 and 160 columns,
// against the whole read's. It times nothing; `RW_CARD_WINDOWS` ("0 16384 65536 262144 1048576") sets the
// sizes in bytes.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importInternals } from './lib/internals.mjs';
import { hits, visible } from './lib/recap-visible.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = process.env.RECAPWRAP_SHARED_DIR ?? resolve(REPO, '..', 'shared');
const CORPUS = join(SHARED, 'recap-corpus');
const KEYS_FILE = join(SHARED, 'recap-eval', 'keys-dev.json');
if (!existsSync(CORPUS) || !existsSync(KEYS_FILE)) {
  console.log(`card-window: the recap corpus is absent (${CORPUS}); nothing to compare.`);
  process.exit(0);
}
const m = await importInternals('card-window', ['transcripts/load.ts', 'app/memory/session-write.ts', 'app/recaps/recap-engine.ts', 'config/options-table.ts', 'util/text-width.ts']);
const KEYS = JSON.parse(readFileSync(KEYS_FILE, 'utf8'));
const WINDOWS = [...new Set((process.env.RW_CARD_WINDOWS ?? `0 16384 ${m.CARD_WINDOW_BYTES} 262144 1048576`).split(/\s+/).filter(Boolean).map(Number))].sort((a, b) => a - b);
const WIDTHS = [80, 160];
const work = mkdtempSync(join(tmpdir(), 'rw-card-window-'));
const options = { ...m.defaultOptions(), llm: false, generator: 'heuristic' };

// Each corpus session's whole-read write, and what is needed to make its grown rows.
const cases = [];
for (const agent of readdirSync(CORPUS).filter((a) => statSync(join(CORPUS, a)).isDirectory())) {
  for (const name of readdirSync(join(CORPUS, agent)).sort()) {
    const file = join(CORPUS, agent, name);
    const rel = `${agent}/${name}`;
    const engine = m.createEngine({ options, agent, env: {} });
    const prompts = async (from) => (await m.loadSessionTail(file, { agent, from, wholeFile: true }))?.snapshot.events.filter((e) => e.kind === 'user').length;
    const all = await prompts(0);
    if (all === undefined || all < 2) continue; // not JSON lines, or nothing before a last prompt
    // The last line start from which the tail still holds the last prompt: the cut.
    const buf = readFileSync(file);
    const starts = [0];
    for (let i = 0; i < buf.length - 1; i++) if (buf[i] === 0x0a) starts.push(i + 1);
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((await prompts(starts[mid])) >= 1) lo = mid;
      else hi = mid - 1;
    }
    const cut = starts[lo];
    const st = statSync(file);
    const size = { size: st.size, mtimeMs: st.mtimeMs };
    const whole = m.sessionWrite(await m.loadSessionFile(file, { agent, wholeFile: true }), engine, size);
    // The row before the cut, from a copy of the file's first part.
    const part = join(work, agent, String(cases.length), basename(file));
    mkdirSync(dirname(part), { recursive: true });
    writeFileSync(part, buf.subarray(0, cut));
    const before = m.sessionWrite(await m.loadSessionFile(part, { agent, wholeFile: true }), engine, { size: cut, mtimeMs: st.mtimeMs });
    const prev = { ...before, createdAt: new Date(before.createdAt ?? 0).toISOString(), transcript: file };
    const tail = await m.loadSessionTail(file, { agent, from: cut, wholeFile: true });
    cases.push({ rel, file, agent, engine, cut, size, whole, prev, tail });
  }
}
rmSync(work, { recursive: true, force: true });

const shown = (line, w) => visible(line, w, m.displayWidth).toLowerCase();
const rows = [];
for (const win of WINDOWS) {
  let same = 0;
  const facts = Object.fromEntries(WIDTHS.map((w) => [w, { whole: 0, grown: 0, of: 0 }]));
  for (const c of cases) {
    const card = win === 0 ? undefined : (await m.loadSessionTail(c.file, { agent: c.agent, from: Math.max(0, c.cut - win), wholeFile: true, midLine: true }))?.snapshot.events;
    const grown = m.tailWrite(c.prev, c.tail.snapshot, c.engine, c.size, c.prev.text, undefined, card);
    if (grown.line === c.whole.line) same++;
    const groups = KEYS[c.rel];
    if (!groups) continue;
    for (const w of WIDTHS) {
      const f = facts[w];
      f.of += groups.length;
      f.whole += hits(shown(c.whole.line, w), groups).filter(Boolean).length;
      f.grown += hits(shown(grown.line, w), groups).filter(Boolean).length;
    }
  }
  const label = win === 0 ? 'the appended turn alone' : `+ ${win / 1024} KB before it${win === m.CARD_WINDOW_BYTES ? ' (CARD_WINDOW_BYTES)' : ''}`;
  rows.push([label, `${same} of ${cases.length}`, ...WIDTHS.map((w) => `${facts[w].grown} / ${facts[w].whole} of ${facts[w].of}`)]);
}
const head = ['card made from', 'line = whole read', ...WIDTHS.map((w) => `key facts at ${w} cols (grown / whole)`)];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(`${cases.length} corpus sessions grown by their last turn (JSON lines, 2 prompts or more)`);
console.log([line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
