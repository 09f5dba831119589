/** Pure: reading an agent's command line the way its own option parser does (`--flag=value` or `--flag value`). */

/** `--session=x` → `--session`; other arguments as they are. */
export function flagName(arg: string): string {
  const eq = arg.indexOf('=');
  return arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
}

/** The value of the flag at `i`: after its `=`, or the next argument unless that is a flag itself. */
export function flagValue(args: readonly string[], i: number): string | undefined {
  const arg = args[i] as string;
  const eq = arg.indexOf('=');
  if (arg.startsWith('--') && eq > 0) return arg.slice(eq + 1);
  const next = args[i + 1];
  return next !== undefined && !next.startsWith('-') ? next : undefined;
}
