// The layer guard of STYLE.md §2 (eslint.config.js) holds for every file: a pure file inside a feature
// layer may neither do I/O nor import another layer (the hole of issue #20: the pure-file block used to
// replace the layer block for those files), and every pure-file glob names files that exist.
import { readdirSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { FEATURE_LAYERS, PURE_FILES } from '../../eslint.config.js';
import { REPO_DIR } from '../helpers/shared.js';

const eslint = new ESLint({ cwd: REPO_DIR });

// Node 20 has no fs.globSync: the globs here use only `*` (one path segment) and `**`.
function globToRegExp(glob: string): RegExp {
  const body = glob.split('**').map((part) => part.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')).join('.*');
  return new RegExp(`^${body}$`);
}
const SRC_FILES = (readdirSync(`${REPO_DIR}/src`, { recursive: true }) as string[]).map((f) => `src/${f.split('\\').join('/')}`);

async function importErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: `${REPO_DIR}/${filePath}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-globals').map((m) => m.message);
}

describe('layer guard', () => {
  it('every pure-file glob matches at least one file', () => {
    for (const glob of PURE_FILES) expect(SRC_FILES.filter((f) => globToRegExp(glob).test(f)), glob).not.toHaveLength(0);
    expect(SRC_FILES.filter((f) => globToRegExp('src/transcripts/*/parse.ts').test(f))).toHaveLength(5);
    expect(SRC_FILES.filter((f) => globToRegExp('src/recap/nothing-here.ts').test(f))).toHaveLength(0);
  });

  it('a pure file inside a layer may not import another layer', async () => {
    expect(await importErrors('src/recap/heuristic.ts', "import { barRow } from '../display/overlay.js';\nexport const x = barRow;\n")).toEqual([
      expect.stringContaining('Feature layers never import each other'),
    ]);
  });

  it('an impure file inside a layer may not import another layer either', async () => {
    expect(await importErrors('src/recap/engine.ts', "import { barRow } from '../display/overlay.js';\nexport const x = barRow;\n")).toHaveLength(1);
  });

  it('a pure file may not do I/O or read process', async () => {
    const errors = await importErrors('src/transcripts/claude/parse.ts', "import { readFileSync } from 'node:fs';\nexport const x = [readFileSync, process.env];\n");
    expect(errors).toHaveLength(2);
  });

  it('pure helpers outside the layers may not import app or cli', async () => {
    expect(await importErrors('src/util/sanitize.ts', "import { runWrap } from '../app/wrap/run-wrap.js';\nexport const x = runWrap;\n")).toHaveLength(1);
  });

  it('an allowed import lints clean', async () => {
    expect(await importErrors('src/recap/heuristic.ts', "import { sanitizeLine } from '../util/sanitize.js';\nexport const x = sanitizeLine;\n")).toEqual([]);
  });

  it('lists every feature layer', () => {
    expect(FEATURE_LAYERS).toEqual(['pty', 'focus', 'transcripts', 'recap', 'display', 'memory']);
  });
});
