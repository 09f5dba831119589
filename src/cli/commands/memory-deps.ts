/**
 * What a session-memory command runs with in this process (the terminal's width and colours, progress
 * and questions on stderr): shared by the full CLI (memory.ts) and the start-up fast path (fast-memory.ts).
 */
import type { MemoryDeps } from './memory-options.js';

// A yes/no question on the terminal (stderr, so stdout stays the result): yes only for y or yes; Ctrl-D or
// Ctrl-C is a no.
async function confirmOnTerminal(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const closed = new Promise<string>((resolveClosed) => rl.once('close', () => resolveClosed('')));
  rl.once('SIGINT', () => rl.close());
  try {
    const answer = await Promise.race([rl.question(question), closed]);
    return /^\s*y(es)?\s*$/i.test(answer);
  } catch {
    return false;
  } finally {
    rl.close();
  }
}

export function processMemoryDeps(): MemoryDeps {
  return {
    env: process.env,
    cwd: process.cwd(),
    now: Date.now(),
    columns: process.stdout.isTTY ? process.stdout.columns || 80 : Number.POSITIVE_INFINITY,
    color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
    progress: process.stderr.isTTY ? (text) => process.stderr.write(text) : undefined,
    log: (text) => process.stderr.write(text),
    // stderr first: process.stdin is made (Node's stream modules loaded, ~2-3 ms) only when a question could be asked.
    confirm: process.stderr.isTTY && process.stdin.isTTY ? confirmOnTerminal : undefined,
  };
}
