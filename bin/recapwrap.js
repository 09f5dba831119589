#!/usr/bin/env node
// Thin launcher. The CLI is built to dist/ by `npm run build` (run by `npm install` via prepare).
// CommonJS on purpose (bin/package.json), like the bundle it loads, so no run needs the ES module
// loader: `recapwrap <command> …` without options and `recapwrap status` take their own entries
// (dist/cli/fast-wrap.cjs, dist/cli/status.cjs), so do `index`, `sessions` and `search` in their plain
// forms (src/cli/fast-memory.ts); the rest loads the full CLI's (dist/cli/main.cjs).
'use strict';

// The bundle's compiled code, kept between runs (bin/compile-cache.js).
require('./compile-cache.js').install();

const argv = process.argv.slice(2);

async function main() {
  // `recapwrap status` runs from tmux status lines every few seconds; it writes without process.stdout.
  if (argv[0] === 'status') {
    const code = require('../dist/cli/status.cjs').runStatusFast(argv.slice(1));
    if (code !== undefined) return code;
  }
  // `recapwrap … | head`: a closed pipe ends us quietly, as it does grep or ripgrep.
  // A terminal that went away (EIO) is the wrapper's to handle: it hangs the agent up and ends like SIGHUP.
  let guarded = false;
  const guardStdout = () => {
    if (guarded) return;
    guarded = true;
    process.stdout.on('error', (error) => {
      if (error.code === 'EPIPE') process.exit(0);
      if (error.code === 'EIO') return;
      throw error;
    });
  };
  const fast = require('../dist/cli/fast-wrap.cjs');
  // A plain `search`/`sessions`/`index` writes a file or pipe directly and makes process.stdout only if it
  // must (fast-memory.ts: ~3-7 ms less), so it sets the guard then; every other command first.
  if (!fast.isFastMemory(argv)) guardStdout();
  const code = (await fast.runFastWrap(argv)) ?? (await fast.runFastMemory(argv, guardStdout));
  if (code !== undefined) return code;
  guardStdout();
  return require('../dist/cli/main.cjs').main(argv);
}

main().then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`recapwrap: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
