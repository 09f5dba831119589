// Recap engine cost (targets from issue 4): the heuristic (context builder + heuristic) on a 10,000-event
// session (< 10 ms), and the context builder on the session of a generated 100 MB pi transcript (loaded
// first; the load itself is the transcripts bench's figure; no target: printed for the record).
// Bundles the sources it times (bench/lib/internals.mjs). Knobs (env): RW_BENCH_TRANSCRIPT_MB (100), RW_BENCH_REPS (50).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importInternals } from './lib/internals.mjs';
import { generatePiTranscript } from './lib/pi-transcript.mjs';

const MB = Number(process.env.RW_BENCH_TRANSCRIPT_MB ?? 100);
const REPS = Number(process.env.RW_BENCH_REPS ?? 50);
const { buildContext, renderContext, heuristicRecap, loadSessionFile } = await importInternals('recap', ['recap/context.ts', 'recap/heuristic.ts', 'transcripts/load.ts']);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];
function time(fn) {
  for (let i = 0; i < 3; i++) fn();
  const ms = [];
  for (let i = 0; i < REPS; i++) {
    const t = performance.now();
    fn();
    ms.push(performance.now() - t);
  }
  return ms;
}
const rows = [];
const row = (what, value, target, ok) => rows.push({ what, value, target, verdict: ok === undefined ? '' : ok ? 'ok' : 'MISSED' });

// A 10,000-event session of the normalized shape, with edits, tests, errors and long texts.
const events = [];
for (let t = 0; events.length < 10_000; t++) {
  events.push({ kind: 'user', text: `step ${t}: ${'make the importer handle more formats '.repeat(4)}` });
  events.push({ kind: 'thinking', text: 'x'.repeat(800) });
  events.push({ kind: 'tool-call', name: 'edit', args: `path=src/f${t % 40}.ts old=… new=…`, paths: [`src/f${t % 40}.ts`], callId: `e${t}` });
  events.push({ kind: 'tool-result', ok: true, text: 'applied', callId: `e${t}` });
  events.push({ kind: 'tool-call', name: 'bash', args: 'npm test', command: 'npm test', paths: [], callId: `b${t}` });
  events.push({ kind: 'tool-result', ok: t % 5 !== 0, text: 'y'.repeat(900), callId: `b${t}` });
  events.push({ kind: 'assistant', text: `${'Done with this step. '.repeat(20)}Should I continue with the next format?` });
  events.push({ kind: 'turn-end' });
}
const session = { agent: 'pi', id: 'bench', file: '/bench.jsonl', cwd: '/bench', stamp: 'x', events };
const heur = time(() => heuristicRecap(buildContext(session)));
row(`heuristic recap, ${events.length} events: median`, `${median(heur).toFixed(2)} ms`, '< 10 ms', median(heur) < 10);
row(`heuristic recap, ${events.length} events: p95`, `${p95(heur).toFixed(2)} ms`, '', undefined);

const dir = mkdtempSync(join(tmpdir(), 'rw-bench-recap-'));
try {
  const file = join(dir, 'big.jsonl');
  const bytes = await generatePiTranscript(file, MB * 1024 * 1024);
  const t0 = performance.now();
  const big = await loadSessionFile(file, { agent: 'pi' });
  const loadMs = performance.now() - t0;
  const ctxMs = time(() => renderContext(buildContext(big)));
  const rendered = renderContext(buildContext(big));
  row(`load ${(bytes / 1048576).toFixed(0)} MB transcript (for reference)`, `${loadMs.toFixed(0)} ms, ${big.events.length} events`, '', undefined);
  // No target in the issue for this one: it runs once per session change, off the output path.
  row(`context builder + render on it: median`, `${median(ctxMs).toFixed(2)} ms`, '', undefined);
  row(`rendered context size`, `${rendered.length} chars`, '≤ 12,000', rendered.length <= 12_500);
  const all = time(() => heuristicRecap(buildContext(big)));
  row(`heuristic recap on it: median`, `${median(all).toFixed(2)} ms`, '', undefined);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const w = Math.max(...rows.map((r) => r.what.length));
for (const r of rows) console.log(`${r.what.padEnd(w)}  ${String(r.value).padEnd(28)} ${r.target.padEnd(10)} ${r.verdict}`);
