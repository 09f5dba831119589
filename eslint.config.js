// Lint: typescript-eslint's recommended rules, plus the layer rules of STYLE.md §2:
// pure modules may not reach for I/O, and feature layers may not import each other.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const IO_MODULES = [
  'node:fs', 'node:fs/promises', 'fs', 'fs/promises',
  'node:child_process', 'child_process',
  'node-pty', 'chokidar', 'execa', 'node:net', 'node:http', 'node:https',
];

const PURE_FILES = [
  'src/**/parse.ts',
  'src/transcripts/line-reader.ts',
  'src/focus/focus-state.ts',
  'src/focus/focus-reports.ts',
  'src/pty/mode-tracker.ts',
  'src/recap/heuristic.ts',
  'src/recap/prompt.ts',
  'src/recap/context.ts',
  'src/recap/trigger.ts',
  'src/display/overlay.ts',
  'src/transcripts/shared-parse.ts',
  'src/transcripts/launch-args.ts',
  'src/transcripts/activity.ts',
  'src/config/hotkey.ts',
  'src/util/text-width.ts',
  'src/util/sanitize.ts',
  // attention (#21)
  'src/config/notify-option.ts',
  'src/display/attention.ts',
  'src/display/attention-order.ts',
  'src/display/boundary-writer.ts',
  'src/display/notify-text.ts',
];

const FEATURE_LAYERS = ['pty', 'focus', 'transcripts', 'recap', 'display'];

function layerRule(layer) {
  const others = FEATURE_LAYERS.filter((l) => l !== layer);
  return {
    files: [`src/${layer}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: others.map((o) => `**/${o}/**`), message: 'Feature layers never import each other; pass plain data through src/app.' },
          { group: ['**/app/**', '**/cli/**'], message: 'Feature layers do not import app or cli.' },
        ],
      }],
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.bench/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The CommonJS launchers in bin/ (bin/package.json): require() is how it loads the start-up bundle.
    files: ['**/*.cjs', 'bin/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', URL: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly', setImmediate: 'readonly', queueMicrotask: 'readonly', performance: 'readonly', fetch: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-control-regex': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  ...FEATURE_LAYERS.map(layerRule),
  {
    files: PURE_FILES,
    rules: {
      'no-restricted-imports': ['error', {
        paths: IO_MODULES.map((name) => ({ name, message: 'Pure module: no I/O here (STYLE.md §2). Move I/O to a sibling file.' })),
        patterns: [{ group: ['**/app/**', '**/cli/**'], message: 'Pure modules do not import app or cli.' }],
      }],
      'no-restricted-globals': ['error', { name: 'process', message: 'Pure module: take what you need as a parameter.' }],
    },
  },
);
