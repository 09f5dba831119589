// Tail torture: a separate writer process appends numbered JSON lines with split writes (cut inside
// UTF-8 characters too), lines bigger than the read chunk, and truncates, rotates, replaces and deletes
// the file between bursts. The FileTailer must deliver every line exactly once, in order, whole, and
// the last line written before each idle pause (terminal.md §6).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTailer, type TailResetReason } from '../../src/transcripts/tailer.js';
import { pollUntil } from '../helpers/poll.js';
import { REPO_DIR } from '../helpers/shared.js';

const WRITER = join(REPO_DIR, 'test', 'fixtures', 'bin', 'tail-writer.mjs');

let dir: string;
let tailer: FileTailer | undefined;
let writer: ChildProcessWithoutNullStreams | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-torture-'));
});
afterEach(async () => {
  writer?.kill('SIGKILL');
  writer = undefined;
  await tailer?.stop();
  tailer = undefined;
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  numbers: number[];
  resets: TailResetReason[];
  waits: number;
}

// Run the writer with these options against a fresh FileTailer; answer each WAIT only once the tailer
// has delivered every line written so far (so a lost last-line-before-idle fails the poll).
async function torture(args: string[]): Promise<Run> {
  const file = join(dir, 'session.jsonl');
  const run: Run = { numbers: [], resets: [], waits: 0 };
  const bad: string[] = [];
  tailer = new FileTailer(file, {
    onLines: (lines) => {
      for (const line of lines) {
        try {
          run.numbers.push((JSON.parse(line) as { n: number }).n);
        } catch {
          bad.push(line.slice(0, 80));
        }
      }
    },
    onReset: (reason) => run.resets.push(reason),
  });
  tailer.start();
  const child = spawn(process.execPath, [WRITER, '--file', file, ...args]);
  writer = child;
  const stderr: string[] = [];
  child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
  let pending = '';
  let ended = false;
  const done = new Promise<void>((resolve, reject) => {
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`Expected the writer to exit 0, got ${code}: ${stderr.join('')}`))));
  });
  child.stdout.on('data', (d: Buffer) => {
    pending += d.toString();
    let nl;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const msg = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      const wait = /^WAIT (\d+)$/.exec(msg);
      if (wait) {
        const written = Number(wait[1]);
        run.waits++;
        pollUntil(() => run.numbers.length >= written, { timeoutMs: 5000, description: `the tailer to deliver ${written} lines before the writer's pause` })
          .then(() => child.stdin.write('go\n'))
          .catch(() => child.kill('SIGKILL'));
      }
      if (msg.startsWith('END')) ended = true;
    }
  });
  await done;
  expect(ended).toBe(true);
  expect(bad).toEqual([]);
  return run;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('FileTailer under a hostile writer', () => {
  it('split writes, big lines, truncation, rotation, replacement, deletion: every line once, in order', async () => {
    const run = await torture(['--lines', '240', '--seed', '7', '--split', '35', '--gap-ms', '3', '--big-every', '70', '--events', 'truncate@60,rotate@110,replace@160,delete@200']);
    expect(run.numbers).toEqual(range(240));
    expect(run.waits).toBe(5);
    expect(run.resets).toHaveLength(4);
    expect(run.resets[0]).toBe('truncated');
    // A rename away or a delete followed at once by a new file is seen as deleted or replaced, by timing.
    for (const r of run.resets.slice(1)) expect(['replaced', 'deleted']).toContain(r);
  });

  it('a fast writer that never pauses until the end: nothing lost or doubled', async () => {
    const run = await torture(['--lines', '3000', '--seed', '3', '--split', '20', '--gap-ms', '0', '--events', '']);
    expect(run.numbers).toEqual(range(3000));
    expect(run.resets).toEqual([]);
  });

  it('several seeds of small bursts with pauses: the last line before each pause always arrives', async () => {
    for (const seed of ['11', '12', '13']) {
      const run = await torture(['--lines', '60', '--seed', seed, '--split', '60', '--gap-ms', '8', '--events', 'replace@20,truncate@40']);
      expect(run.numbers).toEqual(range(60));
      await tailer?.stop();
      tailer = undefined;
      rmSync(join(dir, 'session.jsonl'), { force: true });
    }
  });
});
