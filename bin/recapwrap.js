#!/usr/bin/env node
// Thin launcher: the CLI is built to dist/ by `npm run build` (run by `npm install` via prepare).
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`recapwrap: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
