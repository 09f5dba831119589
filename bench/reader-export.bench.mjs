// `read --html FILE` and `read --md` of a big session (#41): wall time and peak RSS of the built CLI, and the
// HTML's size against the transcript's, beside `node -e 0` run the same way. The session is generated in a
// temp folder (deleted afterwards) in the shape of the project's Claude Code fixture (the same records,
// fields and ids, one turn copied again and again with new uuids): a prompt, thinking, a step, a shell
// call and a file read with outputs of 0.2-120 KB (held twice per record, as Claude Code writes them), an
// edit, and a markdown answer. Targets: ≤ 10 s, peak RSS ≤ 250 MB, HTML ≤ 15 % of the transcript.
// Knobs (env): RW_BENCH_READER_MB (100).
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
// A deep copy of a template record (JSON in, JSON out).
const copy = (value) => JSON.parse(JSON.stringify(value));
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(REPO, 'bin', 'recapwrap.js');
const FIXTURE = join(REPO, 'test', 'fixtures', 'transcripts', 'claude', 'reader', 'compact-subagent', '41e0c0de-0000-4000-8000-00000000c1a0.jsonl');
const TARGET_MB = Number(process.env.RW_BENCH_READER_MB ?? 100);
const T = { seconds: 10, rssMb: 250, htmlShare: 0.15 };

