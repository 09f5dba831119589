// Every runtime dependency in package.json is one the code imports (#20: chokidar and execa were listed
// and unused); docs/internals.md says why each is there.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_DIR } from '../helpers/shared.js';

const pkg = JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
const sources = (readdirSync(join(REPO_DIR, 'src'), { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => readFileSync(join(REPO_DIR, 'src', f), 'utf8'))
  .join('\n');

describe('dependencies', () => {
  it.each(Object.keys(pkg.dependencies))('%s is imported by the source', (name) => {
    expect(sources).toMatch(new RegExp(`(from|import\\(|require\\()\\s*['"]${name.replace('/', '\\/')}(/[^'"]*)?['"]`));
  });

  it('docs/internals.md says why each dependency is there', () => {
    const internals = readFileSync(join(REPO_DIR, 'docs', 'internals.md'), 'utf8');
    for (const name of Object.keys(pkg.dependencies)) expect(internals).toContain(`\`${name}\``);
  });
});
