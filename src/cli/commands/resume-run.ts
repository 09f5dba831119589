/**
 * `recapwrap resume`'s work: list this folder's past sessions, render them, pick one and relaunch it.
 * Loaded when the command runs (resume.ts registers it).
 */
import { resolve } from 'node:path';
import { formatExpected, resolveConfig } from '../../config/load.js';
import type { Env } from '../../config/paths.js';
import { AGENT_IDS, isAgentId } from '../../transcripts/agent-ids.js';
import type { AgentId } from '../../transcripts/types.js';
import { composeRecap, recapText } from '../../recap/compose.js';
import { sanitizeLine, stringifyJsonSafely } from '../../util/sanitize.js';
import { shellQuoteForTerminal } from '../../util/shell-quote.js';
import { displayWidth, truncateToWidth } from '../../util/text-width.js';
import { formatSince, shortenDir } from '../../util/age.js';
import { getHomeDir } from '../../config/paths.js';
import { parseCount } from '../count-option.js';

export interface ResumeCliOptions {
  agent?: string;
  cwd?: string;
  list?: boolean;
  json?: boolean;
  pick?: string;
  limit?: string;
  all?: boolean;
  /** Also type the recap's next step into the agent's input as a draft (never sent). */
  next?: boolean;
  // many machines (#35): app/hosts
  host?: string[];
  allHosts?: boolean;
  /** Resume as a new session branched from the old one (the agent's own fork). */
  fork?: boolean;
}

type PastSession = import('../../app/resume/resume.js').PastSession;

/** A row's title keeps at least this many cells before the folder is shown beside it. */
const TITLE_MIN = 20;

