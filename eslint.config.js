// Lint: typescript-eslint's recommended rules, plus the layer rules of STYLE.md §2:
// pure modules may not reach for I/O, and feature layers may not import each other.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const IO_MODULES = [
  'node:fs', 'node:fs/promises', 'fs', 'fs/promises',
  'node:child_process', 'child_process',
  'node-pty', 'chokidar', 'execa', 'node:net', 'node:http', 'node:https',
];

// Files that must stay pure (no I/O, no process): each layer's own, then the shared helpers outside the layers.
export const PURE_FILES = [
  'src/transcripts/*/parse.ts',
  'src/transcripts/line-reader.ts',
  'src/transcripts/shared-parse.ts',
  'src/transcripts/launch-args.ts',
  'src/transcripts/activity.ts',
  'src/focus/focus-reports.ts',
  'src/focus/focus-evidence.ts',
  'src/pty/mode-tracker.ts',
  'src/recap/heuristic.ts',
  'src/recap/prompt.ts',
  'src/recap/context.ts',
  'src/recap/trigger.ts',
  'src/recap/compose.ts',
  'src/recap/paths.ts',
  'src/recap/project-label.ts',
  'src/recap/next-step.ts',
  'src/display/overlay.ts',
  'src/config/hotkey.ts',
  'src/util/text-width.ts',
  'src/util/sanitize.ts',
  'src/util/plural.ts',
  // attention (#21)
  'src/config/notify-option.ts',
  'src/display/attention.ts',
  'src/display/attention-order.ts',
  'src/display/boundary-writer.ts',
  'src/display/notify-text.ts',
  // session memory (#25)
  'src/memory/secrets.ts',
  'src/memory/fts-query.ts',
  'src/memory/names.ts',
  'src/memory/condense.ts',
  'src/memory/passages.ts',
  // newcomer (#28)
  'src/recap/substance.ts',
  'src/cli/suggest.ts',
  // model summaries (#25)
  'src/recap/summary-prompt.ts',
  'src/recap/summary-schema.ts',
  'src/recap/summary-gate.ts',
  // MCP server (#26)
  'src/recap/question-prompt.ts',
  // reference picker (#26)
  'src/display/picker.ts',
  'src/display/picker-view.ts',
  'src/app/picker/reference-block.ts',
  'src/app/wrap/recap-room.ts',
  'src/util/shell-quote.ts',
  'src/util/tmux-version.ts',
  // many machines (#35)
  'src/app/hosts/config.ts',
  'src/app/hosts/ssh-argv.ts',
  'src/app/hosts/remote-schema.ts',
  'src/app/hosts/merge.ts',
  // trust at the edges (#40)
  'src/config/project-rule.ts',
  // reader, sharing forms (#41)
  'src/reader/export-format.ts',
  'src/reader/markdown.ts',
  'src/reader/html.ts',
];

export const FEATURE_LAYERS = ['pty', 'focus', 'transcripts', 'recap', 'display', 'memory'];

const NO_APP_OR_CLI = { group: ['**/app/**', '**/cli/**'], message: 'Feature layers and pure modules do not import app or cli.' };
const NO_IO = IO_MODULES.map((name) => ({ name, message: 'Pure module: no I/O here (STYLE.md §2). Move I/O to a sibling file.' }));

// The plain types every layer shares (Disposable, Env, the activity union…): layers reach it as
// `../types.js`, which no layer pattern above names, so each may import it. It stays a leaf with no
// runtime code, so importing it can never tie one layer to another.
export const SHARED_TYPES_FILE = 'src/types.ts';
const SHARED_TYPES_ONLY = {
  files: [SHARED_TYPES_FILE],
  rules: {
    'no-restricted-syntax': [
      'error',
      { selector: 'Program > :not(TSTypeAliasDeclaration, TSInterfaceDeclaration, ExportNamedDeclaration)', message: 'src/types.ts holds type declarations only: no imports, no runtime code.' },
      { selector: 'ExportNamedDeclaration[declaration.type!=/^TS(TypeAlias|Interface)Declaration$/]', message: 'src/types.ts exports type declarations only.' },
    ],
  },
};

function noOtherLayers(layer) {
  const others = FEATURE_LAYERS.filter((l) => l !== layer);
  return { group: others.map((o) => `**/${o}/**`), message: 'Feature layers never import each other; pass plain data through src/app.' };
}

// One config block per (layer, purity): a later flat-config block replaces a rule's options rather than
// adding to them, so a pure file inside a layer gets both rule sets merged here, never one instead of the other.
function importRules() {
  const blocks = [];
  const inLayer = (layer) => (glob) => glob.startsWith(`src/${layer}/`);
  for (const layer of FEATURE_LAYERS) {
    blocks.push({
      files: [`src/${layer}/**/*.ts`],
      ignores: ['**/*.test.ts'],
      rules: { 'no-restricted-imports': ['error', { patterns: [noOtherLayers(layer), NO_APP_OR_CLI] }] },
    });
    const pure = PURE_FILES.filter(inLayer(layer));
    if (pure.length) {
      blocks.push({
        files: pure,
        rules: { 'no-restricted-imports': ['error', { paths: NO_IO, patterns: [noOtherLayers(layer), NO_APP_OR_CLI] }] },
      });
    }
  }
  const outside = PURE_FILES.filter((glob) => !FEATURE_LAYERS.some((layer) => inLayer(layer)(glob)));
  blocks.push({ files: outside, rules: { 'no-restricted-imports': ['error', { paths: NO_IO, patterns: [NO_APP_OR_CLI] }] } });
  blocks.push({
    files: PURE_FILES,
    rules: { 'no-restricted-globals': ['error', { name: 'process', message: 'Pure module: take what you need as a parameter.' }] },
  });
  return blocks;
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.bench/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The CommonJS launchers in bin/ (bin/package.json): require() is how they load the build in dist/.
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
  ...importRules(),
  SHARED_TYPES_ONLY,
);
