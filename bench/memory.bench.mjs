// Session memory cost (issue #25), printed against its targets with baselines from the same run:
//   generates on the fly a home of RW_BENCH_SESSIONS sessions of all five agents in RW_BENCH_FOLDERS
//   folders (about RW_BENCH_GB of transcripts, each agent's real layout and line format:
//   bench/lib/agent-homes.mjs) in a temp folder, then with the BUILT CLI (HOME and the state folder
//   pointed there): the first `index` (time, peak RSS, progress shown on a terminal), `index` with nothing
//   changed, `index` after 10 sessions grew, `search WORD` and `sessions --limit 20` per call with process
//   start included, each paired with a `node -e 0` run just before it (the targets are over that: issue
//   #32 "Speed"), and their peak RSS, the database size against the transcript bytes, whether a word of
//   one later prompt finds its session in the top 3, what one turn-end write costs the wrapper's memory
//   worker (a small session, and a RW_BENCH_BIG_MB session read from its mark: issue #33 item 10), and
//   what a wrapper's turn-end writes cost the agent's output (keystroke -> echo p99 with memory on and off).
// Commands that do not exist yet print "not available" rows. The temp folder is removed afterwards.
// Uses the BUILT CLI (bin/recapwrap.js -> dist/); run `npm run build` first. Peak RSS from /usr/bin/time.
// Knobs (env): RW_BENCH_SESSIONS (10000), RW_BENCH_GB (3), RW_BENCH_FOLDERS (200), RW_BENCH_CALLS (20),
//   RW_BENCH_KEYS (1000), RW_BENCH_TURN_MS (250: how often the output-delay agent ends a turn),
//   RW_BENCH_WRITES (60: turn-end writes timed in-process), RW_BENCH_BIG_MB (100: the big session of the
//   turn-end write row), RW_BENCH_KEEP=1 (keep the temp home and print where), RW_BENCH_ONLY (index,query,delay),
//   RW_BENCH_MEMORY_OFF_ENV (RECAPWRAP_MEMORY: the env var set to false for the memory-off runs).
// Small size: `npm run bench -- memory --small` (or RW_BENCH_SIZE=small): 500 sessions, 0.1 GB, 20
//   folders, a 100 MB big session still; any knob above still wins. Nothing in the tests runs this bench.
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateHome } from './lib/agent-homes.mjs';
import { generatePiTranscript } from './lib/pi-transcript.mjs';
import { bundleInternals } from './lib/internals.mjs';
import { sleep, quantile, median } from './lib/stats.mjs';

const require = createRequire(import.meta.url);
const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(REPO, 'bin', 'recapwrap.js');
// Named pi.mjs so recapwrap pins its session file (`--session <file>`) as it does for pi itself.
const TURN_AGENT = join(REPO, 'bench', 'fixtures', 'turn-agent', 'pi.mjs');
const NODE = process.execPath;
const TIME = '/usr/bin/time';

const SMALL = process.argv.includes('--small') || process.env.RW_BENCH_SIZE === 'small';
const SESSIONS = Number(process.env.RW_BENCH_SESSIONS ?? (SMALL ? 500 : 10_000));
const GB = Number(process.env.RW_BENCH_GB ?? (SMALL ? 0.1 : 3));
const FOLDERS = Number(process.env.RW_BENCH_FOLDERS ?? (SMALL ? 20 : 200));
const CALLS = Number(process.env.RW_BENCH_CALLS ?? 20);
const KEYS = Number(process.env.RW_BENCH_KEYS ?? 1000);
const TURN_MS = Number(process.env.RW_BENCH_TURN_MS ?? 250);
const KEEP = process.env.RW_BENCH_KEEP === '1';
const ONLY = (process.env.RW_BENCH_ONLY ?? 'index,query,delay').split(',');
const GROWN = 10;
const ROUNDS = 4;
// The env var that turns session memory off for a wrapper (its value set to false), for the delay rows.
const WRITES = Number(process.env.RW_BENCH_WRITES ?? 60);
const BIG_MB = Number(process.env.RW_BENCH_BIG_MB ?? 100);
const MEMORY_OFF_ENV = process.env.RW_BENCH_MEMORY_OFF_ENV ?? 'RECAPWRAP_MEMORY';

