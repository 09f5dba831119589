/**
 * The command an agent runs to start this recapwrap's MCP server: this Node's absolute path and the
 * absolute path of this package's launcher (bin/recapwrap.js), so it works without PATH and with the
 * Node that built recapwrap's native modules. Found by walking up from this module (sources and dist/
 * sit at different depths).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Launch } from './agent-configs.js';

/** The package folder of this recapwrap (the one holding bin/recapwrap.js and a package.json named recapwrap). */
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

export function mcpLaunch(nodePath: string = process.execPath, packageDir: string | undefined = findPackageDir()): Launch {
  if (!packageDir) throw new Error('Expected to find the recapwrap package (bin/recapwrap.js) above this module, got none');
  return { command: nodePath, args: [join(packageDir, 'bin', 'recapwrap.js'), 'mcp'] };
}
