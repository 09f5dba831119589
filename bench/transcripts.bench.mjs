// Transcript layer cost, printed as a table (targets from issues 3, 16 and 19):
//   append→event latency p50/p99 while a separate writer process appends pi entries (≤ 100 ms p99,
//   zero lost lines), with 30 % of the lines written in split parts; load time and peak RSS of
//   loadSessionFile on a generated pi transcript of RW_BENCH_TRANSCRIPT_MB with a compaction every 2,000
//   turns (≤ 1 s, ≤ 150 MB, the first prompt and every summary kept) in a fresh process; parse
//   throughput (MB/s) of line splitting + the pi parser on bytes already in memory; and a live follow of a
//   session of RW_BENCH_FOLLOW_ENTRIES small entries (tailer + parser with the tracker's limits + a
//   snapshot every 50 ms, as the tracker does) in a fresh process: peak RSS (≤ 150 MB) and the longest
//   event-loop stall (≤ 50 ms: the agent's output shares that loop).
// Bundles the sources it times (bench/lib/internals.mjs). Big files go to a temp dir and are deleted afterwards.
// Knobs (env): RW_BENCH_TAIL_LINES (600), RW_BENCH_TAIL_GAP_MS (20), RW_BENCH_TRANSCRIPT_MB (100), RW_BENCH_REPS (5),
// RW_BENCH_FOLLOW_ENTRIES (1000000).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleInternals } from './lib/internals.mjs';
import { generatePiTranscript as generate } from './lib/pi-transcript.mjs';
import { quantile, median } from './lib/stats.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const WRITER = join(REPO, 'test', 'fixtures', 'bin', 'tail-writer.mjs');
const TAIL_LINES = Number(process.env.RW_BENCH_TAIL_LINES ?? 600);
const TAIL_GAP_MS = Number(process.env.RW_BENCH_TAIL_GAP_MS ?? 20);
const TRANSCRIPT_MB = Number(process.env.RW_BENCH_TRANSCRIPT_MB ?? 100);
const REPS = Number(process.env.RW_BENCH_REPS ?? 5); // 5: single loads on a shared 2-core box ranged 0.7-1.1 s
const TARGET_P99_MS = 100;
const TARGET_LOAD_MS = 1000;
const TARGET_RSS_MB = 150;
const FOLLOW_ENTRIES = Number(process.env.RW_BENCH_FOLLOW_ENTRIES ?? 1_000_000);
const TARGET_STALL_MS = 50;
const COMPACT_EVERY = 2000;

// One bundle for this process and the fresh ones below (each imports it by URL).
const TRANSCRIPTS = await bundleInternals('transcripts', ['transcripts/load.ts', 'transcripts/tailer.ts', 'transcripts/line-reader.ts', 'transcripts/pi/parse.ts', 'transcripts/history.ts']);
const { FileTailer, createPiParser } = await import(TRANSCRIPTS);

const fmt = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
const rows = [];
const row = (what, value, target, ok) => rows.push({ what, value, target, verdict: ok === undefined ? '' : ok ? 'ok' : 'MISSED' });