// Targets (issue #25 "Speed and memory", issue #32 "Speed": the read and no-change times are over a
// `node -e 0` run paired with each call; issue #33 item 10: a big session's turn-end write).
const T = { firstIndexS: 90, firstIndexMb: 300, noChangeOverMs: 150, grownMs: 500, queryOverMs: 120, queryMb: 120, dbShare: 0.1, delayP99Ms: 1, bigWriteMs: 100, exitWaitMs: 4000 };

if (!existsSync(join(REPO, 'dist', 'cli', 'main.cjs'))) {
  console.error('bench/memory: build first (npm run build: the CLI runs from the bundle in dist/)');
  process.exit(1);
}
if (!existsSync(TIME)) {
  console.error(`bench/memory: needs ${TIME} (GNU time) for peak RSS`);
  process.exit(1);
}

const fmt = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const plain = (text) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
const mb = (bytes) => `${fmt(bytes / 1048576, 0)} MB`;

const rows = [];
const row = (metric, value, baseline, target, ok) => rows.push({ metric, value, baseline, target, ok: ok === undefined ? '' : ok ? 'yes' : 'NO' });
const missing = (metric, why, target = '') => rows.push({ metric, value: 'not available', baseline: why, target, ok: '' });

const work = mkdtempSync(join(tmpdir(), 'rw-bench-memory-'));
const home = join(work, 'home');
const state = join(work, 'state');
mkdirSync(home, { recursive: true });
mkdirSync(state, { recursive: true, mode: 0o700 });

// The CLI sees only the generated home: every agent's folder from HOME, none moved by the environment.
const env = { ...process.env, HOME: home, RECAPWRAP_STATE_DIR: state, XDG_CONFIG_HOME: join(work, 'config'), XDG_STATE_HOME: join(work, 'xdg-state'), XDG_CACHE_HOME: join(work, 'cache'), RECAPWRAP_LLM: 'false', NO_COLOR: '1' };
for (const name of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'GEMINI_CLI_HOME', 'PI_CODING_AGENT_DIR', 'PI_CODING_AGENT_SESSION_DIR', 'QWEN_HOME', 'QWEN_RUNTIME_DIR', 'TMUX', 'TMUX_PANE', 'RECAPWRAP_DEBUG_LOG']) delete env[name];

