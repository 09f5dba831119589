/**
 * spawnPty: the node-pty implementation of PtyProcess. Wires one node-pty child to the exit drain
 * (exit-drain.ts), the direct input writer (input-writer.ts) and the signal targets (signal-targets.ts).
 * Output is delivered as raw Buffers so the bytes reach the terminal unchanged. Does not look the
 * command up: resolveCommand (command-lookup.ts) does, before anything is spawned.
 */
import { loadNodePty, type NodePtyModule } from '../util/private-internals/node-pty.js';
import { spawnWithExitDrain } from './exit-drain.js';
import { createInputWriter } from './input-writer.js';
import type { PtyExit, PtyProcess, SpawnPtyOptions } from './pty-types.js';
import { readForegroundGroup, signalTargets } from './signal-targets.js';

// Spawn `file args` on a new pty. Throws if node-pty cannot spawn (resolve the command first).
export function spawnPty(file: string, args: readonly string[], options: SpawnPtyOptions): PtyProcess {
  return spawnPtyWith(loadNodePty(), file, args, options);
}

// spawnPty on a given node-pty module: tests hand in one whose private parts are missing, to run the fallbacks.
export function spawnPtyWith(lib: NodePtyModule, file: string, args: readonly string[], options: SpawnPtyOptions): PtyProcess {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.env)) if (v !== undefined) env[k] = v;
  const dataListeners = new Set<(data: Buffer) => void>();
  const exitListeners = new Set<(exit: PtyExit) => void>();
  let paused = false;
  let exited: PtyExit | undefined;

  const { term, drain } = spawnWithExitDrain(
    lib,
    () =>
      lib.spawn(file, [...args], {
        name: env.TERM ?? 'xterm-256color',
        cols: options.cols,
        rows: options.rows,
        cwd: options.cwd,
        env, // a copy: node-pty only strips TMUX & co. when handed process.env itself
        encoding: null,
      } as Parameters<NodePtyModule['spawn']>[2]),
    {
      isPaused: () => paused,
      onMasterClosed: () => input.stop(), // node-pty closes the master's fd with its socket
      onExit: (exit) => {
        if (exited) return;
        exited = exit;
        input.stop();
        for (const listener of [...exitListeners]) listener(exit);
      },
    },
  );
  const input = createInputWriter(term);

  term.onData((data) => {
    drain.noteOutput();
    const buf = data as unknown as Buffer;
    for (const listener of dataListeners) listener(buf);
  });

  return {
    get pid() {
      return term.pid;
    },
    get cols() {
      return term.cols;
    },
    get rows() {
      return term.rows;
    },
    onData(listener) {
      dataListeners.add(listener);
      return { dispose: () => dataListeners.delete(listener) };
    },
    onExit(listener) {
      exitListeners.add(listener);
      return { dispose: () => exitListeners.delete(listener) };
    },
    write(data) {
      if (exited) return;
      input.write(data);
    },
    resize(cols, rows) {
      if (exited || cols <= 0 || rows <= 0) return;
      try {
        term.resize(cols, rows);
      } catch {
        // The pty may be closing; a lost resize is harmless.
      }
    },
    kill(signal) {
      const sig = signal ?? 'SIGHUP';
      for (const target of signalTargets(term.pid, sig, readForegroundGroup(term.pid))) {
        try {
          process.kill(target, sig);
        } catch {
          // Already gone.
        }
      }
    },
    pause() {
      paused = true;
      term.pause();
    },
    resume() {
      paused = false;
      term.resume();
    },
  };
}