// The fixture's own records, used as templates.
const records = readFileSync(FIXTURE, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const content = (r) => r.message?.content;
const prompt = records.find((r) => r.type === 'user' && typeof content(r) === 'string' && !r.isCompactSummary && !content(r).startsWith('<'));
const thinking = records.find((r) => r.type === 'assistant' && content(r)?.[0]?.type === 'thinking');
const step = records.find((r) => r.type === 'assistant' && content(r)?.[0]?.type === 'text');
const bash = records.find((r) => r.type === 'assistant' && content(r)?.[0]?.type === 'tool_use' && content(r)[0].name === 'Bash');
const result = records.find((r) => r.type === 'user' && content(r)?.[0]?.type === 'tool_result' && r.toolUseResult?.stdout !== undefined);
const edit = records.find((r) => r.type === 'assistant' && content(r)?.[0]?.type === 'tool_use' && content(r)[0].name === 'Edit');
if (![prompt, thinking, step, bash, result, edit].every(Boolean)) throw new Error(`reader-export bench: ${FIXTURE} lacks a record it copies`);

const OUTPUT_KB = [0.2, 2, 8, 40, 120];
const codeLine = (i) => `  ${i % 7 === 0 ? '// ' : ''}const value${i} = compute(input[${i}], { retries: ${i % 5}, label: "row ${i}" });`;
function output(kb, seed) {
  const lines = [];
  let size = 0;
  for (let i = 0; size < kb * 1024; i++) {
    const line = codeLine(seed + i);
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

function generate(file, targetBytes) {
  const fd = openSync(file, 'w');
  let bytes = 0;
  let parent = null;
  let ts = Date.parse('2026-11-01T09:00:00Z');
  const put = (template, patch) => {
    const uuid = randomUUID();
    const r = { ...copy(template), ...patch, uuid, parentUuid: parent, timestamp: new Date((ts += 1500)).toISOString() };
    parent = uuid;
    const line = `${JSON.stringify(r)}\n`;
    writeSync(fd, line);
    bytes += Buffer.byteLength(line);
  };
  const msg = (template, c) => ({ message: { ...copy(template.message), content: c } });
  for (let turn = 1; bytes < targetBytes; turn++) {
    put(prompt, msg(prompt, `Step ${turn}: run the billing checks on table ${turn} and fix what fails.`));
    put(thinking, msg(thinking, [{ ...content(thinking)[0], thinking: `Table ${turn} first; the failing rows come from the new schema. `.repeat(4) }]));
    put(step, msg(step, [{ type: 'text', text: `Running the checks on table ${turn}.` }]));
    for (let k = 0; k < 2; k++) {
      const id = `toolu_bench_${turn}_${k}`;
      const kb = OUTPUT_KB[(turn * 2 + k) % OUTPUT_KB.length];
      const out = output(kb, turn * 10 + k);
      put(bash, msg(bash, [{ ...content(bash)[0], id, input: { command: k === 0 ? `npm test -- table${turn}` : `cat src/tables/t${turn}.ts`, description: 'checks' } }]));
      put(result, {
        ...msg(result, [{ tool_use_id: id, type: 'tool_result', content: out, is_error: false }]),
        toolUseResult: { ...result.toolUseResult, stdout: out, stderr: '' },
        sourceToolAssistantUUID: parent,
      });
    }
    const eid = `toolu_bench_${turn}_e`;
    put(edit, msg(edit, [{ ...content(edit)[0], id: eid, input: { file_path: `/home/dev/proj/src/tables/t${turn}.ts`, old_string: output(0.5, turn), new_string: output(0.6, turn + 1), replace_all: false } }]));
    put(result, { ...msg(result, [{ tool_use_id: eid, type: 'tool_result', content: 'The file has been updated.', is_error: false }]), toolUseResult: { ...result.toolUseResult, stdout: '', stderr: '' }, sourceToolAssistantUUID: parent });
    put(step, msg(step, [{ type: 'text', text: `## Table ${turn}\n\nFixed the **foreign key** of \`t${turn}\`:\n\n\`\`\`ts\nfk: "invoice_id"\n\`\`\`\n\n| check | result |\n|---|---|\n| rows | ok |\n| keys | fixed |\n\nNext: table ${turn + 1}.` }]));
  }
  closeSync(fd);
  return bytes;
}

// Run with a preload that records the process's peak RSS (KB) and CPU time (ms) at exit into a file. The
// CPU time is printed beside the wall time: on a loaded machine the wall time says more about the others.
function timed(argv, preload, rssFile, stdoutFile) {
  const out = stdoutFile ? openSync(stdoutFile, 'w') : 'ignore';
  const started = performance.now();
  const r = spawnSync(process.execPath, ['--require', preload, ...argv], { stdio: ['ignore', out, 'pipe'], env: { ...process.env, RW_BENCH_RSS_FILE: rssFile } });
  const ms = performance.now() - started;
  if (typeof out === 'number') closeSync(out);
  if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status}: ${r.stderr}`);
  const [rssKb, cpuMs] = readFileSync(rssFile, 'utf8').split(' ').map(Number);
  return { ms, cpuMs, rssMb: rssKb / 1024 };
}

const dir = mkdtempSync(join(tmpdir(), 'rw-bench-reader-'));
try {
  const preload = join(dir, 'rss.cjs');
  writeFileSync(preload, "process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeFileSync(process.env.RW_BENCH_RSS_FILE, `${u.maxRSS} ${(u.userCPUTime + u.systemCPUTime) / 1000}`); });\n");
  const session = join(dir, `${randomUUID()}.jsonl`);
  const bytes = generate(session, TARGET_MB * 1024 * 1024);
  const rss = join(dir, 'rss');
  const node = timed(['-e', '0'], preload, rss);
  const html = join(dir, 'out.html');
  const h = timed([CLI, 'read', session, '--html', html], preload, rss);
  const htmlBytes = statSync(html).size;
  const mdFile = join(dir, 'out.md');
  const m = timed([CLI, 'read', session, '--md'], preload, rss, mdFile);
  const mdBytes = statSync(mdFile).size;
  const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const row = (metric, value, target, ok) => ({ metric, value, target, ok: ok ? 'yes' : 'NO' });
  console.log(`transcript: ${mb(bytes)} (Claude Code records copied from the project's fixture), ${TARGET_MB} MB asked`);
  console.table([
    row('node -e 0', `${node.ms.toFixed(0)} ms (CPU ${node.cpuMs.toFixed(0)} ms), ${node.rssMb.toFixed(0)} MB`, '', true),
    row('read --html: time', `${(h.ms / 1000).toFixed(2)} s (CPU ${(h.cpuMs / 1000).toFixed(2)} s)`, `≤ ${T.seconds} s`, h.ms <= T.seconds * 1000),
    row('read --html: peak RSS', `${h.rssMb.toFixed(0)} MB`, `≤ ${T.rssMb} MB`, h.rssMb <= T.rssMb),
    row('read --html: size / transcript', `${((htmlBytes / bytes) * 100).toFixed(1)} % (${mb(htmlBytes)})`, `≤ ${T.htmlShare * 100} %`, htmlBytes / bytes <= T.htmlShare),
    row('read --md: time', `${(m.ms / 1000).toFixed(2)} s (CPU ${(m.cpuMs / 1000).toFixed(2)} s)`, `≤ ${T.seconds} s`, m.ms <= T.seconds * 1000),
    row('read --md: peak RSS', `${m.rssMb.toFixed(0)} MB`, `≤ ${T.rssMb} MB`, m.rssMb <= T.rssMb),
    row('read --md: size / transcript', `${((mdBytes / bytes) * 100).toFixed(1)} % (${mb(mdBytes)})`, '', true),
  ]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
