/**
 * The wrapped child's process tree: agents often run as a launcher plus the real process (qwen runs
 * node → node; codex runs node → native), and their live-session records name the innermost pid.
 * Linux reads /proc; elsewhere (macOS) `ps` gives the same pid/ppid table.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/**
 * Linux: walk down from rootPid through /proc/<pid>/task/<tid>/children, reading only the tree (a few
 * files) instead of every process's stat (15 ms of CPU with 90 processes, every relocate poll).
 * Synchronous on purpose: /proc reads do not block. undefined where the kernel has no children files.
 */
function procChildrenTree(rootPid: number): number[] | undefined {
  const out = [rootPid];
  for (let i = 0; i < out.length; i++) {
    const pid = out[i] as number;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      if (i === 0) return undefined; // no /proc (macOS), or the root has exited
      continue; // a descendant exited while we looked
    }
    for (const tid of tasks) {
      let children: string;
      try {
        children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT' && i === 0) return undefined; // no CONFIG_PROC_CHILDREN
        continue;
      }
      for (const c of children.split(' ')) {
        const child = Number(c);
        if (c && Number.isInteger(child) && !out.includes(child)) out.push(child);
      }
    }
  }
  return out;
}

async function procTable(): Promise<Map<number, number> | undefined> {
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return undefined;
  }
  const table = new Map<number, number>();
  await Promise.all(
    names
      .filter((n) => /^\d+$/.test(n))
      .map(async (n) => {
        try {
          const stat = await readFile(`/proc/${n}/stat`, 'utf8');
          // Field 4 is the ppid; the command name (field 2) may hold spaces and parens, so parse after the last ')'.
          const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          table.set(Number(n), Number(after[1]));
        } catch {
          // The process exited while we looked.
        }
      }),
  );
  return table;
}

function psTable(): Promise<Map<number, number>> {
  return new Promise((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid='], { timeout: 2000 }, (error, stdout) => {
      const table = new Map<number, number>();
      if (!error) {
        for (const line of stdout.split('\n')) {
          const [pid, ppid] = line.trim().split(/\s+/).map(Number);
          if (pid && ppid !== undefined && Number.isFinite(ppid)) table.set(pid, ppid);
        }
      }
      resolve(table);
    });
  });
}

/** rootPid and all its descendants (rootPid first); [rootPid] when the table cannot be read. */
export async function getProcessTree(rootPid: number): Promise<number[]> {
  const fast = procChildrenTree(rootPid);
  if (fast) return fast;
  const table = (await procTable()) ?? (await psTable());
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of table) {
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  const out = [rootPid];
  for (let i = 0; i < out.length; i++) for (const c of children.get(out[i] as number) ?? []) if (!out.includes(c)) out.push(c);
  return out;
}

export { isProcessAlive } from '../util/process.js';
