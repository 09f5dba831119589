/**
 * `recapwrap resume REF`: when REF names one session of the index (any folder; id, id prefix, exact name,
 * or `@@name`; never a guess from part of a name), the plan that relaunches it: its agent, in its folder, with the agent's own resume flag,
 * and with `--next` the recap's next step as a draft to type (never sent). A session whose transcript is
 * gone starts a fresh session of the same agent, its reference block as the draft. Nothing here runs
 * anything; the index is loaded only when a REF is given.
 */
import { existsSync } from 'node:fs';
import type { Options } from '../../config/options-table.js';
import type { Env } from '../../config/paths.js';
import { describeExactMiss } from '../memory/loose-ref.js';
import { findAdapter } from '../../transcripts/registry.js';
import { sanitizeLine } from '../../util/sanitize.js';
import { shellQuoteForTerminal } from '../../util/shell-quote.js';
import type { AgentId } from '../../transcripts/types.js';
import { formatReferenceBlock } from '../picker/reference-block.js';

export interface ResumePlan {
  agent: AgentId;
  /** The session's id in the index. */
  id: string;
  /** The session's folder (the agent finds its sessions by it). */
  cwd: string;
  command: string;
  args: string[];
  /** Text to type into the agent's input once it is ready (bracketed paste, no Enter). */
  draft?: string;
  /** The transcript is gone: a fresh session of the agent, the reference block as the draft. */
  fresh: boolean;
  /** The session's name, for messages. */
  name: string;
  /** A one-line note for the user (no next step recorded, say). */
  note?: string;
}

export type ResumeRefResult = { kind: 'plan'; plan: ResumePlan } | { kind: 'not-one' } | { kind: 'error'; message: string };

/** `folder`: where to relaunch it instead of the session's own folder (`resume REF --cwd DIR`). */
export async function planResumeRef(input: { ref: string; cwd: string; env: Env; options: Options; next: boolean; folder?: string; fork?: boolean }): Promise<ResumeRefResult> {
  const { openSessionMemory } = await import('../memory/api.js');
  const memory = await openSessionMemory({ env: input.env, options: input.options, cwd: input.cwd });
  // No index (memory off, unsafe state folder): REF is a query over this folder, as before the index.
  if ('error' in memory) return { kind: 'not-one' };
  try {
    await memory.refresh({ ifIdle: true });
    // Only REF naming the session itself (its id, an id prefix, its exact name) relaunches it: a plain word
    // that matches part of a name (`auth` in auth-refactor) stays a query, so `resume auth` still lists;
    // `@@name` is a reference, never a query, so part of a name there is refused with the name it meant.
    const resolved = memory.resolve(input.ref, { cwd: input.cwd, exact: true });
    if (!resolved.ok) {
      if (input.ref.trim().startsWith('@@') && resolved.kind === 'none' && resolved.candidates.length > 0) return { kind: 'error', message: describeExactMiss(input.ref, resolved.candidates) };
      return { kind: 'not-one' };
    }
    const card = memory.card(resolved.row.id);
    if (!card) return { kind: 'not-one' };
    const agent = card.agent;
    const adapter = findAdapter(agent);
    const command = adapter?.command ?? agent;
    const cwd = input.folder ?? card.cwd;
    if (!existsSync(cwd)) {
      if (input.folder !== undefined) return { kind: 'error', message: `no folder ${sanitizeLine(input.folder)}` };
      // The name and folder come from a transcript, the REF from the command line: each one clean line.
      const ref = shellQuoteForTerminal(input.ref);
      return {
        kind: 'error',
        message: `the folder of session ${sanitizeLine(card.name)} is gone: ${sanitizeLine(card.cwd)}\n  relaunch it in another folder: recapwrap resume ${ref} --cwd DIR (or make the folder again); its card: recapwrap show ${ref}`,
      };
    }
    if (!card.transcriptExists || !existsSync(card.transcript)) {
      return { kind: 'plan', plan: { agent, id: card.id, cwd, command, args: [], draft: formatReferenceBlock(card), fresh: true, name: card.name } };
    }
    if (input.fork && !card.forkCommand) return { kind: 'error', message: `${agent} cannot fork a session (its CLI has no fork); resume ${sanitizeLine(card.name)} without --fork` };
    const [resumeCommand, ...args] = input.fork ? (card.forkCommand as string[]) : card.resumeCommand;
    const plan: ResumePlan = { agent, id: card.id, cwd, command: resumeCommand ?? command, args, fresh: false, name: card.name };
    if (input.next) {
      const next = card.next.find((s) => s.trim() !== '');
      if (next) plan.draft = next;
      else plan.note = `session ${sanitizeLine(card.name)} has no next step recorded; resuming without a draft`;
    }
    return { kind: 'plan', plan };
  } finally {
    memory.close();
  }
}
