/**
 * PtyProcess: a child program on a pseudo-terminal, in node-pty's IPty shape: the contract the app
 * programs against, and the pty layer's public names. The implementation is split by concern:
 * spawn.ts (node-pty wiring), exit-drain.ts (exit-race fix), input-writer.ts (direct writes to the
 * master), signal-targets.ts, command-lookup.ts (PATH search before any spawn). Private node-pty
 * access lives in util/private-internals/node-pty.ts.
 */
export type { PtyExit, PtyProcess, SpawnPtyOptions } from './pty-types.js';

// Importers use these names from this file (src/app/wrap/, tests).
export { resolveCommand, type ResolvedCommand } from './command-lookup.js';
export { readForegroundGroup, signalTargets } from './signal-targets.js';
export { spawnPty } from './spawn.js';
