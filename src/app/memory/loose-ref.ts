/**
 * What the commands say when a REF found a session only by words of its name (the index's fuzzy step):
 * a command that reads says which session it shows instead; one that writes or launches refuses the guess
 * and names the session it would have taken. Words only: resolving is api.ts's, printing the commands'.
 */
import { normalizeUserName } from '../../memory/names.js';
import { sanitizeLine } from '../../util/sanitize.js';

// The name as the user meant it: `@@name` is a name too.
const asked = (ref: string) => JSON.stringify(sanitizeLine(ref.trim().replace(/^@@/, '')));

/** A reader's note (stderr): no session has that name; the closest match is shown. */
export function describeLooseMatch(ref: string, name: string, verb: 'showing' | 'reading'): string {
  return `no session named ${asked(ref)}; ${verb} ${JSON.stringify(sanitizeLine(name))}`;
}

/**
 * A writer's refusal, given the sessions a fuzzy match would have taken (newest first, as resolve lists
 * them): their names, so the user can type the full one.
 */
export function describeExactMiss(ref: string, candidates: readonly { name: string }[]): string {
  const names = [...new Set(candidates.map((c) => c.name))].slice(0, 3).map((n) => JSON.stringify(sanitizeLine(n)));
  const which = names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1] as string}`;
  return `no session named ${asked(ref)}; did you mean ${which}? (give its full name)`;
}

/**
 * Whether REF names this session itself (its id, an id prefix, its exact name; `@@name` too), as an exact
 * resolve would: for a card that came from elsewhere (a host's `show --json`, which takes part of a name).
 */
export function namesExactly(ref: string, row: { id: string; name: string }): boolean {
  const r = ref.trim();
  const bare = r.replace(/^@@/, '');
  if (r === bare && (row.id === r || (r.length >= 4 && row.id.startsWith(r)))) return true;
  return row.name === (normalizeUserName(bare) ?? bare);
}
