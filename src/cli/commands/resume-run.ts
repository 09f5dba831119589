/**
 * `recapwrap resume`'s work: list this folder's past sessions, render them, pick one and relaunch it.
 * Loaded when the command runs (resume.ts registers it).
 */
import { resolve } from 'node:path';
import { resolveConfig } from '../../config/load.js';
import type { Env } from '../../config/paths.js';
import { AGENT_IDS, isAgentId } from '../../transcripts/agent-ids.js';
import type { AgentId } from '../../transcripts/types.js';
import { sanitizeLine, stringifyJsonSafely } from '../../util/sanitize.js';
import { truncateToWidth } from '../../util/text-width.js';
import { formatSince } from '../../util/age.js';

export interface ResumeCliOptions {
  agent?: string;
  cwd?: string;
  list?: boolean;
  json?: boolean;
  pick?: string;
  limit?: string;
}

type PastSession = import('../../app/resume.js').PastSession;

export function renderSessions(sessions: readonly PastSession[], cols: number, now: number): string {
  return sessions
    .map((s, i) => {
      const what = sanitizeLine(s.title ?? s.firstPrompt ?? s.id);
      const head = truncateToWidth(`${String(i + 1).padStart(2)}. ${s.agent.padEnd(6)} ${formatSince(s.mtime, now).padStart(3)} ago  ${what}`, cols);
      return `${head}\n    ${truncateToWidth(s.recap.line, Math.max(20, cols - 4))}`;
    })
    .join('\n');
}

export interface ResumeDeps {
  env: Env;
  cwd: string;
  columns: number;
  now: number;
  interactive: boolean;
  ask(question: string): Promise<string>;
  /** Relaunch: run the agent under recapwrap (the real one wraps it in this process). */
  launch(command: string, args: string[], agent: AgentId, cwd: string): Promise<number>;
}

export async function runResume(query: string | undefined, options: ResumeCliOptions, deps: ResumeDeps): Promise<{ out: string; err: string; code: number }> {
  if (options.agent !== undefined && !isAgentId(options.agent)) {
    return { out: '', err: `recapwrap: Expected the \`--agent\` option to be one of ${AGENT_IDS.join(', ')}, got \`${options.agent}\`\n`, code: 2 };
  }
  const pick = options.pick === undefined ? undefined : Number(options.pick);
  if (pick !== undefined && (!Number.isInteger(pick) || pick < 1)) return { out: '', err: `recapwrap: --pick takes a session number from the list (1, 2, …), got \`${options.pick}\`\n`, code: 2 };
  const limit = options.limit === undefined ? 30 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1) return { out: '', err: `recapwrap: --limit takes a positive number, got \`${options.limit}\`\n`, code: 2 };
  const cwd = resolve(options.cwd ?? deps.cwd);
  const config = resolveConfig({ env: deps.env, cwd });
  const { listPastSessions } = await import('../../app/resume.js');
  const { sessions, warnings } = await listPastSessions({ cwd, env: deps.env, options: config.options, agent: options.agent as AgentId | undefined, query, limit });
  const err = warnings.map((w) => `recapwrap: warning: ${w}\n`).join('');
  if (options.json) return { out: stringifyJsonSafely(sessions.map((s, i) => ({ index: i + 1, ...s })), 2) + '\n', err, code: 0 };
  if (sessions.length === 0) {
    const what = options.agent ? `${options.agent} sessions` : 'agent sessions';
    return { out: '', err: err + `recapwrap: no ${what} for ${cwd}${query ? ` matching "${query}"` : ''}\n`, code: 1 };
  }
  const listing = renderSessions(sessions, deps.columns, deps.now) + '\n';
  if (options.list) return { out: listing, err, code: 0 };
  let index = pick;
  if (index === undefined) {
    if (!deps.interactive) return { out: listing, err: err + 'recapwrap: not a terminal: pick one with --pick N\n', code: 2 };
    process.stdout.write(listing);
    const answer = (await deps.ask(`resume which? [1-${sessions.length}, Enter = 1, q = quit] `)).trim();
    if (answer === 'q' || answer === 'quit') return { out: '', err, code: 0 };
    index = answer === '' ? 1 : Number(answer);
    if (!Number.isInteger(index)) return { out: '', err: err + `recapwrap: not a session number: ${answer}\n`, code: 2 };
  }
  const chosen = sessions[index - 1];
  if (!chosen) return { out: '', err: err + `recapwrap: no session ${index}: the list has ${sessions.length}\n`, code: 2 };
  const [command, ...args] = chosen.command as [string, ...string[]];
  if (err) process.stderr.write(err);
  const code = await deps.launch(command, args, chosen.agent, cwd);
  return { out: '', err: '', code };
}
