// The README starts with the two commands CI runs, and its options table is the one the options
// table generates (so the docs cannot drift from the code).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderOptionsMarkdown } from '../../src/config/load.js';
import { REPO_DIR } from '../helpers/shared.js';

const readme = readFileSync(join(REPO_DIR, 'README.md'), 'utf8');

describe('README', () => {
  it('opens with the install and test commands, and .ci/run runs that test command', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(firstBlock).toBe('npm install\nnpm test\n');
    expect(readFileSync(join(REPO_DIR, '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
  });

  it('has the options table generated from the options table', () => {
    const table = /<!-- options-table:start[^\n]*-->\n([\s\S]*?)\n<!-- options-table:end -->/.exec(readme)?.[1];
    expect(table).toBe(renderOptionsMarkdown());
  });
});
