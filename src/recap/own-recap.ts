/**
 * The agents' own recaps, pure (docs/agent-recaps.md): which one is fresh (written after the last turn, so
 * it is the recap of the session as it stands), the facts an agent's rule looks at, whether that rule
 * covers a return (the agent shows a recap of its own: recapwrap draws no second bar), when a while-away
 * agent makes its recap, and the Recap an own recap becomes. No I/O and no clock: times come in.
 */
import type { OwnRecapRule } from '../types.js';
import { sanitizeLine } from '../util/sanitize.js';
import { fitRecapText } from './compose.js';
import { RECAP_LINE_MAX_CHARS, type Recap, type RecapEvent } from './types.js';

/** `agentRecaps`: use the agent's own recap where it makes one, turn it off for recapwrap's, or show both. */
export const AGENT_RECAPS_MODES = ['use', 'replace', 'both'] as const;
export type AgentRecapsMode = (typeof AGENT_RECAPS_MODES)[number];

/**
 * A covered return draws no bar only once the agent has had this long to make its recap (Claude Code and
 * Codex abort one still being made when focus comes back; a model call takes a few seconds).
 */
export const OWN_RECAP_MAKE_MS = 10_000;

/** The agent's own recap that is the recap of the session now: its text, when it was written. */
export interface FreshOwnRecap {
  text: string;
  ts?: number;
  sourceId?: string;
}

/** What an agent's rule looks at, from the transcript (ownRecapFacts). */
export interface OwnRecapFacts {
  /** The agent's own recap written after the last turn, if any. */
  fresh?: FreshOwnRecap;
  /** When the last turn ended (epoch ms), if it has. */
  turnEndAt?: number;
  /** The rule's count (user messages, prompts or turns) in the session... */
  count: number;
  /** ...and since the agent's last own recap in the file (all of them when it wrote none). */
  sinceLast: number;
  /** The file holds an own recap of the agent. */
  anyOwn: boolean;
}

// Events that are part of a turn: one after an own recap makes it stale (a turn followed it).
const TURN_KINDS = new Set<RecapEvent['kind']>(['user', 'assistant', 'thinking', 'tool-call', 'tool-result', 'aborted', 'error', 'summary']);

/** The agent's own recap that no turn followed, if the session ends on one (with only turn ends, titles or model changes after it). */
export function freshOwnRecap(events: readonly RecapEvent[]): FreshOwnRecap | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as RecapEvent;
    if (e.kind === 'agent-recap') return e.text.trim() ? { text: e.text, ts: e.ts, sourceId: e.sourceId } : undefined;
    if (TURN_KINDS.has(e.kind) || e.kind === 'exit') return undefined;
  }
  return undefined;
}

function counted(e: RecapEvent, counts: OwnRecapRule['counts']): boolean {
  switch (counts) {
    case 'user-messages':
      return e.kind === 'user' || e.kind === 'tool-result';
    case 'prompts':
      // Qwen Code counts prompts typed between turns: not slash commands, not messages typed mid-turn.
      return e.kind === 'user' && !e.command && !e.midTurn;
    case 'turns':
      return e.kind === 'turn-end';
    default:
      return counts satisfies never;
  }
}

/** The facts of a session an agent's rule looks at (`counts` of the rule; user messages when none). */
export function ownRecapFacts(events: readonly RecapEvent[], counts: OwnRecapRule['counts'] = 'user-messages'): OwnRecapFacts {
  let count = 0;
  let sinceLast = 0;
  let anyOwn = false;
  let turnEndAt: number | undefined;
  for (const e of events) {
    if (e.kind === 'agent-recap') {
      anyOwn = true;
      sinceLast = 0;
    } else if (counted(e, counts)) {
      count++;
      sinceLast++;
    }
    if (e.kind === 'turn-end' || e.kind === 'aborted' || e.kind === 'error') turnEndAt = e.ts ?? turnEndAt;
    else if (e.kind === 'user') turnEndAt = undefined;
  }
  const fresh = freshOwnRecap(events);
  return { ...(fresh ? { fresh } : {}), ...(turnEndAt !== undefined ? { turnEndAt } : {}), count, sinceLast, anyOwn };
}

/** The session holds enough for the agent to make a recap (its minimum, and enough since its last one). */
export function ownRecapEligible(rule: OwnRecapRule, facts: OwnRecapFacts, sinceLastCovered?: number): boolean {
  if (facts.fresh) return false; // the last thing in the file is already its recap: it makes no second one
  if (facts.count < rule.minCount) return false;
  const since = rule.writes ? (facts.anyOwn ? facts.sinceLast : Infinity) : (sinceLastCovered ?? Infinity);
  return since >= rule.minSinceLast;
}

/**
 * When a while-away agent makes its recap for an absence that began at `awaySince` (epoch ms), or
 * undefined when it makes none (not eligible, the turn has not ended, or too late for it).
 */
export function ownRecapDueAt(rule: OwnRecapRule, facts: OwnRecapFacts, awaySince: number, sinceLastCovered?: number): number | undefined {
  if (rule.when !== 'while-away' || facts.turnEndAt === undefined) return undefined;
  if (!ownRecapEligible(rule, facts, sinceLastCovered)) return undefined;
  const base = rule.from === 'turn-or-blur' ? Math.max(facts.turnEndAt, awaySince) : facts.turnEndAt;
  const at = Math.max(base + rule.delayMs, awaySince + (rule.minBlurMs ?? 0));
  if (rule.staleAfterMs !== undefined && at - facts.turnEndAt > rule.staleAfterMs) return undefined;
  return at;
}

/**
 * The agent's own rule shows a recap for this return (away from `awaySince` to `backAt`, the session idle):
 * a while-away agent made one before the return (OWN_RECAP_MAKE_MS to make it), an on-return agent makes
 * one now. `sinceLastCovered`: the rule's count since the last return it covered (agents that do not
 * write theirs; the caller keeps it).
 */
export function ownRecapCovers(rule: OwnRecapRule, facts: OwnRecapFacts, awaySince: number, backAt: number, sinceLastCovered?: number): boolean {
  if (rule.when === 'on-return') return backAt - awaySince >= rule.delayMs && ownRecapEligible(rule, facts, sinceLastCovered);
  const due = ownRecapDueAt(rule, facts, awaySince, sinceLastCovered);
  return due !== undefined && backAt >= due + OWN_RECAP_MAKE_MS;
}

/** The Recap JSON `generator` of an agent's own recap. */
export function ownRecapGenerator(agent: string): { type: 'agent'; agent: string; own: true } {
  return { type: 'agent', agent, own: true };
}

const LABEL = 'recap: ';

/** An own recap as a recap line: the agent's words fitted like any recap (≤ 220 chars, the next step kept), with the label. */
export function ownRecapLine(text: string): string {
  // A label of the agent's own ("recap:", "※ recap:") is not said twice.
  const words = sanitizeLine(text.replace(/\s+/g, ' ')).trim().replace(/^(※\s*)?recap:\s*/i, '');
  return LABEL + fitRecapText(words, RECAP_LINE_MAX_CHARS - LABEL.length);
}

/** The Recap an own recap makes: its line and generator over the heuristic's card (headline, done, artifacts, status). */
export function recapFromOwn(heuristic: Recap, own: FreshOwnRecap, agent: string): Recap {
  const { parts: _heuristicParts, ...card } = heuristic;
  return { ...card, line: ownRecapLine(own.text), generator: ownRecapGenerator(agent), ...(own.ts ? { createdAt: new Date(own.ts).toISOString() } : {}) };
}
