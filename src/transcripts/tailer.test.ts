import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, renameSync, rmSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pollUntil } from '../../test/helpers/poll.js';
import { FileTailer, type TailResetReason } from './tailer.js';

let dir: string;
let tailer: FileTailer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rw-tail-'));
});
afterEach(async () => {
  await tailer?.stop();
  tailer = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function follow(file: string, pollMs = 200) {
  const lines: string[] = [];
  const resets: TailResetReason[] = [];
  tailer = new FileTailer(file, { onLines: (l) => lines.push(...l), onReset: (r) => resets.push(r), pollMs });
  tailer.start();
  return { lines, resets };
}

describe('FileTailer', () => {
  it('reads existing lines, then appended ones, holding a partial line until its newline', async () => {
    const file = join(dir, 's.jsonl');
    writeFileSync(file, 'one\ntwo\n');
    const { lines } = follow(file);
    await pollUntil(() => lines.length === 2);
    appendFileSync(file, 'thr');
    await tailer!.sync();
    expect(lines).toEqual(['one', 'two']);
    appendFileSync(file, 'ee\n');
    await pollUntil(() => lines.length === 3);
    expect(lines).toEqual(['one', 'two', 'three']);
  });

  it('waits for a file that does not exist yet (nor its folder)', async () => {
    const file = join(dir, 'later', 's.jsonl');
    const { lines } = follow(file, 50);
    await tailer!.sync(); // one read has found nothing: the file comes later
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'later'));
    writeFileSync(file, 'hello\n');
    await pollUntil(() => lines.length === 1);
    expect(lines).toEqual(['hello']);
  });

  it('starts over after truncation', async () => {
    const file = join(dir, 's.jsonl');
    writeFileSync(file, 'aaaa\nbbbb\n');
    const { lines, resets } = follow(file);
    await pollUntil(() => lines.length === 2);
    truncateSync(file, 0);
    appendFileSync(file, 'c\n');
    await pollUntil(() => lines.length === 3);
    expect(lines).toEqual(['aaaa', 'bbbb', 'c']);
    expect(resets).toEqual(['truncated']);
  });

  it('starts over when the file was truncated and rewritten past our offset before we looked', async () => {
    const file = join(dir, 's.jsonl');
    writeFileSync(file, 'aaaa\nbbbb\n');
    const lines: string[] = [];
    const resets: TailResetReason[] = [];
    // Not started: nothing watches, so the rewrite happens entirely between two reads.
    tailer = new FileTailer(file, { onLines: (l) => lines.push(...l), onReset: (r) => resets.push(r) });
    await tailer.sync();
    truncateSync(file, 0);
    appendFileSync(file, 'cccccccccccc\n');
    await tailer.sync();
    expect(lines).toEqual(['aaaa', 'bbbb', 'cccccccccccc']);
    expect(resets).toEqual(['truncated']);
    appendFileSync(file, 'd\n');
    await tailer.sync();
    expect(lines.at(-1)).toBe('d');
    expect(resets).toEqual(['truncated']);
  });

  it('drains the old file before following a replacement (inode change)', async () => {
    const file = join(dir, 's.jsonl');
    writeFileSync(file, 'old1\n');
    const { lines, resets } = follow(file);
    await pollUntil(() => lines.length === 1);
    const next = join(dir, 's.jsonl.tmp');
    writeFileSync(next, 'new1\nnew2\n');
    renameSync(next, file);
    await pollUntil(() => lines.length === 3);
    expect(lines).toEqual(['old1', 'new1', 'new2']);
    expect(resets).toEqual(['replaced']);
  });

  it('survives deletion and re-creation', async () => {
    const file = join(dir, 's.jsonl');
    writeFileSync(file, 'a\n');
    const { lines, resets } = follow(file, 50);
    await pollUntil(() => lines.length === 1);
    unlinkSync(file);
    await pollUntil(() => resets.length === 1);
    writeFileSync(file, 'b\n');
    await pollUntil(() => lines.length === 2);
    expect(lines).toEqual(['a', 'b']);
    expect(resets).toEqual(['deleted']);
  });

  it('delivers the last line written before the writer goes idle, every time', async () => {
    const file = join(dir, 's.jsonl');
    writeFileSync(file, '');
    const { lines } = follow(file);
    for (let i = 0; i < 30; i++) {
      appendFileSync(file, `line ${i}\n`);
      await pollUntil(() => lines.length === i + 1, { timeoutMs: 3000 });
    }
    expect(lines.at(-1)).toBe('line 29');
  });

  it('starts at a given offset', async () => {
    const file = join(dir, 's.jsonl');
    writeFileSync(file, 'skip\nkeep\n');
    const lines: string[] = [];
    tailer = new FileTailer(file, { onLines: (l) => lines.push(...l), fromOffset: 5 });
    tailer.start();
    await pollUntil(() => lines.length === 1);
    expect(lines).toEqual(['keep']);
    expect(tailer.position).toBe(10);
  });

  it.skipIf(process.platform === 'win32')('never opens a FIFO or a device: one error, no hang, and it reads again once the path is a file (#19)', async () => {
    const fifo = join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    const errors: string[] = [];
    const lines: string[] = [];
    tailer = new FileTailer(fifo, { onLines: (l) => lines.push(...l), onError: (e) => errors.push((e as NodeJS.ErrnoException).code ?? e.message), pollMs: 50 });
    tailer.start();
    await pollUntil(() => errors.length === 1);
    await tailer.sync(); // resolves: nothing waits on the FIFO
    // Each sync reads as a poll does: three more reads of the FIFO, and still one error.
    for (let i = 0; i < 3; i++) await tailer.sync();
    expect(errors).toEqual(['ENOTREG']); // said once, not on every poll
    unlinkSync(fifo);
    writeFileSync(fifo, 'now a file\n');
    await pollUntil(() => lines.length === 1);
    expect(lines).toEqual(['now a file']);
    await tailer.stop();

    const zero = join(dir, 'zero.jsonl');
    symlinkSync('/dev/zero', zero);
    const zeroErrors: string[] = [];
    const zeroLines: string[] = [];
    tailer = new FileTailer(zero, { onLines: (l) => zeroLines.push(...l), onError: (e) => zeroErrors.push((e as NodeJS.ErrnoException).code ?? e.message), pollMs: 50 });
    tailer.start();
    await pollUntil(() => zeroErrors.length === 1);
    await tailer.sync();
    expect(zeroErrors).toEqual(['ENOTREG']);
    expect(tailer.position).toBe(0);
  });
});