// One run of a command under GNU time: wall ms (process start included), peak RSS, output.
function timed(args, { file = NODE, input } = {}) {
  const rss = join(work, 'rss.txt');
  const t0 = performance.now();
  const r = spawnSync(TIME, ['-f', '%M %U %S', '-o', rss, file, ...args], { env, cwd: home, encoding: 'utf8', input, maxBuffer: 256 << 20 });
  const ms = performance.now() - t0;
  const [kb, user, sys] = readFileSync(rss, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  // cpuMs: user + system CPU time (10 ms steps): on a busy shared box it drifts far less than the wall time.
  return { ms, cpuMs: (user + sys) * 1000, rssMb: kb / 1024, status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}
const cli = (...args) => timed([CLI, ...args]);

// Which of the memory commands this build has (a name that is not one would wrap a program of that name).
const help = execFileSync(NODE, [CLI, '--help'], { env, encoding: 'utf8' });
const has = (name) => new RegExp(`^  ${name}\\b`, 'm').test(help);

function dbBytes() {
  let n = 0;
  for (const f of ['index.db', 'index.db-wal', 'index.db-shm']) {
    try {
      n += statSync(join(state, f)).size;
    } catch {}
  }
  return n;
}

// ---------------------------------------------------------------- the home
process.stdout.write(`generating ${SESSIONS} sessions, ~${GB} GB in ${FOLDERS} folders under ${work} …\n`);
const g0 = performance.now();
let lastShown = 0;
const gen = generateHome(home, {
  sessions: SESSIONS,
  bytes: GB * 1024 ** 3,
  folders: FOLDERS,
  onProgress: (done, bytes) => {
    if (performance.now() - lastShown > 5000) {
      lastShown = performance.now();
      process.stdout.write(`  ${done}/${SESSIONS} sessions, ${mb(bytes)}\n`);
    }
  },
});
const genS = (performance.now() - g0) / 1000;
const agents = Object.entries(gen.agentCounts).map(([a, n]) => `${a} ${n}`).join(', ');
row(`generated home (${agents})`, `${SESSIONS} sessions, ${mb(gen.total)}`, `${gen.folders} folders, ${fmt(genS, 0)} s to write`, '', undefined);

// ---------------------------------------------------------------- index
async function benchIndex() {
  if (!has('index')) {
    for (const m of ['first index', 'index, nothing changed', `index after ${GROWN} sessions grew`, 'database size']) missing(m, 'no `index` command in this build');
    return;
  }
  // The first index on a terminal (node-pty), so its progress display is seen; GNU time reports its peak RSS.
  const pty = require('node-pty');
  const rss = join(work, 'rss-first.txt');
  let out = '';
  const t0 = performance.now();
  const term = pty.spawn(TIME, ['-f', '%M %U %S', '-o', rss, NODE, CLI, 'index'], { name: 'xterm-256color', cols: 100, rows: 30, cwd: home, env });
  term.onData((d) => (out += d));
  const code = await new Promise((r) => term.onExit(({ exitCode }) => r(exitCode)));
  const firstS = (performance.now() - t0) / 1000;
  const [firstKb, firstUser, firstSys] = readFileSync(rss, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  const firstMb = firstKb / 1024;
  const updates = (out.match(/\r(?!\n)/g) ?? []).length;
  // CPU (user + system, every thread of the process): with worker threads it can pass the wall time.
  row(`first index of ${SESSIONS} sessions (${mb(gen.total)})`, `${fmt(firstS, 1)} s`, `exit ${code}; CPU ${fmt(firstUser + firstSys, 1)} s (user ${fmt(firstUser, 1)}, sys ${fmt(firstSys, 1)})`, `<= ${T.firstIndexS} s`, code === 0 && firstS <= T.firstIndexS);
  row('  peak RSS of that process', `${fmt(firstMb, 0)} MB`, '', `<= ${T.firstIndexMb} MB`, firstMb <= T.firstIndexMb);
  row('  progress shown on a terminal', updates > 0 ? `yes (${updates} redraws)` : 'no', plain(out).split(/[\r\n]/).map((l) => l.trim()).filter(Boolean).pop()?.slice(0, 60) ?? '', 'shown', updates > 0);

  // Each `index` paired with a `node -e 0` run just before it, as the reads below.
  const same = [];
  const sameNode = [];
  for (let i = 0; i < 7; i++) {
    sameNode.push(timed(['-e', '0']));
    same.push(cli('index'));
  }
  const sameOver = median(same.map((r, i) => r.ms - sameNode[i].ms));
  const sameCpu = median(same.map((r, i) => r.cpuMs - sameNode[i].cpuMs));
  row('index, nothing changed (median of 7)', `${fmt(median(same.map((r) => r.ms)))} ms`, `node -e 0: ${fmt(median(sameNode.map((r) => r.ms)))} ms; +${fmt(sameOver)} ms over it (paired; CPU +${fmt(sameCpu)} ms)`, `+<= ${T.noChangeOverMs} ms`, sameOver <= T.noChangeOverMs);

  const grown = [];
  const grownCpu = [];
  for (let rep = 0; rep < 3; rep++) {
    for (let k = 0; k < GROWN; k++) gen.grow((rep * 997 + k * 131) % gen.sessions.length);
    const r = cli('index');
    grown.push(r.ms);
    grownCpu.push(r.cpuMs);
  }
  row(`index after ${GROWN} sessions grew a turn (median of 3)`, `${fmt(median(grown))} ms`, `${fmt(Math.min(...grown))}-${fmt(Math.max(...grown))} ms; CPU ${fmt(median(grownCpu))} ms`, `<= ${T.grownMs} ms`, median(grown) <= T.grownMs);

  const db = dbBytes();
  row('database size (index.db + wal + shm)', mb(db), `${fmt((db / gen.total) * 100, 1)} % of ${mb(gen.total)} of transcripts`, `<= ${T.dbShare * 100} %`, db > 0 && db / gen.total <= T.dbShare);
}

// ---------------------------------------------------------------- search and sessions
function benchQuery() {
  // Each call is paired with a `node -e 0` run just before it: on a shared box the difference of the
  // pair (what the command adds to a bare Node start) drifts much less than either figure alone.
  const run = (label, args, check) => {
    const runs = [];
    const nodeRuns = [];
    for (let i = 0; i < CALLS; i++) {
      nodeRuns.push(timed(['-e', '0']));
      runs.push(cli(...args));
    }
    const node = nodeRuns.map((r) => r.ms);
    const bad = runs.find((r) => r.status !== 0);
    const p50 = median(runs.map((r) => r.ms));
    const over = median(runs.map((r, i) => r.ms - node[i]));
    const cpuOver = median(runs.map((r, i) => r.cpuMs - nodeRuns[i].cpuMs));
    const peak = Math.max(...runs.map((r) => r.rssMb));
    row(`${label} p50 of ${CALLS} (process start included)`, `${fmt(p50)} ms`, `node -e 0: ${fmt(median(node))} ms; +${fmt(over)} ms over it (paired; CPU +${fmt(cpuOver)} ms)${bad ? `; exit ${bad.status}: ${bad.stderr.trim().split('\n')[0]?.slice(0, 60)}` : ''}`, `+<= ${T.queryOverMs} ms`, !bad && over <= T.queryOverMs);
    row(`  peak RSS of ${label.split(' ')[0]}`, `${fmt(peak)} MB`, '', `<= ${T.queryMb} MB`, peak <= T.queryMb);
    if (check) check(runs[0]);
  };
  if (has('search')) {
    run(`search ${gen.common}`, ['search', gen.common]);
    run(`search ${gen.unique} --json`, ['search', gen.unique, '--json'], (r) => {
      let ids = [];
      try {
        ids = JSON.parse(r.stdout).map((h) => h.id);
      } catch {}
      const want = gen.uniqueSession;
      // Gemini files are named by the first 8 characters of the id; accept either form.
      const rank = ids.findIndex((id) => id === want.id || want.id.startsWith(id));
      row('  a word only a later prompt of one session holds', rank >= 0 ? `found at #${rank + 1}` : 'not found', `${want.agent} session ${want.id.slice(0, 8)}`, 'top 3', rank >= 0 && rank < 3);
    });
  } else missing('search WORD', 'no `search` command in this build', `+<= ${T.queryOverMs} ms`);
  if (has('sessions')) run('sessions --limit 20', ['sessions', '--limit', '20']);
  else missing('sessions --limit 20', 'no `sessions` command in this build', `+<= ${T.queryOverMs} ms`);
}

// ---------------------------------------------------------------- turn-end writes vs agent output delay
// Keystroke -> echo through `recapwrap --agent pi` around an agent that ends a turn every TURN_MS (so the
// wrapper's turn-end write runs that often), with session memory on and off, interleaved in halves.
async function measureEcho(extraEnv, dir) {
  const pty = require('node-pty');
  const e = { ...env, PI_CODING_AGENT_DIR: join(dir, 'pi'), RECAPWRAP_STATE_DIR: join(dir, 'state'), TURN_MS: String(TURN_MS), ...extraEnv };
  const term = pty.spawn(NODE, [CLI, '--agent', 'pi', '--display', 'none', '--generator', 'heuristic', '--', TURN_AGENT], { name: 'xterm-256color', cols: 80, rows: 24, cwd: dir, env: e, encoding: null });
  let buffer = '';
  term.onData((d) => (buffer += d.toString('latin1')));
  const deadline = Date.now() + 10_000;
  while (!buffer.includes('READY')) {
    if (Date.now() > deadline) throw new Error('bench/memory: the turn agent did not start');
    await sleep(20);
  }
  await sleep(TURN_MS * 2); // a couple of turn ends first
  const samples = [];
  for (let i = 0; i < KEYS / ROUNDS; i++) {
    const key = String.fromCharCode(97 + (i % 26));
    buffer = '';
    const t0 = performance.now();
    term.write(key);
    while (!buffer.includes(key)) await new Promise((r) => setImmediate(r));
    samples.push(performance.now() - t0);
    await sleep(3 + (i % 7)); // spread over the turn cycle
  }
  term.write('\x04');
  await new Promise((r) => {
    const t = setTimeout(() => {
      term.kill('SIGKILL');
      r();
    }, 3000);
    term.onExit(() => {
      clearTimeout(t);
      r();
    });
  });
  return samples;
}

async function benchDelay() {
  // How a wrapper is told to keep no session memory: the memory helper's option (see its env var).
  const offEnv = MEMORY_OFF_ENV ? { [MEMORY_OFF_ENV]: 'false' } : undefined;
  const on = [];
  const off = [];
  const dirOn = mkdtempSync(join(work, 'delay-on-'));
  const dirOff = mkdtempSync(join(work, 'delay-off-'));
  // Interleaved in quarters, the order swapped each time, so drift on a shared box hits both alike.
  for (let part = 0; part < ROUNDS; part++) {
    const runs = [() => measureEcho({}, dirOn).then((s) => on.push(...s)), () => (offEnv ? measureEcho(offEnv, dirOff).then((s) => off.push(...s)) : undefined)];
    for (const run of part % 2 ? runs.reverse() : runs) await run();
  }
  const wrote = existsSync(join(dirOn, 'state', 'index.db'));
  const [on50, on99] = [median(on), quantile(on, 0.99)];
  if (!offEnv || !wrote) {
    row(`keystroke->echo p50 | p99 under recapwrap, a turn end every ${TURN_MS} ms`, `${fmt(on50, 3)} | ${fmt(on99, 3)} ms`, wrote ? 'no memory-off switch found to compare with' : 'the wrapper wrote no index.db: turn-end writes not in this build', `+<= ${T.delayP99Ms} ms p99`, undefined);
    return;
  }
  const [off50, off99] = [median(off), quantile(off, 0.99)];
  row(`keystroke->echo p50 (memory off | on), a turn end every ${TURN_MS} ms`, `${fmt(off50, 3)} | ${fmt(on50, 3)} ms`, `+${fmt(on50 - off50, 3)} ms`, '', undefined);
  row(`keystroke->echo p99 (memory off | on), ${on.length} keys each`, `${fmt(off99, 3)} | ${fmt(on99, 3)} ms`, `+${fmt(on99 - off99, 3)} ms`, `+<= ${T.delayP99Ms} ms`, on99 - off99 <= T.delayP99Ms);
}
// The live writer, from the sources (the built wrapper runs it in its memory worker thread).
let liveWriter;
const loadLiveWriter = async () => (liveWriter ??= import(await bundleInternals('memory-write', ['app/memory/live-update.ts', 'transcripts/load.ts', 'config/options-table.ts'])));

// The time one turn-end write takes (SQLite is synchronous): the live writer on a pi session that grows
// a turn before each write. The built wrapper runs it in its memory worker thread, so this is the
// worker's time, not the output path's (the keystroke rows below measure that).
async function benchWriteCost() {
  const { openLiveMemory, loadSessionFile, defaultOptions } = await loadLiveWriter();
  const dir = mkdtempSync(join(work, 'write-'));
  const file = join(dir, 'pi', 'sessions', '--w--', '2026-11-25T10-00-00-000Z_bench-writes.jsonl');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ type: 'session', version: 3, id: 'bench-writes', timestamp: new Date().toISOString(), cwd: dir })}\n`);
  const live = await openLiveMemory({ env: { ...env, HOME: dir, RECAPWRAP_STATE_DIR: join(dir, 'state') }, options: defaultOptions(), cwd: dir });
  if ('error' in live) throw new Error(`bench/memory: ${live.error}`);
  const times = [];
  let parent = null;
  for (let turn = 0; turn < WRITES; turn++) {
    const entry = (message, i) => {
      const id = `t${turn}e${i}`;
      const line = JSON.stringify({ type: 'message', id, parentId: parent, timestamp: new Date().toISOString(), message: { ...message, timestamp: Date.now() } });
      parent = id;
      return line;
    };
    appendFileSync(file, [
      entry({ role: 'user', content: [{ type: 'text', text: `turn ${turn}: check the ledger import for rounding errors in src/ledger/import-${turn}.ts` }] }, 0),
      entry({ role: 'assistant', content: [{ type: 'text', text: 'Running the tests.' }, { type: 'toolCall', id: `c${turn}`, name: 'bash', arguments: { command: 'npm test' } }], stopReason: 'toolUse' }, 1),
      entry({ role: 'toolResult', toolCallId: `c${turn}`, toolName: 'bash', content: [{ type: 'text', text: 'ok 42 tests\n'.repeat(200) }], isError: false }, 2),
      entry({ role: 'assistant', content: [{ type: 'text', text: `Turn ${turn} done: all 42 tests pass after the fix in src/ledger/import-${turn}.ts. Next: ship it.` }], stopReason: 'stop' }, 3),
    ].join('\n') + '\n');
    const session = await loadSessionFile(file, { agent: 'pi' });
    const t0 = performance.now();
    await live.write(session, false);
    times.push(performance.now() - t0);
  }
  live.close();
  const first = times.shift();
  row(`one turn-end write (${WRITES} turns; the first, opening the index: ${fmt(first, 1)} ms)`, `p50 ${fmt(median(times), 2)} | p99 ${fmt(quantile(times, 0.99), 2)} | max ${fmt(Math.max(...times), 2)} ms`, 'in the wrapper\'s memory worker thread', '', undefined);
}

// A turn-end write of a big session as the memory worker makes it (the session file handed over): the
// row is brought up to date from its mark, so it costs what the last turn wrote, not the file's size.
// The first write (no row yet) reads the file whole; then a turn is appended before each write; the last
// is the exit's (final), which the wrapper waits for at most 4 s.
async function benchBigWrite() {
  const { openLiveMemory, defaultOptions } = await loadLiveWriter();
  const dir = mkdtempSync(join(work, 'big-'));
  const file = join(dir, 'pi', 'sessions', '--bench--', '2026-11-22T08-00-00-000Z_bench.jsonl');
  mkdirSync(dirname(file), { recursive: true });
  const bytes = await generatePiTranscript(file, BIG_MB * 1048576);
  const live = await openLiveMemory({ env: { ...env, HOME: dir, RECAPWRAP_STATE_DIR: join(dir, 'state') }, options: defaultOptions(), cwd: dir });
  if ('error' in live) throw new Error(`bench/memory: ${live.error}`);
  const t0 = performance.now();
  await live.writeFile(file, 'pi', false);
  const firstS = (performance.now() - t0) / 1000;
  // The last entry's id (the chain goes on from it), from the file's last 64 KB.
  const fd = openSync(file, 'r');
  const tailBuf = Buffer.alloc(65536);
  const got = readSync(fd, tailBuf, 0, tailBuf.length, Math.max(0, bytes - tailBuf.length));
  closeSync(fd);
  let parent = JSON.parse(tailBuf.subarray(0, got).toString('utf8').trimEnd().split('\n').pop()).id;
  const times = [];
  const turns = 10;
  for (let turn = 0; turn < turns; turn++) {
    const entry = (message, i) => {
      const id = `big${turn}e${i}`;
      const line = JSON.stringify({ type: 'message', id, parentId: parent, timestamp: new Date().toISOString(), message: { ...message, timestamp: Date.now() } });
      parent = id;
      return line;
    };
    appendFileSync(file, [
      entry({ role: 'user', content: [{ type: 'text', text: `turn ${turn}: now check the rounding of src/ledger/import-${turn}.ts` }] }, 0),
      entry({ role: 'assistant', content: [{ type: 'text', text: 'Running the tests.' }, { type: 'toolCall', id: `bc${turn}`, name: 'bash', arguments: { command: 'npm test' } }], stopReason: 'toolUse' }, 1),
      entry({ role: 'toolResult', toolCallId: `bc${turn}`, toolName: 'bash', content: [{ type: 'text', text: 'ok 42 tests\n'.repeat(200) }], isError: false }, 2),
      entry({ role: 'assistant', content: [{ type: 'text', text: `Turn ${turn} done. Next: ship it.` }], stopReason: 'stop' }, 3),
    ].join('\n') + '\n');
    const t = performance.now();
    await live.writeFile(file, 'pi', turn === turns - 1);
    times.push(performance.now() - t);
  }
  live.close();
  const exitMs = times[times.length - 1];
  const turnEnds = times.slice(0, -1);
  row(`one turn-end write of a ${mb(bytes)} session (${turns - 1} turns; the first, no row yet, read whole: ${fmt(firstS, 1)} s)`, `p50 ${fmt(median(turnEnds), 1)} | max ${fmt(Math.max(...turnEnds), 1)} ms`, 'from the row\'s mark, in the memory worker', `<= ${T.bigWriteMs} ms`, median(turnEnds) <= T.bigWriteMs);
  row('  its exit write (the last turn, final)', `${fmt(exitMs, 1)} ms`, 'the wrapper waits for it at most 4 s', `<= ${T.exitWaitMs} ms`, exitMs <= T.exitWaitMs);
}

try {
  if (ONLY.includes('index')) await benchIndex();
  else if (has('index')) cli('index');
  if (ONLY.includes('query')) benchQuery();
  if (ONLY.includes('delay')) {
    await benchWriteCost();
    await benchBigWrite();
    await benchDelay();
  }
} finally {
  if (KEEP) process.stdout.write(`kept ${work} (RW_BENCH_KEEP=1)\n`);
  else rmSync(work, { recursive: true, force: true });
}

const cols = ['metric', 'value', 'baseline', 'target', 'ok'];
const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
const line = (r) => '| ' + cols.map((c, i) => String(r[c]).padEnd(widths[i])).join(' | ') + ' |';
console.log(line(Object.fromEntries(cols.map((c) => [c, c]))));
console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
for (const r of rows) console.log(line(r));
