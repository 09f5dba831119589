/** Commands set their exit code here (commander actions cannot return one); main reads it back. */
import type { Command } from 'commander';

export function setExitCode(command: Command, code: number): void {
  (command as Command & { _exitCode?: number })._exitCode = code;
}

export function getExitCode(command: Command): number | undefined {
  return (command as Command & { _exitCode?: number })._exitCode;
}
