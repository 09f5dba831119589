// Cost of the attention machinery on the agent's output path (#21): the boundary tracking every output
// chunk goes through while the bell/osc channels are on, for big repaint chunks and small spinner
// frames, and one decision of the rule machine. Bundles the sources it times (bench/lib/internals.mjs).
// End-to-end keystroke latency and idle CPU with it on are the `wrapper` bench's overlay rows (the live
// machinery, attention included, runs there with the default notify=auto).
import { importInternals } from './lib/internals.mjs';

const { BoundaryWriter, createAttentionMachine } = await importInternals('attention', ['display/boundary-writer.ts', 'display/attention.ts']);

const line = '\x1b[38;2;149;117;205m✦\x1b[0m \x1b[1mworking\x1b[22m on src/app.ts — 修正 🙂 ' + 'x'.repeat(40) + '\r\n';
const cases = [
  ['4 KB repaint chunk', Buffer.from(line.repeat(40)), 50_000],
  ['spinner frame', Buffer.from('\r\x1b[2K\x1b[36m⠋\x1b[0m thinking…'), 500_000],
  ['chunk ending mid-sequence', Buffer.from('abc\x1b[38;2;1'), 200_000],
];
const rows = [];
for (const [name, chunk, n] of cases) {
  const w = new BoundaryWriter(() => {});
  for (let i = 0; i < 2000; i++) w.observe(chunk);
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) w.observe(chunk);
  const ns = Number(process.hrtime.bigint() - t0) / n;
  rows.push([`boundary tracking per output chunk: ${name} (${chunk.length} B)`, `${ns.toFixed(0)} ns`, '<= 5 µs', ns <= 5000]);
}
{
  let now = 0;
  const m = createAttentionMachine({ minIntervalMs: 30_000, idleMs: 120_000, startedAt: 0 }, { now: () => now });
  const n = 200_000;
  const states = ['working', 'waiting', 'working', 'idle'];
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    now += 1000;
    if (i % 50 === 0) m.handle({ type: 'focus', focused: i % 100 === 0 });
    m.handle({ type: 'activity', state: states[i % 4], turn: `t${i >> 2}`, at: now });
  }
  const ns = Number(process.hrtime.bigint() - t0) / n;
  rows.push(['attention rule: one activity decision', `${ns.toFixed(0)} ns`, '<= 10 µs', ns <= 10_000]);
}
console.log('| metric | value | target | ok |\n|---|---|---|---|');
for (const [metric, value, target, ok] of rows) console.log(`| ${metric} | ${value} | ${target} | ${ok ? 'yes' : 'NO'} |`);
