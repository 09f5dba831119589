import { spawn, execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { pollUntil } from '../../test/helpers/poll.js';
import { getProcessTree } from './pids.js';

const started: Array<{ kill(signal?: NodeJS.Signals): boolean }> = [];
afterEach(() => {
  for (const c of started.splice(0)) c.kill('SIGKILL');
});

describe('getProcessTree', () => {
  it('finds the whole tree of a real process: its children and their children, and nothing else', async () => {
    // sh → (sh → sleep) and sleep: two levels.
    const root = spawn('sh', ['-c', 'sh -c "sleep 30" & sleep 30 & wait'], { stdio: 'ignore' });
    started.push(root);
    // The shells fork their children a moment after they start.
    const tree = await pollUntil(async () => {
      const t = await getProcessTree(root.pid!);
      return t.length >= 4 ? t : undefined;
    }, { timeoutMs: 5000, intervalMs: 50, description: 'the whole tree of four' });
    expect(tree[0]).toBe(root.pid);
    // The same set `ps` reports, walked from the table of every process.
    const table = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
      .trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
    const expected = [root.pid!];
    for (let i = 0; i < expected.length; i++) for (const [pid, ppid] of table) if (ppid === expected[i] && !expected.includes(pid)) expected.push(pid);
    expect([...tree].sort()).toEqual([...expected].sort());
    expect(tree).toHaveLength(4);
    for (const pid of tree.slice(1)) process.kill(pid, 'SIGKILL');
  });

  it('is [pid] for a process that has no children, and for one that is gone', async () => {
    expect(await getProcessTree(process.pid).then((t) => t[0])).toBe(process.pid);
    const gone = spawn('true');
    await new Promise((r) => gone.on('exit', r));
    expect(await getProcessTree(gone.pid!)).toEqual([gone.pid]);
  });
});
