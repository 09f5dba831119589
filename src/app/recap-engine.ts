/**
 * The recap engine as the live runtime sees it: draft(session) → one sanitized line, and a quick
 * "working: …" line. Until the recap layer's generators are wired in, drafts come from a small
 * built-in summary of the session (task, files changed, how the last turn ended, the agent's last words).
 */
import type { Options } from '../config/options-table.js';
import type { Env } from '../config/paths.js';
import type { AgentId, Session, TranscriptEvent } from '../transcripts/types.js';
import { sanitizeLine } from '../util/sanitize.js';
import { truncateToWidth } from '../util/text-width.js';
import type { RecapEngine } from './recap-wiring.js';

export const RECAP_LINE_MAX = 220;

export interface RecapEngineInput {
  options: Options;
  agent?: AgentId;
  cwd: string;
  env: Env;
}

function lastOf<K extends TranscriptEvent['kind']>(events: readonly TranscriptEvent[], kind: K): Extract<TranscriptEvent, { kind: K }> | undefined {
  for (let i = events.length - 1; i >= 0; i--) if (events[i]?.kind === kind) return events[i] as Extract<TranscriptEvent, { kind: K }>;
  return undefined;
}

function clipWords(text: string, max: number): string {
  return truncateToWidth(sanitizeLine(text), max);
}

// A short, true line about the session: the task, what changed, and how the last turn ended.
export function summarizeSession(session: Session): string {
  const events = session.events;
  const task = lastOf(events, 'user');
  if (!task) return 'recap: nothing asked yet in this session.';
  const sinceTask = events.slice(events.lastIndexOf(task));
  const files = [...new Set(sinceTask.flatMap((e) => (e.kind === 'tool-call' ? e.paths : [])))];
  const last = [...events].reverse().find((e) => ['turn-end', 'aborted', 'error', 'tool-call', 'tool-result', 'assistant'].includes(e.kind));
  const said = lastOf(sinceTask, 'assistant');
  let state: string;
  if (last?.kind === 'aborted') state = 'interrupted';
  else if (last?.kind === 'error') state = `stopped on an error: ${clipWords(last.text, 60)}`;
  else if (last?.kind === 'tool-call' || last?.kind === 'tool-result') state = 'still working';
  else state = 'turn finished';
  const parts = [`recap: "${clipWords(task.text, 60)}": ${state}`];
  if (files.length) parts.push(`changed ${files.slice(0, 3).join(', ')}${files.length > 3 ? ` +${files.length - 3}` : ''}`);
  let line = parts.join('; ') + '.';
  if (said && state === 'turn finished') line += ` Next: ${clipWords(said.text, 120)}`;
  return truncateToWidth(sanitizeLine(line), RECAP_LINE_MAX);
}

export function createRecapEngine(_input: RecapEngineInput): RecapEngine {
  return {
    draft: async (session) => summarizeSession(session),
    workingLine: (session) => {
      const task = lastOf(session.events, 'user');
      const call = lastOf(session.events, 'tool-call');
      const doing = call ? `${call.name}${call.paths[0] ? ` ${call.paths[0]}` : call.command ? ` ${call.command}` : ''}` : 'thinking';
      return truncateToWidth(sanitizeLine(`working: ${task ? `"${task.text}" — ` : ''}${doing}`), RECAP_LINE_MAX);
    },
  };
}
