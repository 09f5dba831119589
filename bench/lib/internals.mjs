// The benches that time recapwrap's internals (the transcript parsers and tailer, the recap heuristic,
// the attention machine) load them from the sources, bundled on the spot into one ES module per bench
// in .bench/internals/ (git-ignored), as `npm run fixtures` bundles its maker. So dist/ stays the one
// tree the CLI runs from (it exports none of these), and such a bench needs no build first. It is the
// code the CLI runs, bundled by the same rolldown from the same sources; only the module format
// differs, which does not change a hot loop's cost.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// In the work tree, not node_modules/.cache: node_modules may be shared by several work trees.
const CACHE = join(REPO, '.bench', 'internals');

/**
 * Bundles every export of `sources` (paths under src/, e.g. 'recap/heuristic.ts') into
 * .bench/internals/<name>.mjs and returns that file's URL (for a child process to
 * import). Packages and node: modules stay imports.
 */
export async function bundleInternals(name, sources) {
  mkdirSync(CACHE, { recursive: true });
  const entry = join(CACHE, `${name}.entry.mjs`);
  writeFileSync(entry, sources.map((source) => `export * from ${JSON.stringify(join(REPO, 'src', source))};\n`).join(''));
  const bundle = await rolldown({ input: entry, platform: 'node', logLevel: 'warn', external: /^[^./\0]/ });
  const file = join(CACHE, `${name}.mjs`);
  try {
    // One file even where the sources import on demand (import()): a bench imports it whole.
    await bundle.write({ file, format: 'esm', codeSplitting: false });
  } finally {
    await bundle.close();
  }
  return pathToFileURL(file).href;
}

/** bundleInternals, then import it here. */
export async function importInternals(name, sources) {
  return import(await bundleInternals(name, sources));
}