// Leading quoted prompt of a recap ("…" — ), when the row's head already shows that prompt or title.
const QUOTED_HEAD = /^["“]([^"”]*)["”]\s*(?:[—–:-]\s*)?/u;

/** The recap text for a row under `what`: without a quote of the same prompt (four rows would read alike). */
export function recapBesideTitle(line: string, what: string): string {
  const text = recapText(line);
  const quoted = QUOTED_HEAD.exec(text);
  if (!quoted) return text;
  const inner = (quoted[1] as string).replace(/…$/u, '').trim().toLowerCase();
  const head = what.trim().toLowerCase();
  if (inner.length === 0 || !(head.startsWith(inner) || inner.startsWith(head))) return text;
  const rest = text.slice(quoted[0].length);
  return rest ? rest.charAt(0).toUpperCase() + rest.slice(1) : text;
}

export function renderSessions(sessions: readonly PastSession[], cols: number, now: number, showFolder = false, home = ''): string {
  return sessions
    .map((s, i) => {
      const what = sanitizeLine(s.title ?? s.firstPrompt ?? s.id);
      const live = s.live ? `  [live${s.live.pane ? ` in ${sanitizeLine(s.live.pane)}` : ''}]` : '';
      // Its name in the index across folders: what `resume NAME` and `show NAME` take.
      const name = showFolder && s.name ? `  ${sanitizeLine(s.name)}` : '';
      const lead = `${String(i + 1).padStart(2)}. ${s.agent.padEnd(6)} ${formatSince(s.mtime, now).padStart(3)} ago${live}${name}`;
      // The folder only where the title keeps some room (the recap below names the project).
      const folder = showFolder ? `  ${sanitizeLine(shortenDir(s.cwd, home, 24))}` : '';
      const where = displayWidth(lead + folder) + 2 + TITLE_MIN <= cols ? folder : '';
      const head = truncateToWidth(`${lead}${where}  ${what}`, cols);
      const room = Math.max(20, cols - 4);
      return `${head}\n    ${composeRecap({ line: recapBesideTitle(s.recap.line, what) }, room)}`;
    })
    .join('\n');
}

/** What `resume REF --json` prints: the session REF named and the command that resumes it (run under recapwrap, in `cwd`). */
function resumePlanJson(plan: import('../../app/resume/resume-ref.js').ResumePlan, fork: boolean): Record<string, unknown> {
  return {
    session: { id: plan.id, name: plan.name, agent: plan.agent },
    cwd: plan.cwd,
    command: ['recapwrap', plan.command, ...plan.args],
    fork,
    // The transcript is gone: a new session of the agent, its reference typed as a draft.
    fresh: plan.fresh,
    ...(plan.draft === undefined ? {} : { draft: plan.draft }),
    ...(plan.note === undefined ? {} : { note: plan.note }),
  };
}

export interface ResumeDeps {
  env: Env;
  cwd: string;
  columns: number;
  now: number;
  interactive: boolean;
  /** One answer typed at the picker; null when input has ended (Ctrl-D). */
  ask(question: string): Promise<string | null>;
  /**
   * On a terminal: the arrow-key picker (resume-picker.ts); resolves to the index chosen, or null when the
   * user left. Without it, the numbered list and a question (`ask`).
   */
  pick?(sessions: readonly PastSession[]): Promise<number | null>;
  /** Print to the terminal (the listing and the picker's replies). */
  write(text: string): void;
  /** Relaunch: run the agent under recapwrap (the real one wraps it in this process), typing `draft` once it is ready. */
  launch(command: string, args: string[], agent: AgentId, cwd: string, draft?: string): Promise<number>;
  /** Whether QUERY names one session of the index, and how to relaunch it (default: app/resume-ref.ts). */
  planRef?(ref: string, cwd: string, next: boolean, folder?: string, fork?: boolean): Promise<import('../../app/resume/resume-ref.js').ResumeRefResult>;
  /** Read a session's whole conversation (`Nr` at the picker; default: `recapwrap read FILE` through the pager). */
  read?(file: string): Promise<void>;
}

// The picker's `Nr`: the session's conversation through the pager, as `recapwrap read FILE` shows it.
async function readInPager(file: string): Promise<void> {
  const { runRead } = await import('./read-run.js');
  await runRead(file, {}, { env: process.env, cwd: process.cwd(), tty: Boolean(process.stdout.isTTY), columns: process.stdout.columns, stdout: process.stdout, stderr: (text) => process.stderr.write(text) });
}

export async function runResume(query: string | undefined, options: ResumeCliOptions, deps: ResumeDeps): Promise<{ out: string; err: string; code: number }> {
  const r = await runResumeCommand(query, options, deps);
  // With --json, stdout is JSON whatever happened, as for sessions, search and show (#43.3).
  if (!options.json || r.code === 0 || r.out.trim() !== '') return r;
  return (await import('./memory-run.js')).jsonOnFailure(r);
}

async function runResumeCommand(query: string | undefined, options: ResumeCliOptions, deps: ResumeDeps): Promise<{ out: string; err: string; code: number }> {
  if (options.agent !== undefined && !isAgentId(options.agent)) {
    return { out: '', err: `recapwrap: ${formatExpected('`--agent`', `one of ${AGENT_IDS.join(', ')}`, `\`${options.agent}\``)}\n`, code: 2 };
  }
  const picked = parseCount('--pick', options.pick);
  if ('error' in picked) return { out: '', err: `recapwrap: ${picked.error}\n`, code: 2 };
  const pick = picked.value;
  const limited = parseCount('--limit', options.limit, 30);
  if ('error' in limited) return { out: '', err: `recapwrap: ${limited.error}\n`, code: 2 };
  const limit = limited.value;
  const cwd = resolve(options.cwd ?? deps.cwd);
  const config = resolveConfig({ env: deps.env, cwd });
  // HOST:REF (app/hosts/host-ref.ts): a session of a host of the config file, as with --host HOST.
  if (query?.includes(':') && !options.list && !options.json && pick === undefined) {
    const { applyHostRef } = await import('../../app/hosts/host-ref.js');
    const applied = applyHostRef(query, options, deps.env, cwd);
    if ('error' in applied) return { out: '', err: `recapwrap: ${applied.error}\n`, code: 2 };
    query = applied.ref;
    options = applied.flags;
  }
  // --host NAME / --all-hosts (#35): REF is found on those machines; one of a host resumes there (app/hosts).
  if (options.allHosts || options.host?.length) {
    if (query === undefined || options.list || options.json || pick !== undefined) return { out: '', err: 'recapwrap: with --host or --all-hosts, give the session to resume (find it with `recapwrap search --all-hosts`)\n', code: 2 };
    const { resumeAcrossHosts } = await import('../../app/hosts/resume-across.js');
    const runLocal = async () => (await import('./memory-run.js')).runMemoryCommand('show', [query], { json: true }, { env: deps.env, cwd, now: deps.now, columns: Number.POSITIVE_INFINITY, color: false });
    const across = await resumeAcrossHosts(query, options, { env: deps.env, cwd, now: deps.now, runLocal });
    if (across.kind === 'done') return { out: '', err: across.err, code: across.code };
    if (across.err) process.stderr.write(across.err);
  }
  // REF naming one session of the index (any folder): relaunch it at once (with --json: say what would
  // run); otherwise it filters the list.
  if (query !== undefined && !options.list && pick === undefined) {
    const planRef =
      deps.planRef ??
      (async (ref: string, at: string, next: boolean, folder?: string, fork?: boolean) =>
        (await import('../../app/resume/resume-ref.js')).planResumeRef({ ref, cwd: at, env: deps.env, options: config.options, next, fork, ...(folder === undefined ? {} : { folder }) }));
    // --cwd relaunches it there instead of in its own folder (one that is gone, say).
    const result = await planRef(query, cwd, Boolean(options.next), options.cwd === undefined ? undefined : cwd, Boolean(options.fork));
    // Each line of the message clean (its parts from a transcript were cleaned where it was made), indent kept.
    if (result.kind === 'error') return { out: '', err: `recapwrap: ${result.message.split('\n').map((l) => /^\s*/.exec(l)?.[0] + sanitizeLine(l)).join('\n')}\n`, code: 1 };
    if (result.kind === 'plan' && options.json) return { out: stringifyJsonSafely(resumePlanJson(result.plan, Boolean(options.fork)), 2) + '\n', err: '', code: 0 };
    if (result.kind === 'plan') {
      const { plan } = result;
      if (plan.note) process.stderr.write(`recapwrap: ${sanitizeLine(plan.note)}\n`);
      if (plan.fresh) process.stderr.write(`recapwrap: the transcript of ${sanitizeLine(plan.name)} is gone: a new ${plan.agent} session, its reference typed as a draft\n`);
      const code = await deps.launch(plan.command, plan.args, plan.agent, plan.cwd, plan.draft);
      return { out: '', err: '', code };
    }
  }
  const { listPastSessions } = await import('../../app/resume/resume.js');
  const { sessions, warnings } = await listPastSessions({ cwd, env: deps.env, options: config.options, agent: options.agent as AgentId | undefined, query, limit, all: options.all });
  const err = warnings.map((w) => `recapwrap: warning: ${w}\n`).join('');
  // Nothing listed is exit 1, as a pick of nothing (grep's rule; `sessions`/`search` too).
  if (options.json) return { out: stringifyJsonSafely(sessions.map((s, i) => ({ index: i + 1, ...s })), 2) + '\n', err, code: sessions.length ? 0 : 1 };
  if (sessions.length === 0) {
    // Nothing to resume exits 1, as `sessions` and `search` do; in one folder, the way to every folder.
    const what = options.agent ? `${options.agent} sessions` : 'agent sessions';
    const none = `no ${what} ${options.all ? 'in any folder' : `for ${cwd}`}${query ? ` matching "${sanitizeLine(query)}"` : ''}`;
    const hint = options.all ? '' : ` (\`recapwrap resume --all${query ? ` ${shellQuoteForTerminal(query)}` : ''}\` looks in every folder)`;
    return { out: '', err: err + `recapwrap: ${none}${hint}\n`, code: 1 };
  }
  const listing = renderSessions(sessions, deps.columns, deps.now, Boolean(options.all), getHomeDir(deps.env)) + '\n';
  if (options.list) return { out: listing, err, code: 0 };
  let index = pick;
  let withNext = Boolean(options.next);
  if (index === undefined) {
    if (!deps.interactive) return { out: listing, err: err + 'recapwrap: not a terminal: pick one with --pick N\n', code: 2 };
  }
  // On a terminal, the same picker as the popup's (#43.4): a long list no longer scrolls out of the pane.
  if (index === undefined && deps.pick) {
    const at = await deps.pick(sessions);
    if (at === null) return { out: '', err, code: 0 };
    index = at + 1;
  }
  if (index === undefined) {
    deps.write(listing);
    // A typo asks again; only q (or the end of input) leaves.
    for (;;) {
      const raw = await deps.ask(`resume which? [1-${sessions.length}, Enter = 1, N+ = with its next step typed, Nr = read it first, q = quit] `);
      if (raw === null) return { out: '', err, code: 0 };
      let answer = raw.trim();
      if (answer === 'q' || answer === 'quit') return { out: '', err, code: 0 };
      // `2r`: read session 2's conversation (recapwrap read), then choose again.
      const toRead = /^(\d+)\s*r$/i.exec(answer);
      if (toRead) {
        const s = sessions[Number(toRead[1]) - 1];
        if (s) {
          await (deps.read ?? readInPager)(s.file);
          deps.write(listing);
          continue;
        }
      }
      // The second key: `2+` resumes session 2 with its next step typed as a draft (as --next).
      if (answer.endsWith('+')) {
        withNext = true;
        answer = answer.slice(0, -1).trim();
      }
      const n = answer === '' ? 1 : Number(answer);
      if (Number.isInteger(n) && n >= 1 && n <= sessions.length) {
        index = n;
        break;
      }
      deps.write(`  ${JSON.stringify(answer)} is not on the list: type a number from 1 to ${sessions.length}, or q\n`);
    }
  }
  const chosen = sessions[index - 1];
  if (!chosen) return { out: '', err: err + `recapwrap: no session ${index}: the list has ${sessions.length}\n`, code: 1 };
  if (options.fork && !chosen.forkCommand) return { out: '', err: err + `recapwrap: ${chosen.agent} cannot fork a session (its CLI has no fork); resume it without --fork\n`, code: 2 };
  const [command, ...args] = (options.fork ? chosen.forkCommand : chosen.command) as [string, ...string[]];
  if (err) process.stderr.write(err);
  const draft = withNext ? chosen.recap.next.find((s) => s.trim() !== '') : undefined;
  if (withNext && !draft) process.stderr.write('recapwrap: this session has no next step recorded; resuming without a draft\n');
  // The agent resumes in the session's own folder (agents find their sessions by cwd).
  const code = await deps.launch(command, args, chosen.agent, options.all ? chosen.cwd : cwd, draft);
  return { out: '', err: '', code };
}
