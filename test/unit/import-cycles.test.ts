// No import circle anywhere in src/ (issue #20: app/ had wrap-session <-> live-runtime and overlay-setup).
// Every relative import of every src/**/*.ts (tests excluded) counts: static, `export … from`, dynamic
// `import()` and `import type`. Type-only imports count on purpose: the circle of #20 was closed by
// them, and a type-only circle still means neither file can be read, moved or replaced without the
// other. TypeScript's own pre-processor reads the imports (comments and strings are no trap for it).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_DIR } from '../helpers/shared.js';

const SRC_DIR = join(REPO_DIR, 'src');

type ImportGraph = Map<string, string[]>;

// Every source file of src/ (repo-relative), without tests and declaration files.
function listSourceFiles(): string[] {
  return (readdirSync(SRC_DIR, { recursive: true }) as string[])
    .map((f) => f.split('\\').join('/'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
    .map((f) => `src/${f}`)
    .sort();
}

// The relative imports of each file, resolved to the .ts files they name (`./x.js` is `./x.ts`).
function readImportGraph(files: readonly string[]): ImportGraph {
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const source = readFileSync(join(REPO_DIR, file), 'utf8');
    const targets = ts
      .preProcessFile(source, true, true)
      .importedFiles.map((ref) => ref.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(REPO_DIR, resolve(REPO_DIR, dirname(file), name)).split('\\').join('/').replace(/\.js$/, '.ts'))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Each import circle once, as the path that closes it: `a.ts -> b.ts -> a.ts`. */
function findImportCycles(graph: ImportGraph): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const done = new Set<string>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (file: string): void => {
    seen.add(file);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (onStack.has(next)) cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!seen.has(next)) visit(next);
    }
    stack.pop();
    onStack.delete(file);
    done.add(file);
  };
  for (const file of graph.keys()) if (!done.has(file)) visit(file);
  return cycles;
}

describe('import cycles', () => {
  it('src/ has no import circle (type-only and dynamic imports included)', () => {
    const files = listSourceFiles();
    const graph = readImportGraph(files);
    expect(files.length).toBeGreaterThan(50);
    expect([...graph.values()].flat().length).toBeGreaterThan(100);
    // To break one: move what both sides need into a leaf module (types only, as src/types.ts), or
    // pass it in as a value instead of importing back.
    expect(findImportCycles(graph).map((cycle) => cycle.join(' -> ')), 'import circles in src/').toEqual([]);
  });

  it('the finder names the circle it finds', () => {
    const graph: ImportGraph = new Map([
      ['src/app/a.ts', ['src/app/b.ts', 'src/types.ts']],
      ['src/app/b.ts', ['src/app/c.ts']],
      ['src/app/c.ts', ['src/app/a.ts']],
      ['src/types.ts', []],
    ]);
    expect(findImportCycles(graph)).toEqual([['src/app/a.ts', 'src/app/b.ts', 'src/app/c.ts', 'src/app/a.ts']]);
  });
});
