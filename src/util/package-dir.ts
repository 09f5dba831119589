/**
 * This recapwrap's package folder (the one holding bin/recapwrap.js and a package.json named recapwrap),
 * found by walking up from this module: sources (src/<folder>/…, at any depth) and the bundle (dist/chunks/)
 * sit at different depths, so no fixed `../..` holds for both.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package folder above `from` (default: this module's folder), or undefined when none is found. */
export function findPackageDir(from: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  let dir = from;
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'bin', 'recapwrap.js'))) {
      try {
        if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'recapwrap') return dir;
      } catch {
        // No readable package.json here: keep walking up.
      }
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

let packageDir: string | undefined;
/** A file of the package (`packageFile('bin', 'recapwrap.js')`); the folder is looked up once, on first use. */
export function packageFile(...parts: string[]): string {
  packageDir ??= findPackageDir();
  if (!packageDir) throw new Error('Expected to find the recapwrap package (bin/recapwrap.js) above this module, got none');
  return join(packageDir, ...parts);
}
