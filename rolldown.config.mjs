// The CLI as CommonJS bundles. Loading a few dozen ES modules costs the ES module loader's own start
// plus a resolve/read/compile per file; bundles skip both. Measured under script(1) on the 2-core box:
// ~20 ms of a ~180 ms `recapwrap <agent>` start; `recapwrap --version` 187 -> 150 ms and a wrap with
// an option 220 -> 173 ms (and to 111 / 132 ms once subcommands load their work on demand).
// - dist/fast/: the start-up paths, `recapwrap <agent> …` with no options (fast-wrap) and `recapwrap
//   status` (run by tmux status lines every few seconds).
// - dist/full/: the full CLI (options, subcommands), built apart so its chunks do not split the
//   start-up paths' bundles into more files.
// Both folders sit as deep as dist/cli/, so paths built from import.meta.url (package.json, bin/, the
// screen worker in dist/display/) hold in all three. Input is tsc's output: this runs after tsc.
import { defineConfig } from 'rolldown';

const common = {
  platform: 'node',
  // Native, or required at run time next to their own files (blessed reads its terminfo files; its
  // sources also have legacy octal escapes the bundler refuses).
  external: ['node-pty', '@xterm/headless', 'commander', 'blessed'],
};
const output = (dir) => ({ dir, cleanDir: true, format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs' });

export default defineConfig([
  { ...common, input: { 'fast-wrap': 'dist/cli/fast-wrap.js', status: 'dist/cli/commands/status.js' }, output: output('dist/fast') },
  { ...common, input: { main: 'dist/cli/main.js' }, output: output('dist/full') },
]);
