// The fallbacks of util/private-internals/node-pty.ts under a real child (#20 item 5): a node-pty whose private
// parts are gone (no native fork hook, no _fd/_socket, no ptsName, no close event, no destroy) still
// runs the agent: input reaches it, its output arrives in order and its exit code is reported. What it
// loses is the exit drain: without the slave held open the last output may be cut (node-pty #72).
import type { IPty } from 'node-pty';
import { describe, expect, it } from 'vitest';
import { loadNodePty, readPtsName, readPtyMaster, type NodePtyModule } from '../util/private-internals/node-pty.js';
import type { PtyExit } from './pty-process.js';
import { spawnPtyWith } from './spawn.js';

const real = loadNodePty();

// Only IPty's public surface, bound to a real pty: what a node-pty that moved its internals would offer
// (with `ptsName` kept when asked).
function publicOnly(term: IPty, keepPtsName: boolean): IPty {
  const view = {
    ...(keepPtsName ? { ptsName: readPtsName(term) } : {}),
    get pid() {
      return term.pid;
    },
    get cols() {
      return term.cols;
    },
    get rows() {
      return term.rows;
    },
    onData: term.onData,
    onExit: term.onExit,
    write: (data: string) => term.write(data),
    resize: (cols: number, rows: number) => term.resize(cols, rows),
    kill: (signal?: string) => term.kill(signal),
    pause: () => term.pause(),
    resume: () => term.resume(),
  };
  return view as unknown as IPty;
}

const stripped = (native: unknown, keepPtsName = false): NodePtyModule => ({
  native,
  spawn: (file, args, options) => publicOnly(real.spawn(file, args, options), keepPtsName),
});

// The child reads one line, answers, prints 20000 numbers and exits 3.
const SCRIPT = 'read line; echo "got $line"; seq 1 20000; exit 3';
const SEQ = Array.from({ length: 20000 }, (_, i) => `${i + 1}\r\n`).join('');
const REPLY = 'got hello\r\n';

// What followed the answer: the numbers in order, none missing, possibly cut at the end.
function afterReply(output: string): string {
  return output.slice(output.indexOf(REPLY) + REPLY.length);
}

async function runAgent(lib: NodePtyModule): Promise<{ output: string; exit: PtyExit }> {
  const pty = spawnPtyWith(lib, '/bin/sh', ['-c', SCRIPT], { cols: 80, rows: 24, cwd: process.cwd(), env: { PATH: process.env.PATH } });
  const chunks: Buffer[] = [];
  pty.onData((chunk) => chunks.push(Buffer.from(chunk)));
  const exit = new Promise<PtyExit>((resolve) => pty.onExit(resolve));
  pty.write('hello\r');
  return { exit: await exit, output: Buffer.concat(chunks).toString('latin1') };
}

describe('spawnPty without node-pty internals', () => {
  it('the stripped view really lacks them', () => {
    const term = stripped(undefined).spawn('/bin/sh', ['-c', 'exit 0'], { cols: 20, rows: 5 });
    expect(readPtyMaster(term)).toBeUndefined();
    expect(readPtsName(term)).toBeUndefined();
    expect((term as unknown as { on?: unknown }).on).toBeUndefined();
  });

  it("with nothing private: node-pty's own exit event ends the session; output in order, its tail may be cut", async () => {
    const { output, exit } = await runAgent(stripped(undefined));
    expect(exit).toEqual({ exitCode: 3 });
    expect(output).toContain(REPLY); // input went through node-pty's write()
    const numbers = afterReply(output);
    expect(numbers.length).toBeGreaterThan(0);
    expect(SEQ.startsWith(numbers), 'numbers out of order or missing').toBe(true);
  });

  it('with the hook but no close event, slave or destroy(): the drain gives up after its quiet time', async () => {
    const { output, exit } = await runAgent(stripped(real.native));
    expect(exit).toEqual({ exitCode: 3 });
    expect(output).toContain(REPLY);
    expect(SEQ.startsWith(afterReply(output)), 'numbers out of order or missing').toBe(true);
  });

  it('with the hook and the slave but no close event or destroy(): nothing lost', async () => {
    const { output, exit } = await runAgent(stripped(real.native, true));
    expect(exit).toEqual({ exitCode: 3 });
    expect(output).toContain(REPLY);
    expect(afterReply(output) === SEQ, 'output differs').toBe(true);
  });
});
