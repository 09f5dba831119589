/** Placeholder for DESIGN-contract commands that are not built yet: one clear line, exit 2. */
export function notYetAvailable(name: string): number {
  process.stderr.write(`recapwrap: '${name}' is not yet available in this version\n`);
  return 2;
}
