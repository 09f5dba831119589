// The README opens with what recapwrap is, how to install it and `recapwrap demo`, then the test
// command CI runs (#28 point 10); the options table in docs/reference.md is the one the options table
// generates; and every command and flag the CLI registers is documented there (so the docs cannot
// drift from the code: a command or flag added without its line fails here).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userCommands } from '../../src/cli/completion.js';
import { createProgram } from '../../src/cli/main.js';
import { renderOptionsMarkdown } from '../../src/config/load.js';
import { REPO_DIR } from '../helpers/shared.js';

const readme = readFileSync(join(REPO_DIR, 'README.md'), 'utf8');
const reference = readFileSync(join(REPO_DIR, 'docs', 'reference.md'), 'utf8');

describe('README', () => {
  it('says what recapwrap is, how to install it and `recapwrap demo` in its first 15 lines', () => {
    const top = readme.split('\n').slice(0, 15).join('\n');
    expect(top).toMatch(/^# recapwrap\n\nrecapwrap is a launch prefix for coding-agent CLIs/);
    const install = /```sh\n([\s\S]*?)```/.exec(top)?.[1] ?? '';
    expect(install).toMatch(/^npm install\b/m);
    expect(install).toMatch(/^npm link\b/m);
    expect(install).toMatch(/^recapwrap demo\b/m);
  });

  it('then gives the test command, the one .ci/run runs', () => {
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks[1]).toBe('npm test\n');
    expect(readme.indexOf('npm test\n')).toBeLessThan(readme.indexOf('## '));
    expect(readFileSync(join(REPO_DIR, '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
  });

  it('names every command, and has an uninstall section', () => {
    for (const c of userCommands(createProgram())) expect(readme, c.name()).toContain(`\`recapwrap ${c.name()}`);
    expect(readme).toContain('`recapwrap help [command]`');
    expect(readme).toMatch(/^### Uninstall$/m);
  });
});

describe('docs/reference.md', () => {
  it('has the options table generated from the options table', () => {
    const table = /<!-- options-table:start[^\n]*-->\n([\s\S]*?)\n<!-- options-table:end -->/.exec(reference)?.[1];
    expect(table).toBe(renderOptionsMarkdown());
  });

  it('documents every command with every flag its --help lists', () => {
    const program = createProgram();
    const sectionOf = (name: string) => {
      const start = reference.indexOf(`### \`recapwrap ${name}`);
      expect(start, `a "### \`recapwrap ${name}\`" section`).toBeGreaterThanOrEqual(0);
      const end = reference.indexOf('\n### ', start + 1);
      return reference.slice(start, end < 0 ? undefined : end);
    };
    for (const c of userCommands(program)) {
      const section = sectionOf(c.name());
      for (const o of c.options) expect(section, `${c.name()} ${o.long}`).toContain(`\`${o.long}`);
    }
    sectionOf('help');
    // The wrapper's own flags: in its section or the options table.
    const wrap = sectionOf('[options] <agent>');
    for (const o of program.options) expect(wrap, o.long).toContain(`\`${o.long}`);
  });
});