const dir = mkdtempSync(join(tmpdir(), 'rw-bench-transcripts-'));
try {
  await latency();
  const file = join(dir, 'big.jsonl');
  const bytes = await generate(file, TRANSCRIPT_MB * 1024 * 1024, { compactEvery: COMPACT_EVERY });
  const loads = [];
  for (let i = 0; i < REPS; i++) loads.push(measureLoad(file));
  const loadMs = median(loads.map((l) => l.ms));
  const rssMb = Math.max(...loads.map((l) => l.maxRssKb)) / 1024;
  const l0 = loads[0];
  l0.compactions = Math.floor(l0.prompts / COMPACT_EVERY); // one after every COMPACT_EVERY-th turn
  row(`load ${fmt(bytes / 1048576, 0)} MB pi transcript (median of ${REPS})`, `${fmt(loadMs, 0)} ms (${l0.events} events)`, `≤ ${TARGET_LOAD_MS} ms`, loadMs <= TARGET_LOAD_MS);
  row('  peak RSS of that process', `${fmt(rssMb, 0)} MB`, `≤ ${TARGET_RSS_MB} MB`, rssMb <= TARGET_RSS_MB);
  const historyKept = l0.firstPrompt.startsWith('turn 0:') && l0.summaries === l0.compactions && l0.dropped === 0;
  row(`  history across ${l0.compactions} compactions`, `first prompt ${l0.firstPrompt.startsWith('turn 0:') ? 'kept' : 'LOST'}, ${l0.summaries} summaries, ${l0.prompts} prompts, ${l0.dropped} dropped`, 'all kept', historyKept);
  row('  load throughput', `${fmt(bytes / 1048576 / (loadMs / 1000), 0)} MB/s`, '', undefined);
  const parse = measureParse(file);
  row('parse throughput (in memory: lines + pi parser)', `${fmt(parse.mbPerS, 0)} MB/s`, '', undefined);
  rmSync(file, { force: true });
  const followFile = join(dir, 'follow.jsonl');
  const followBytes = await generateSmallEntries(followFile, FOLLOW_ENTRIES);
  const follow = measureFollow(followFile);
  row(`live follow of ${FOLLOW_ENTRIES.toLocaleString('en')} small entries (${fmt(followBytes / 1048576, 0)} MB)`, `${fmt(follow.ms, 0)} ms, ${follow.events} events kept, ${follow.dropped} dropped, first prompt ${follow.first === 'prompt 0' ? 'kept' : 'LOST'}`, '', follow.first === 'prompt 0');
  row('  peak RSS of that process', `${fmt(follow.maxRssKb / 1024, 0)} MB`, `≤ ${TARGET_RSS_MB} MB`, follow.maxRssKb / 1024 <= TARGET_RSS_MB);
  row('  longest event-loop stall', `${fmt(follow.maxStallMs, 0)} ms (p99 ${fmt(follow.p99StallMs, 0)} ms)`, `≤ ${TARGET_STALL_MS} ms`, follow.maxStallMs <= TARGET_STALL_MS);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const width = Math.max(...rows.map((r) => r.what.length));
const vwidth = Math.max(...rows.map((r) => r.value.length));
for (const r of rows) console.log(`${r.what.padEnd(width)}  ${r.value.padEnd(vwidth)}  ${r.target.padEnd(12)} ${r.verdict}`);
process.exit(rows.some((r) => r.verdict === 'MISSED') ? 1 : 0);

// A separate process appends pi entries stamped with their write time; each batch the tailer delivers is
// pushed through the pi parser and snapshotted, and each line's latency is snapshot time minus its stamp.
async function latency() {
  const file = join(dir, 'live.jsonl');
  const latencies = [];
  const seen = [];
  const follow = () => {
    const parser = createPiParser();
    const tailer = new FileTailer(file, {
      onLines: (lines) => {
        for (const line of lines) parser.push(line);
        parser.snapshot();
        const now = Date.now();
        for (const line of lines) {
          const m = /"n":(\d+),"t":(\d+)\}$/.exec(line);
          if (!m) continue;
          seen.push(Number(m[1]));
          latencies.push(now - Number(m[2]));
        }
      },
    });
    tailer.start();
    return tailer;
  };
  // Whole-line latency first (no splits), then the same with split writes for the loss count.
  for (const split of [0, 30]) {
    const before = seen.length;
    const tailer = follow();
    const child = spawn(process.execPath, [WRITER, '--file', file, '--pi', '--no-wait', '--lines', String(TAIL_LINES), '--split', String(split), '--gap-ms', String(TAIL_GAP_MS), '--seed', String(split + 1)], { stdio: ['ignore', 'ignore', 'inherit'] });
    await new Promise((r) => child.on('exit', r));
    const deadline = Date.now() + 5000;
    while (seen.length - before < TAIL_LINES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const got = seen.slice(before);
    const inOrder = got.every((n, i) => n === i);
    const lost = TAIL_LINES - new Set(got).size;
    const doubled = got.length - new Set(got).size;
    if (split === 0) {
      const l = latencies.slice(before);
      row(`append→event latency, ${TAIL_LINES} lines, gap 0–${TAIL_GAP_MS} ms`, `p50 ${fmt(quantile(l, 0.5))} ms, p99 ${fmt(quantile(l, 0.99))} ms`, `p99 ≤ ${TARGET_P99_MS} ms`, quantile(l, 0.99) <= TARGET_P99_MS);
    }
    row(`  lines lost / doubled${split ? ` (${split} % split writes)` : ''}`, `${lost} / ${doubled}${inOrder ? '' : ' (out of order)'}`, '0 / 0', lost === 0 && doubled === 0 && inOrder);
    await tailer.stop();
    rmSync(file, { force: true });
  }
}

// A pi v3 transcript of about `size` bytes: turns of user prompt, assistant thinking + text + tool call,
// a tool result of a few KB, and a final assistant text, chained by parentId.
// loadSessionFile in a fresh process: wall time and that process's peak RSS.
function measureLoad(file) {
  const code = `const { loadSessionFile } = await import(${JSON.stringify(TRANSCRIPTS)});
const t = performance.now();
const s = await loadSessionFile(${JSON.stringify(file)}, { agent: 'pi' });
const ms = performance.now() - t;
const prompts = s.events.filter((e) => e.kind === 'user');
process.stdout.write(JSON.stringify({ ms, events: s.events.length, skipped: s.skipped, dropped: s.dropped ?? 0, prompts: prompts.length, firstPrompt: prompts[0]?.text ?? '', summaries: s.events.filter((e) => e.kind === 'summary').length, maxRssKb: process.resourceUsage().maxRSS }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench/transcripts: expected the load process to exit 0, got ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// Line splitting + the pi parser on bytes already in memory (no disk), in a fresh process.
function measureParse(file) {
  const code = `import { readFileSync } from 'node:fs';
const { LineReader, createPiParser } = await import(${JSON.stringify(TRANSCRIPTS)});
const buf = readFileSync(${JSON.stringify(file)});
const t = performance.now();
const reader = new LineReader();
const parser = createPiParser();
const CHUNK = 1 << 20;
for (let i = 0; i < buf.length; i += CHUNK) for (const line of reader.push(buf.subarray(i, i + CHUNK))) parser.push(line);
parser.snapshot();
const s = (performance.now() - t) / 1000;
process.stdout.write(JSON.stringify({ mbPerS: buf.length / 1048576 / s }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench/transcripts: expected the parse process to exit 0, got ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// A pi session of `count` small entries (a prompt every 50, one-line answers otherwise), chained.
async function generateSmallEntries(file, count) {
  const out = createWriteStream(file);
  const ts = Date.parse('2026-11-22T08:00:00Z');
  const write = (obj) => (out.write(JSON.stringify(obj) + '\n') ? undefined : new Promise((r) => out.once('drain', r)));
  await write({ type: 'session', version: 3, id: 'follow', timestamp: new Date(ts).toISOString(), cwd: '/bench' });
  let parent = null;
  for (let i = 0; i < count; i++) {
    const id = `e${i.toString(16)}`;
    const message = i % 50 === 0 ? { role: 'user', content: [{ type: 'text', text: `prompt ${i}` }] } : { role: 'assistant', content: [{ type: 'text', text: `step ${i} done` }], stopReason: 'stop' };
    await write({ type: 'message', id, parentId: parent, timestamp: new Date(ts + i).toISOString(), message });
    parent = id;
  }
  await new Promise((r) => out.end(r));
  return statSync(file).size;
}

// What a live tracker does with that file, in a fresh process: tail it from the start, push every line
// through the pi parser with the tracker's limits, snapshot at most every 50 ms; event-loop delay sampled.
function measureFollow(file) {
  const code = `import { monitorEventLoopDelay } from 'node:perf_hooks';
const { FileTailer, createPiParser, LIVE_HISTORY_LIMITS } = await import(${JSON.stringify(TRANSCRIPTS)});
const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();
const t = performance.now();
const parser = createPiParser({ limits: LIVE_HISTORY_LIMITS });
let scheduled = false;
let last = 0;
const tailer = new FileTailer(${JSON.stringify(file)}, { onLines: (lines) => {
  for (const line of lines) parser.push(line);
  if (scheduled) return;
  scheduled = true;
  setTimeout(() => { scheduled = false; last = Date.now(); parser.snapshot(); }, Math.max(0, last + 50 - Date.now()));
} });
tailer.start();
await tailer.sync();
const s = parser.snapshot();
const ms = performance.now() - t;
delay.disable();
await tailer.stop();
process.stdout.write(JSON.stringify({ ms, events: s.events.length, dropped: s.dropped ?? 0, first: s.events.find((e) => e.kind === 'user')?.text, maxStallMs: delay.max / 1e6, p99StallMs: delay.percentile(99) / 1e6, maxRssKb: process.resourceUsage().maxRSS }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench/transcripts: expected the follow process to exit 0, got ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}
