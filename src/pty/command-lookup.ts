/**
 * Command lookup before any spawn: find a command on PATH the way execvp would, so that a missing or
 * non-executable command gets one clear line and the shell's exit codes (127, 126). Reads the file
 * system only; spawns nothing.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

export type ResolvedCommand =
  | { ok: true; path: string }
  | { ok: false; exitCode: 126 | 127; message: string };

// Find `command` the way execvp would (PATH search unless it contains a slash), so that a missing or
// non-executable command gets one clear line and the shell's exit codes (127, 126) before any spawn.
export function resolveCommand(command: string, env: Readonly<Record<string, string | undefined>>, cwd: string): ResolvedCommand {
  // Most PATH folders lack the command: no exception for those (an ENOENT error object per folder).
  const check = (path: string): 'ok' | 'missing' | 'denied' => {
    try {
      const stat = statSync(path, { throwIfNoEntry: false });
      if (!stat) return 'missing';
      // execve runs only regular files (EACCES for a folder, FIFO, socket or device, whatever its mode bits).
      if (!stat.isFile()) return 'denied';
      accessSync(path, constants.X_OK);
      return 'ok';
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EACCES' ? 'denied' : 'missing';
    }
  };
  if (command.includes('/')) {
    const path = isAbsolute(command) ? command : resolve(cwd, command);
    const state = check(path);
    if (state === 'ok') return { ok: true, path: command };
    return state === 'denied'
      ? { ok: false, exitCode: 126, message: `cannot run '${command}': permission denied (not an executable file)` }
      : { ok: false, exitCode: 127, message: `command not found: ${command}` };
  }
  let denied = false;
  for (const dir of (env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter)) {
    const path = join(dir === '' ? cwd : resolve(cwd, dir), command);
    const state = check(path);
    if (state === 'ok') return { ok: true, path };
    if (state === 'denied') denied = true;
  }
  return denied
    ? { ok: false, exitCode: 126, message: `cannot run '${command}': permission denied` }
    : { ok: false, exitCode: 127, message: `command not found: ${command}` };
}

// Where a command would run from, or undefined when it is missing or cannot be run: for checks that only
// ask whether a command is installed (doctor, mcp install), with the same lookup as the spawn.
export function findOnPath(command: string, env: Readonly<Record<string, string | undefined>>, cwd: string): string | undefined {
  const found = resolveCommand(command, env, cwd);
  return found.ok ? found.path : undefined;
}
