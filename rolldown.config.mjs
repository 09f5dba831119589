// The one build: rolldown bundles src/ straight from TypeScript into dist/ (type checking is `tsc
// --noEmit`, run by `npm test`). Every runtime file comes from here: the CLI, the screen copy's worker
// thread and the demo agent, with the chunks they share.
//
// CommonJS, not ES modules, on measurement: the same single build emitted as ESM cost the full CLI
// (`recapwrap --no-focus true`) ~20 ms more CPU per start and `recapwrap status` (run by tmux status
// lines every few seconds) ~8 ms; the plain wrap was even. That is the ES module loader's own start
// plus its per-file link step, which require() does not pay.
//
// Entries: the two start-up paths keep files of their own, so they load none of commander or the
// subcommands: `cli/fast-wrap` (`recapwrap [wrap options] <agent> …`) and `cli/status`; then the full
// CLI (`cli/main`), the screen copy's worker (optional: the wrapper runs the copy in its own thread), the
// session index's two workers (the wrapper's writes; the read pool of a big `index`),
// the demo agent (run by bin/demo-agent.js) and string-width, which text-width.ts requires only when it
// first measures text that is not ASCII (its emoji pattern takes ~19 ms to compile).
//
// Chunks: left to itself rolldown splits the start-up paths' code by which entries share it, so a plain
// wrap loaded 8 files of dist/ (the two-bundle build: 5) and started ~10 % slower under a pty (40
// paired starts: 1.49x node -e 0 against 1.35x). So the modules those paths load up front go in two
// chunks: what `recapwrap status` imports (a wrap needs it too), and the rest of what the wrap flow's
// composition (app/wrap/run-wrap.ts) imports; the plain wrap then loads 5 files (1.37x in the same
// run) and status 2. The two sets are found by following static imports, so they stay right as
// imports change; what is loaded on demand (import()) is left to rolldown.
// The session-memory commands (`search`, `sessions`, `index`: bin/recapwrap.js runs them from the
// fast-wrap entry) share the wrap flow's config and agent ids; in the wrap-flow chunk those made every
// `search` load the whole wrap flow (pty, focus, the wrap's composition: 101 KB, ~60 KB of it unused).
// So what both load up front (the set of the memory commands' composition, app/memory/api.ts, and of
// memory-run.ts, within the wrap's) is a third chunk, `wrap-config`: the plain wrap loads 5 files of
// dist/, and a search none of the wrap's own code.
//
// Paths: every output file sits two folders below the package (dist/<folder>/, chunks in
// dist/chunks/), as the sources that build a path from import.meta.url with a fixed `../..` sit in
// src/<folder>/ (src/cli/main.ts reads ../../package.json); deeper sources find the package by walking up
// (src/util/package-dir.ts). So those paths hold in dist/ and when tests run the sources.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'rolldown';

const STATUS = resolve('src/cli/commands/status.ts');
const WRAP_FLOW = resolve('src/app/wrap/run-wrap.ts');
const MEMORY = [resolve('src/cli/commands/memory-run.ts'), resolve('src/app/memory/api.ts'), resolve('src/app/memory/hit-turns.ts')];
// A moved file would silently undo the grouping (and slow every start): fail the build instead.
for (const file of [STATUS, WRAP_FLOW, ...MEMORY]) {
  if (!existsSync(file)) throw new Error(`rolldown.config.mjs: ${file} is gone; point the start-up chunk grouping at its new place`);
}

// Every module `from` loads through static imports, itself included.
function staticImports(from, ctx) {
  const seen = new Set();
  const todo = [from];
  while (todo.length > 0) {
    const id = todo.pop();
    if (seen.has(id)) continue;
    seen.add(id);
    todo.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

let startup;
function startupChunk(id, ctx) {
  startup ??= { status: staticImports(STATUS, ctx), wrap: staticImports(WRAP_FLOW, ctx), memory: new Set(MEMORY.flatMap((m) => [...staticImports(m, ctx)])) };
  // status.ts itself stays in its entry file.
  if (id === STATUS) return null;
  if (startup.status.has(id)) return 'startup-base';
  if (startup.wrap.has(id)) return startup.memory.has(id) ? 'wrap-config' : 'wrap-flow';
  return null;
}

export default defineConfig({
  platform: 'node',
  // The oldest Node package.json's engines allows: nothing it runs natively is rewritten.
  transform: { target: 'node20.11' },
  input: {
    'cli/fast-wrap': 'src/cli/fast-wrap.ts',
    'cli/status': 'src/cli/commands/status.ts',
    'cli/main': 'src/cli/main.ts',
    // The live wrapper's session-index writes (#25), off its output path.
    'cli/memory-worker': 'src/app/memory/worker.ts',
    // The read pool of a big refresh (`index` on a new home, #42): parses session files beside the CLI's thread.
    'cli/index-worker': 'src/app/memory/index-worker.ts',
    'demo/scripted-agent': 'src/demo/scripted-agent.ts',
    // string-width, required on first use (src/util/string-width-load.ts): compiling it costs ~19 ms.
    'util/string-width': 'src/util/string-width-lib.ts',
  },
  // Native, or required at run time next to their own files (blessed reads its terminfo files; its
  // sources also have legacy octal escapes the bundler refuses).
  external: ['node-pty', '@xterm/headless', 'commander', 'blessed', 'better-sqlite3'],
  // status.ts is an entry and also imported by the full CLI: let its entry file hold the module itself
  // (and export what the other chunks use) rather than re-export it from a chunk, one file fewer for
  // every status line.
  preserveEntrySignatures: 'allow-extension',
  output: {
    dir: 'dist',
    // No file of an older layout (or of a tsc run) survives a build and ends up in the package.
    cleanDir: true,
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: 'chunks/[name]-[hash].cjs',
    codeSplitting: { groups: [{ name: startupChunk, debugName: 'start-up paths' }] },
  },
});
