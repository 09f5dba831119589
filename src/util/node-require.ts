/**
 * A synchronous load of a Node built-in on first use. The build is CommonJS (rolldown.config.mjs), where
 * `require` is the module's own; an `import()` there stays an ES module import and starts Node's ES
 * module loader (~1.5 ms, on a wrapper's start path). Run from the sources (vitest, ESM) createRequire serves.
 */
import { createRequire } from 'node:module';

export function nodeRequire<T>(id: `node:${string}`): T {
  const load = typeof require === 'function' ? require : createRequire(import.meta.url);
  return load(id) as T;
}
