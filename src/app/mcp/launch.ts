/**
 * The command an agent runs to start this recapwrap's MCP server: this Node's absolute path and the
 * absolute path of this package's launcher (bin/recapwrap.js), so it works without PATH and with the
 * Node that built recapwrap's native modules. Found by walking up from this module (sources and dist/
 * sit at different depths).
 */
import { join } from 'node:path';
import { findPackageDir } from '../../util/package-dir.js';
import type { Launch } from './agent-configs.js';

export { findPackageDir };

export function mcpLaunch(nodePath: string = process.execPath, packageDir: string | undefined = findPackageDir()): Launch {
  if (!packageDir) throw new Error('Expected to find the recapwrap package (bin/recapwrap.js) above this module, got none');
  return { command: nodePath, args: [join(packageDir, 'bin', 'recapwrap.js'), 'mcp'] };
}
