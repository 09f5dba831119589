// Agent output stall while the control socket is flooded (#19 point 7), printed as a table: a wrapper
// runs an agent that prints a timestamped line every 5 ms; the bench notes how late each line reaches
// the outer terminal (arrival − print time), first with the socket idle, then while another process
// floods a stand-in server in a third process (the same CPU load, not the wrapper: on a busy machine
// much of the stall is just that), then while it sends 1,000,000 status requests to the wrapper (plus
// 100,000 on a connection that never reads its replies). Also the wrapper's RSS before and its peak
// during the flood, and the requests answered per second.
// Uses the BUILT CLI (bin/recapwrap.js -> dist/); run `npm run build` first.
// Knobs (env): RW_FLOOD_REQUESTS (1000000), RW_FLOOD_BASELINE_S (3).
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sleep, quantile } from './lib/stats.mjs';

const require = createRequire(import.meta.url);
const pty = require('node-pty');

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(REPO, 'bin', 'recapwrap.js');
const TICK_AGENT = join(REPO, 'bench', 'fixtures', 'tick-agent.mjs');
const FLOOD = join(REPO, 'bench', 'fixtures', 'socket-flood.mjs');
const STAND_IN = join(REPO, 'bench', 'fixtures', 'status-server.mjs');
const REQUESTS = Number(process.env.RW_FLOOD_REQUESTS ?? 1_000_000);
const BASELINE_MS = Number(process.env.RW_FLOOD_BASELINE_S ?? 3) * 1000;
/** The stall target: socket work may add a few milliseconds at most to the agent output's p99 delay. */
const TARGET_ADDED_P99_MS = 10;

if (!existsSync(join(REPO, 'dist', 'cli', 'main.cjs'))) {
  console.error('bench/socket-flood: build first (npm run build)');
  process.exit(1);
}

function memMb(pid, field) {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}
async function waitUntil(fn, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(20);
  }
}

const work = mkdtempSync(join(tmpdir(), 'rw-bench-flood-'));
const stateDir = join(work, 'state');
mkdirSync(join(work, 'cwd'));
const env = { ...process.env, RECAPWRAP_STATE_DIR: stateDir, PI_CODING_AGENT_DIR: join(work, 'pi'), TERM: 'xterm-256color' };
delete env.TMUX;
delete env.TMUX_PANE;
const term = pty.spawn(process.execPath, [CLI, '--agent', 'pi', '--display', 'none', '--', TICK_AGENT], { cols: 100, rows: 30, cwd: join(work, 'cwd'), env });
// Per phase, how late each tick line arrived.
let phase = 'warmup';
const delays = { warmup: [], idle: [], control: [], flood: [] };
let pending = '';
term.onData((data) => {
  const now = Date.now();
  pending += data;
  let nl;
  while ((nl = pending.indexOf('\n')) >= 0) {
    const m = /T(\d{13})/.exec(pending.slice(0, nl));
    pending = pending.slice(nl + 1);
    if (m) delays[phase].push(now - Number(m[1]));
  }
});
try {
  const socket = join(stateDir, 'sockets', `${term.pid}.sock`);
  await waitUntil(() => existsSync(socket), 20_000, 'the control socket');
  await sleep(1000);
  phase = 'idle';
  const rssBefore = memMb(term.pid, 'VmRSS');
  await sleep(BASELINE_MS);
  // Separate processes flood, so this one keeps reading the terminal (execFile, not execFileSync).
  // The flooding client runs at nice 19: its own CPU use is not what is measured.
  const runFlood = async (path) => JSON.parse((await promisify(execFile)('nice', ['-n', '19', process.execPath, FLOOD, path, String(REQUESTS)], { encoding: 'utf8', maxBuffer: 1 << 20 })).stdout.trim());
  const standInPath = join(work, 'stand-in.sock');
  const standIn = spawn(process.execPath, [STAND_IN, standInPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  standIn.on('error', () => {});
  await new Promise((r) => standIn.stdout.once('data', r));
  phase = 'control';
  const control = await runFlood(standInPath);
  standIn.kill();
  phase = 'warmup';
  await sleep(1000);
  phase = 'flood';
  const flood = await runFlood(socket);
  const peak = memMb(term.pid, 'VmHWM');
  phase = 'warmup';
  const row = (name, xs) => [name, xs.length, quantile(xs, 0.5), quantile(xs, 0.99), Math.max(...xs)];
  const table = [
    row('socket idle', delays.idle),
    row(`stand-in flooded (CPU load only), ${(control.ms / 1000).toFixed(0)} s`, delays.control),
    row(`wrapper socket flooded (${REQUESTS.toLocaleString('en')} req)`, delays.flood),
  ];
  console.log('agent output delay (line printed → line on the outer terminal), ms');
  console.log(['phase'.padEnd(44), 'lines'.padStart(7), 'p50'.padStart(6), 'p99'.padStart(6), 'max'.padStart(6)].join(' '));
  for (const [name, count, p50, p99, max] of table) console.log([name.padEnd(44), String(count).padStart(7), String(p50).padStart(6), String(p99).padStart(6), String(max).padStart(6)].join(' '));
  const floodP99 = quantile(delays.flood, 0.99);
  const added = floodP99 - quantile(delays.idle, 0.99);
  console.log(`flood: ${flood.sent.toLocaleString('en')} sent, ${flood.answered.toLocaleString('en')} answered in ${(flood.ms / 1000).toFixed(1)} s (${Math.round(flood.answered / (flood.ms / 1000)).toLocaleString('en')}/s)`);
  console.log(`wrapper RSS: ${rssBefore.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB during the flood`);
  // The machine's own scheduling noise is in every row: the figure that is the wrapper's is the p99 it adds.
  console.log(`agent output stall under flood: p99 ${floodP99} ms, max ${Math.max(...delays.flood)} ms; added over idle p99: ${added} ms (target ≤ ${TARGET_ADDED_P99_MS} ms): ${added <= TARGET_ADDED_P99_MS ? 'yes' : 'NO'}`);
} finally {
  term.write('q');
  await Promise.race([new Promise((r) => term.onExit(r)), sleep(5000)]);
  try {
    term.kill('SIGKILL');
  } catch {
    // Already gone.
  }
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
