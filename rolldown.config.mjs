// The CLI as CommonJS bundles: `recapwrap <agent> …` (fast-wrap), `recapwrap status` (run by tmux status
// lines every few seconds) and the full CLI (main: options, subcommands). Loading a few dozen ES modules
// costs the ES module loader's own start plus a resolve/read/compile per file: the bundle saves ~20 ms of
// a ~180 ms `recapwrap <agent>` start and ~40 ms of `recapwrap --version` (187 -> 150 ms) or a wrap with
// options (220 -> 173 ms), measured under script(1) on the 2-core box. Shared code and what commands load
// on demand go to chunks beside them. dist/fast/ sits at the same depth as dist/cli/, so paths built from
// import.meta.url (package.json, bin/, the screen worker in dist/display/) hold in both.
// Input is tsc's output, so this runs after tsc (see the build script).
import { defineConfig } from 'rolldown';

export default defineConfig({
  input: { 'fast-wrap': 'dist/cli/fast-wrap.js', status: 'dist/cli/commands/status.js', main: 'dist/cli/main.js' },
  platform: 'node',
  // Native, or required at run time next to their own files (blessed reads its terminfo files; its
  // sources also have legacy octal escapes the bundler refuses).
  external: ['node-pty', '@xterm/headless', 'commander', 'blessed'],
  output: {
    dir: 'dist/fast',
    cleanDir: true,
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
  },
});
