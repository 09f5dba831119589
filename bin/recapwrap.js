#!/usr/bin/env node
// Thin launcher: the CLI is built to dist/ by `npm run build` (run by `npm install` via prepare).
// `recapwrap <command> …` without options skips loading the full CLI (start-up time).
import { runFastWrap } from '../dist/cli/fast-wrap.js';

// `recapwrap … | head`: a closed pipe ends us quietly, as it does grep or ripgrep.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const argv = process.argv.slice(2);
const runFull = async () => (await import('../dist/cli/main.js')).main(argv);
// `recapwrap status` runs from tmux status lines every few seconds: keep it off the full CLI too.
const runStatus = async () => (argv[0] === 'status' ? (await import('../dist/cli/commands/status.js')).runStatusFast(argv.slice(1)) : undefined);
runStatus()
  .then((code) => (code === undefined ? runFastWrap(argv) : code))
  .then((code) => (code === undefined ? runFull() : code))
  .then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`recapwrap: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
