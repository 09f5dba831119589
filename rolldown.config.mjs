// The start-up paths as one CommonJS bundle: `recapwrap <agent> …` and `recapwrap status` (run by tmux
// status lines every few seconds). Loading a dozen ES modules costs the ES module loader's own start plus
// a resolve/read/compile per file; one CommonJS bundle saves ~20 ms of a ~180 ms start (measured with
// `npm run bench`, RW_BENCH_ONLY=startup). Everything else stays the ES modules tsc writes to dist/.
// Input is tsc's output, so this runs after tsc (see the build script).
import { defineConfig } from 'rolldown';

export default defineConfig({
  input: { 'fast-wrap': 'dist/cli/fast-wrap.js', status: 'dist/cli/commands/status.js' },
  platform: 'node',
  // Native or required at run time next to their own files.
  external: ['node-pty', '@xterm/headless', 'commander'],
  output: {
    dir: 'dist/fast',
    cleanDir: true,
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
  },
});
