#!/usr/bin/env node
// `npm run bench`: runs every bench/*.bench.mjs in turn (each prints its own table). Builds nothing:
// wrapper, socket-flood and quality run the built CLI (`npm run build` first); the others bundle the
// sources they time themselves (bench/lib/internals.mjs).
// Pass names to run a subset: `npm run bench -- wrapper transcripts`; `--flags` go to each bench run
// (`npm run bench -- memory --small`).
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n## ${file.replace('.bench.mjs', '')}\n`);
  const r = spawnSync(process.execPath, ['--expose-gc', join(here, file), ...flags], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    process.stdout.write(`(bench ${file} exited ${r.status ?? r.signal})\n`);
  }
}
process.exit(failed ? 1 : 0);
