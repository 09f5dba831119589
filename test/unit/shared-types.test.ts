// src/types.ts is the one home of the plain types every layer shares (issue #20: Disposable, Env and the
// activity union were declared three times each). Every layer, pure files included, may import it; it
// may hold no runtime code and import nothing, so it never ties one layer to another.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { SHARED_TYPES_FILE } from '../../eslint.config.js';
import { REPO_DIR } from '../helpers/shared.js';

const eslint = new ESLint({ cwd: REPO_DIR });
const GUARD_RULES = new Set(['no-restricted-imports', 'no-restricted-globals', 'no-restricted-syntax']);

async function guardErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: `${REPO_DIR}/${filePath}` });
  return (result?.messages ?? []).filter((m) => m.ruleId !== null && GUARD_RULES.has(m.ruleId)).map((m) => m.message);
}

describe('shared types module', () => {
  it('lints clean as it is', async () => {
    const [result] = await eslint.lintFiles([SHARED_TYPES_FILE]);
    expect(result?.messages).toEqual([]);
  });

  it('every layer, a pure file too, may import it; layers still may not import each other', async () => {
    const use = "import type { ActivityState, Disposable, Env } from '../types.js';\nexport type X = [ActivityState, Disposable, Env];\n";
    for (const file of ['src/recap/heuristic.ts', 'src/display/tmux.ts', 'src/pty/pty-process.ts', 'src/focus/focus-state.ts', 'src/transcripts/activity.ts']) {
      expect(await guardErrors(file, use), file).toEqual([]);
    }
    expect(await guardErrors('src/transcripts/claude/parse.ts', "import type { Env } from '../../types.js';\nexport type X = Env;\n")).toEqual([]);
    expect(await guardErrors('src/recap/heuristic.ts', `${use}import { barRow } from '../display/overlay.js';\nexport const y = barRow;\n`)).toHaveLength(1);
  });

  it('holds no runtime code and imports nothing', async () => {
    expect(await guardErrors(SHARED_TYPES_FILE, 'export type A = 1;\nexport interface B { b: A }\n')).toEqual([]);
    expect(await guardErrors(SHARED_TYPES_FILE, 'export const LIMIT_MS = 5;\n')).toHaveLength(1);
    expect(await guardErrors(SHARED_TYPES_FILE, 'export function f(): void {}\n')).toHaveLength(1);
    expect(await guardErrors(SHARED_TYPES_FILE, "import type { AgentId } from './transcripts/types.js';\nexport type A = AgentId;\n")).toHaveLength(1);
    expect(await guardErrors(SHARED_TYPES_FILE, 'const x = 1;\nexport type A = typeof x;\n')).toHaveLength(1);
  });
});
