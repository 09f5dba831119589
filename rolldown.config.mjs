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
// subcommands: `cli/fast-wrap` (`recapwrap <agent> …` without options) and `cli/status`; then the full
// CLI (`cli/main`), the worker and the demo agent (run by bin/demo-agent.js). Each entry sits in the
// folder its source does, and the shared chunks in dist/chunks/: every file is two levels below the
// package, as every non-test file that builds a path from import.meta.url is in src/ (src/cli/main.ts
// reads ../../package.json, src/app/demo.ts ../../bin/, src/display/screen.ts ../display/), so those
// paths hold in dist/ and when tests run the sources.
import { defineConfig } from 'rolldown';

export default defineConfig({
  platform: 'node',
  // The oldest Node package.json's engines allows: nothing it runs natively is rewritten.
  transform: { target: 'node20.11' },
  input: {
    'cli/fast-wrap': 'src/cli/fast-wrap.ts',
    'cli/status': 'src/cli/commands/status.ts',
    'cli/main': 'src/cli/main.ts',
    'display/screen-worker': 'src/display/screen-worker.ts',
    'demo/scripted-agent': 'src/demo/scripted-agent.ts',
  },
  // Native, or required at run time next to their own files (blessed reads its terminfo files; its
  // sources also have legacy octal escapes the bundler refuses).
  external: ['node-pty', '@xterm/headless', 'commander', 'blessed'],
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
  },
});
