/**
 * What a session-memory command runs with in this process (the terminal's width and colours, progress
 * and questions on stderr): shared by the full CLI (memory.ts) and the start-up fast path (fast-memory.ts).
 */
import { fstatSync } from 'node:fs';
import type { MemoryDeps } from './memory-options.js';

/**
 * Whether fd 1 or 2 is a file, a pipe or a socket: never a terminal, so its stream need not be made to ask
 * (process.stdout or stderr made loads Node's stream modules, and net for a pipe: ~3-7 ms of a command
 * that prints a few lines; fast-memory.ts writes to such an fd directly).
 */
export function plainOutput(fd: 1 | 2): boolean {
  try {
    const st = fstatSync(fd);
    return st.isFile() || st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}

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
  // A plain output is no terminal: its stream is not made to say so (plainOutput).
  const outTty = !plainOutput(1) && Boolean(process.stdout.isTTY);
  const errTty = !plainOutput(2) && Boolean(process.stderr.isTTY);
  return {
    env: process.env,
    cwd: process.cwd(),
    now: Date.now(),
    columns: outTty ? process.stdout.columns || 80 : Number.POSITIVE_INFINITY,
    color: outTty && !process.env.NO_COLOR,
    progress: errTty ? (text) => process.stderr.write(text) : undefined,
    log: (text) => process.stderr.write(text),
    // stderr first: process.stdin is made (Node's stream modules loaded, ~2-3 ms) only when a question could be asked.
    confirm: errTty && process.stdin.isTTY ? confirmOnTerminal : undefined,
  };
}
