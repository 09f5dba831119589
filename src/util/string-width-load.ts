/**
 * string-width, loaded on first use. Its emoji pattern (`^\p{RGI_Emoji}$` with the `v` flag) is parsed
 * when its code is compiled: 19 ms on a quiet machine, 30-50 ms on a busy one, paid by every full-CLI
 * command that loaded the display code (`sessions --json`, `status`, `doctor`), though text is almost
 * always ASCII and measured without it (text-width.ts). In the CommonJS build it is its own file
 * (dist/util/string-width.cjs, every output file sits two folders below the package); run from the
 * sources (vitest, the benches' bundles in .bench/), the package itself is required, an ES module: that
 * needs Node 20.19 or later (the built CLI does not).
 */
import { createRequire } from 'node:module';

type StringWidth = typeof import('string-width').default;

let stringWidth: StringWidth | undefined;

/** Whether string-width was loaded in this process (tests: text measured without it). */
export const stringWidthLoaded = (): boolean => stringWidth !== undefined;

export function loadStringWidth(): StringWidth {
  if (stringWidth) return stringWidth;
  stringWidth = loadBuilt() ?? (createRequire(import.meta.url)('string-width') as { default: StringWidth }).default;
  return stringWidth;
}

// The built file, from the CommonJS build; undefined when run from the sources (no such file beside them).
function loadBuilt(): StringWidth | undefined {
  // Through a variable: the bundler leaves the call alone (the path names a built file, not a source).
  const load = typeof require === 'function' ? require : undefined;
  try {
    return load ? (load('../util/string-width.cjs') as { stringWidth: StringWidth }).stringWidth : undefined;
  } catch {
    return undefined; // From the sources: vitest defines `require` too
  }
}
