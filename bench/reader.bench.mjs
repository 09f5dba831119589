// `recapwrap read` cost (#41), paired with `node -e 0` measured in the same run:
//   `read FILE | head -50` on a generated ~100 MB session (pi's format, the shape of a real fixture:
//   prompt, thinking + text + bash call, its output, the answer per turn): ≤ node + 300 ms, which holds
//   only when the first screen is written before the whole file is read;
//   `read FILE --outline` of a 10,000-message session: ≤ 1 s.
// Runs the built CLI (`npm run build` first), with a private HOME (no index is opened for a file REF).
// Knobs (env): RW_BENCH_READER_MB (100), RW_BENCH_REPS (5).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatePiTranscript } from './lib/pi-transcript.mjs';
import { median } from './lib/stats.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(REPO, 'bin', 'recapwrap.js');
const MB = Number(process.env.RW_BENCH_READER_MB ?? 100);
const REPS = Number(process.env.RW_BENCH_REPS ?? 5);
const HEAD_OVER_NODE_MS = 300;
const OUTLINE_MS = 1000;
const OUTLINE_MESSAGES = 10_000;

const dir = mkdtempSync(join(tmpdir(), 'rw-bench-reader-'));
const q = (s) => `'${s.replace(/'/g, "'\\''")}'`;
const env = { ...process.env, HOME: dir, XDG_STATE_HOME: join(dir, 'state'), XDG_CONFIG_HOME: join(dir, 'config'), NO_COLOR: '1' };

// Wall time of a shell pipeline, in ms, and the CPU time (user + system) of its processes when
// /usr/bin/time is there: on a shared box the wall time grows with the load, the CPU time much less.
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
function wall(command) {
  const timed = TIME ? `${TIME} -f 'cpu %U %S' -o ${q(join(dir, 'cpu.txt'))} /bin/sh -c ${q(command)}` : command;
  const t = process.hrtime.bigint();
  const r = spawnSync('/bin/sh', ['-c', timed], { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${command} exited ${r.status}: ${r.stderr}`);
  let cpu = NaN;
  if (TIME) {
    const m = /cpu ([\d.]+) ([\d.]+)/.exec(readFileSync(join(dir, 'cpu.txt'), 'utf8'));
    if (m) cpu = (Number(m[1]) + Number(m[2])) * 1000;
  }
  return { ms, cpu, out: r.stdout.toString() };
}

try {
  const big = join(dir, 'big.jsonl');
  await generatePiTranscript(big, MB * 1024 * 1024);
  // 4 messages a turn (prompt, assistant with a call, result, answer): 2,500 turns.
  const outlined = join(dir, 'outline.jsonl');
  let size = 64 * 1024;
  for (;;) {
    await generatePiTranscript(outlined, size);
    const lines = wall(`wc -l < ${q(outlined)}`).out.trim();
    if (Number(lines) - 1 >= OUTLINE_MESSAGES) break;
    size = Math.ceil(size * Math.max(1.05, (OUTLINE_MESSAGES + 1) / Math.max(1, Number(lines) - 1)));
  }
  const messages = Number(wall(`wc -l < ${q(outlined)}`).out.trim()) - 1;
  const node = [];
  const head = [];
  const outline = [];
  const cpu = { node: [], head: [], outline: [] };
  let headLines = 0;
  let outlineLines = 0;
  // Alternating, so a slow moment of the shared box falls on both.
  for (let i = 0; i < REPS; i++) {
    const z = wall(`${q(process.execPath)} -e 0`);
    node.push(z.ms);
    cpu.node.push(z.cpu);
    const h = wall(`${q(process.execPath)} ${q(CLI)} read ${q(big)} | head -50`);
    head.push(h.ms);
    cpu.head.push(h.cpu);
    headLines = h.out.split('\n').length - 1;
    const o = wall(`${q(process.execPath)} ${q(CLI)} read ${q(outlined)} --outline`);
    outline.push(o.ms);
    cpu.outline.push(o.cpu);
    outlineLines = o.out.split('\n').length - 1;
  }
  const n = median(node);
  const h = median(head);
  const o = median(outline);
  const fmt = (x) => `${x.toFixed(0)} ms`;
  const rows = [
    ['node -e 0', fmt(n), '', ''],
    [`read FILE | head -50 (${(statSync(big).size / 1048576).toFixed(0)} MB, ${headLines} lines)`, fmt(h), `≤ node + ${HEAD_OVER_NODE_MS} ms (${fmt(n + HEAD_OVER_NODE_MS)})`, h <= n + HEAD_OVER_NODE_MS ? 'ok' : 'MISSED'],
    ['  over node', fmt(h - n), '', ''],
    [`read FILE --outline (${messages} messages, ${outlineLines} lines)`, fmt(o), `≤ ${OUTLINE_MS} ms`, o <= OUTLINE_MS ? 'ok' : 'MISSED'],
  ];
  const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) console.log(`${r[0].padEnd(w[0])}  ${r[1].padStart(w[1])}  ${r[2].padEnd(w[2])}  ${r[3]}`);
  if (TIME) console.log(`CPU (user + system, median): node -e 0 ${fmt(median(cpu.node))}, read | head -50 ${fmt(median(cpu.head))} (node + ${fmt(median(cpu.head) - median(cpu.node))}), outline ${fmt(median(cpu.outline))}`);
  console.log(`(median of ${REPS} runs each, alternating; node -e 0 runs: ${node.map((x) => x.toFixed(0)).join(', ')}; head: ${head.map((x) => x.toFixed(0)).join(', ')}; outline: ${outline.map((x) => x.toFixed(0)).join(', ')})`);
  if (h > n + HEAD_OVER_NODE_MS || o > OUTLINE_MS) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
