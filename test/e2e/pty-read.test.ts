// How spawnPty reads the child's output (real node-pty): into slabs of our own (no buffer per read),
// or node-pty's stream as the fallback. Either way every byte arrives once, in order; a delivered chunk
// is never written over later (the screen mirror keeps chunks); pause() stops delivery until resume().
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { spawnPty, type PtyExit, type PtyProcess, type SpawnPtyOptions } from '../../src/pty/pty-process.js';

const SEQ = execFileSync('seq', ['1', '200000'], { encoding: 'latin1', maxBuffer: 64 << 20 }).replace(/\n/g, '\r\n');

function run(args: string[], read?: SpawnPtyOptions['read']): { pty: PtyProcess; chunks: Buffer[]; exit: Promise<PtyExit> } {
  const pty = spawnPty(args[0] as string, args.slice(1), { cols: 80, rows: 24, cwd: process.cwd(), env: { PATH: process.env.PATH }, read });
  const chunks: Buffer[] = [];
  pty.onData((chunk) => chunks.push(chunk)); // kept as delivered, not copied
  return { pty, chunks, exit: new Promise((resolve) => pty.onExit(resolve)) };
}

describe('spawnPty output reads', () => {
  it('reads into slabs on this Node', () => {
    const { pty, exit } = run(['true']);
    expect(pty.readMode).toBe('slab');
    return exit;
  });

  for (const read of ['slab', 'stream'] as const) {
    it(`${read}: seq 1 200000 arrives byte for byte in chunks that stay intact`, async () => {
      const { pty, chunks, exit } = run(['seq', '1', '200000'], read);
      expect(pty.readMode).toBe(read);
      expect(await exit).toEqual({ exitCode: 0 });
      expect(chunks.length).toBeGreaterThan(100); // many reads: slabs were used up and replaced
      const out = Buffer.concat(chunks).toString('latin1');
      expect(out.length).toBe(SEQ.length);
      expect(out === SEQ, 'output differs').toBe(true);
    });
  }

  it('pause() stops delivery until resume(), and nothing is lost', async () => {
    const { pty, chunks, exit } = run(['seq', '1', '200000']);
    await new Promise<void>((resolve) => {
      const sub = pty.onData(() => {
        sub.dispose();
        pty.pause();
        resolve();
      });
    });
    const whilePaused = chunks.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(chunks.length).toBe(whilePaused); // the child is blocked on a full pty, not read
    pty.resume();
    expect(await exit).toEqual({ exitCode: 0 });
    expect(Buffer.concat(chunks).toString('latin1') === SEQ, 'output differs').toBe(true);
  });
});
